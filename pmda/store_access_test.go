package pmda

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func TestStoreAccessAllows(t *testing.T) {
	a := &StoreAccess{Users: []uint32{0}, Groups: []uint32{998}}
	for _, c := range []struct {
		who  cache.Credentials
		want bool
	}{
		{cache.Credentials{UID: 0, GID: 0, Known: true}, true},
		{cache.Credentials{UID: 500, GID: 998, Known: true}, true},
		{cache.Credentials{UID: 998, GID: 500, Known: true}, false}, // a uid equal to an allowed gid is nothing
		{cache.Credentials{UID: 65534, GID: 65534, Known: true}, false},
		{cache.Credentials{}, false}, // unknown: not root, though its zero uid says 0
	} {
		if got := a.Allows(c.who); got != c.want {
			t.Errorf("Allows(%+v) = %v, want %v", c.who, got, c.want)
		}
	}
}

// checkedStorer is a testStorer that checks values apart, as the runner does.
type checkedStorer struct{ testStorer }

func (s *checkedStorer) CheckPMStore(reqs []cache.PMStoreRequest) error {
	for _, q := range reqs {
		if int32(q.Value.Bits) < 0 {
			return cache.ErrNegative
		}
	}
	return nil
}

func newAccessServer(t testing.TB, storer cache.PMStorer, out io.Writer) *Server {
	return NewServer(Config{Domain: testDomain, Front: newTestStore(t), PMStore: storer, Log: zerolog.Nop(),
		StoreAccess: &StoreAccess{Users: []uint32{0}, Groups: []uint32{998}}}, nil, out)
}

func storeCode(s *Server, from int32, pdu []byte) Errno {
	_, err := s.handleStore(Header{From: from}, pdu)
	var code Errno
	if err != nil && !errors.As(err, &code) {
		return ErrIPC
	}
	return code
}

// A store is applied only for a client pmcd described as allowed, with
// who it is; a refused one changes nothing; a malformed value is refused
// for what it is before who asks is looked at.
func TestStoreNeedsAnAllowedClient(t *testing.T) {
	storer := &checkedStorer{}
	s := newAccessServer(t, storer, io.Discard)
	attr := func(from int32, key uint32, v string) {
		if reply, err := s.handleAttr(Header{From: from}, attrPDU(from, key, v)); reply != nil || err != nil {
			t.Fatalf("ATTR answered %x %v", reply, err)
		}
	}
	if c := storeCode(s, 3, storePDU(t, tStored, 5)); c != ErrPermission {
		t.Errorf("unknown client: %v", c)
	}
	if c := storeCode(s, 3, storePDU(t, tStored, 0xfffffffb)); c != ErrSign {
		t.Errorf("unknown client, negative value: %v, want the value's error", c)
	}
	attr(3, AttrUserID, "65534\x00")
	attr(3, AttrGroupID, "65534\x00")
	attr(4, AttrUserID, "1000\x00")
	attr(4, AttrGroupID, "998\x00")
	if c := storeCode(s, 3, storePDU(t, tStored, 5)); c != ErrPermission {
		t.Errorf("nobody: %v", c)
	}
	if c := storeCode(s, 4, storePDU(t, tStored, 6)); c != 0 {
		t.Errorf("a member of the allowed group: %v", c)
	}
	if len(storer.stored) != 1 || storer.stored[0].Who != (cache.Credentials{UID: 1000, GID: 998, Known: true}) {
		t.Errorf("stored %+v", storer.stored)
	}
	s.handleError(Header{From: 4}, withFrom(capture(t, "notconn"), 4))
	if c := storeCode(s, 4, storePDU(t, tStored, 7)); c != ErrPermission {
		t.Errorf("after NOTCONN the client's number is a stranger: %v", c)
	}
	if len(storer.stored) != 1 {
		t.Errorf("refused stores were applied: %+v", storer.stored)
	}
}

// Refusals are logged ten a minute at most, the next logged one saying
// how many were not.
func TestRefusalLogIsBounded(t *testing.T) {
	var buf bytes.Buffer
	log := zerolog.New(&buf)
	var l refusalLog
	now := time.Unix(1_790_000_000, 0)
	for i := 0; i < 25; i++ {
		l.note(log, now.Add(time.Duration(i)*time.Second), 1, cache.Credentials{UID: 65534, Known: true})
	}
	if n := bytes.Count(buf.Bytes(), []byte("\n")); n != refusalsPerMinute {
		t.Errorf("%d lines logged in a minute, want %d", n, refusalsPerMinute)
	}
	buf.Reset()
	l.note(log, now.Add(time.Minute), 1, cache.Credentials{})
	if !bytes.Contains(buf.Bytes(), []byte(`"not_logged":15`)) || !bytes.Contains(buf.Bytes(), []byte(`"uid":"unknown"`)) {
		t.Errorf("the next minute's first line: %s", buf.Bytes())
	}
}
