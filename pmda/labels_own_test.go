package pmda

import "testing"

// A server that answers with the metrics' and domains' own labels leaves
// out the collector the schema adds, and keeps every other label.
func TestOwnLabelsOnlyLeaveOutTheCollector(t *testing.T) {
	p := startServerWith(t, func(cfg *Config) { cfg.OwnLabelsOnly = true })
	_, reply := p.roundTrip((&LabelReq{Ident: wireLoadInDom, Type: LabelInDom}).Append(nil))
	if !containsBytes(reply, `{"indom_name":"per window"}`) || containsBytes(reply, "collector") {
		t.Errorf("indom labels %q", reply)
	}
	_, reply = p.roundTrip((&LabelReq{Ident: wirePMID(tCount), Type: LabelItem}).Append(nil))
	if containsBytes(reply, "collector") {
		t.Errorf("item labels %q", reply)
	}
	_, reply = p.roundTrip((&LabelReq{Ident: wireLoadInDom, Type: LabelInstances}).Append(nil))
	if !containsBytes(reply, `{"window":"1 minute","zeta":true}`) {
		t.Errorf("instance labels %q", reply)
	}
}
