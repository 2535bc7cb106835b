package pmda

import (
	"io"
	"testing"
)

// FuzzAttr: any ATTR is decoded without a panic, never answered, and
// leaves the credential table within its bound.
func FuzzAttr(f *testing.F) {
	f.Add(capture(f, "attr_pid"))
	f.Add(attrPDU(3, AttrUserID, "0\x00"))
	f.Add(attrPDU(3, AttrGroupID, "998\x00"))
	f.Add(attrPDU(-1, AttrUserID, "99999999999\x00"))
	f.Fuzz(func(t *testing.T, pdu []byte) {
		if len(pdu) < HeaderLen {
			return
		}
		s := newAccessServer(t, &checkedStorer{}, io.Discard)
		for i := 0; i < 3; i++ {
			if reply, err := s.handleAttr(Header{}, pdu); reply != nil || err != nil {
				t.Fatalf("ATTR answered %x %v", reply, err)
			}
			pdu = withFrom(pdu, int32(i))
		}
		if len(s.creds.byClient) > maxCredClients {
			t.Fatalf("%d clients kept", len(s.creds.byClient))
		}
	})
}
