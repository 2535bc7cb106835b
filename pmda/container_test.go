package pmda

import "testing"

// A client that asked for a container's view gets PM_ERR_NYI for its
// fetches and instance requests; other clients are served as ever, and
// the client is served again once pmcd clears its container.
func TestContainerContextsAreRefused(t *testing.T) {
	p := startServer(t, nil)
	fetch := (&Fetch{PMIDs: []uint32{wirePMID(tCount)}}).Append(nil)
	inst := (&InstanceReq{InDom: wireLoadInDom, Inst: InstNull}).Append(nil)
	p.send(attrPDU(3, AttrContainer, "web\x00"))
	p.expectError(withFrom(fetch, 3), ErrNYI)
	p.expectError(withFrom(inst, 3), ErrNYI)
	h, reply := p.roundTrip(withFrom(fetch, 4))
	var res Result
	if h.Type != TypeResult || res.Decode(reply) != nil || res.Sets[0].NumVal != 3 {
		t.Errorf("client 4, on the host: %v %s", h.Type, words(reply))
	}
	p.send(attrPDU(3, AttrContainer, "\x00"))
	if h, reply := p.roundTrip(withFrom(fetch, 3)); h.Type != TypeResult {
		t.Errorf("client 3 back on the host: %v %s", h.Type, words(reply))
	}
	p.send(attrPDU(5, AttrContainer, "db\x00"))
	p.send(withFrom(capture(t, "notconn"), 5))
	if h, reply := p.roundTrip(withFrom(fetch, 5)); h.Type != TypeResult {
		t.Errorf("client 5, gone and its number reused: %v %s", h.Type, words(reply))
	}
}
