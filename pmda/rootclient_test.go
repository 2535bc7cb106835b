package pmda

import (
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeRoot plays pmdaroot on a unix socket: an INFO PDU to each client,
// then PROCESSID for each PROCESSID_REQ, pid 4321 for the containers it
// knows and PM_ERR_NOCONTAINER for the others. It records the names asked.
type fakeRoot struct {
	path  string
	known map[string]bool
	asked chan string
	ln    net.Listener
}

func startFakeRoot(t *testing.T, known ...string) *fakeRoot {
	t.Helper()
	f := &fakeRoot{path: filepath.Join(t.TempDir(), "root.socket"), known: map[string]bool{}, asked: make(chan string, 16)}
	for _, k := range known {
		f.known[k] = true
	}
	ln, err := net.Listen("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	f.ln = ln
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(conn)
		}
	}()
	return f
}

func rootPDU(typ, status, pid int32, name string) []byte {
	ne := binary.NativeEndian
	b := make([]byte, 24+len(name))
	ne.PutUint32(b[0:], uint32(typ))
	ne.PutUint32(b[4:], uint32(len(b)))
	ne.PutUint32(b[8:], uint32(status))
	ne.PutUint32(b[12:], 2)
	ne.PutUint32(b[16:], uint32(pid))
	ne.PutUint32(b[20:], uint32(len(name)))
	copy(b[24:], name)
	return b
}

func (f *fakeRoot) serve(conn net.Conn) {
	defer conn.Close()
	info := rootPDU(rootInfo, 0, 7, "") // features 7, zeroed 0
	if _, err := conn.Write(info); err != nil {
		return
	}
	buf := make([]byte, 8192)
	for {
		n, err := conn.Read(buf)
		if err != nil || n < 24 {
			return
		}
		ne := binary.NativeEndian
		if ne.Uint32(buf) != rootProcessIDReq || int(ne.Uint32(buf[4:])) != n {
			return
		}
		name := string(buf[24 : 24+ne.Uint32(buf[20:])])
		f.asked <- name
		reply := rootPDU(rootProcessID, int32(ErrNoContainer), 0, "")
		if f.known[name] {
			reply = rootPDU(rootProcessID, 0, 4321, "")
		}
		if _, err := conn.Write(reply); err != nil {
			return
		}
	}
}

// FindContainer asks pmdaroot by name over its own protocol and gives
// pmdaroot's verdict; without pmdaroot it answers PM_ERR_NOTCONN, as
// pmdalinux does, and it connects again once pmdaroot is back.
func TestRootClientFindsContainers(t *testing.T) {
	f := startFakeRoot(t, "web")
	c, err := DialRoot(f.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.FindContainer("web"); err != nil {
		t.Errorf("web: %v, want found", err)
	}
	if err := c.FindContainer("nosuch"); err != ErrNoContainer {
		t.Errorf("nosuch: %v, want PM_ERR_NOCONTAINER", err)
	}
	if got := []string{<-f.asked, <-f.asked}; got[0] != "web" || got[1] != "nosuch" {
		t.Errorf("pmdaroot was asked %q", got)
	}
	if err := c.FindContainer(""); err != ErrNoContainer {
		t.Errorf("empty name: %v (pmdaroot drops a client that asks for one)", err)
	}
	select {
	case n := <-f.asked:
		t.Errorf("an empty name reached pmdaroot: %q", n)
	default:
	}

	missing := filepath.Join(t.TempDir(), "root.socket")
	c2, err := DialRoot(missing, time.Second)
	if err == nil {
		t.Fatal("connected to a socket that is not there")
	}
	if err := c2.FindContainer("web"); err != ErrNotConn {
		t.Errorf("without pmdaroot: %v, want PM_ERR_NOTCONN", err)
	}
	f2 := startFakeRoot(t, "web")
	os.Rename(f2.path, missing)
	if err := c2.FindContainer("web"); err != nil {
		t.Errorf("pmdaroot back: %v", err)
	}
}

// A container that does not exist gets pmdalinux's PM_ERR_NOCONTAINER at
// fetches and instance requests; one that exists gets PM_ERR_NYI, as the
// agent samples the host only; the host's clients are served as ever.
func TestContainerLookupThroughPmdaroot(t *testing.T) {
	f := startFakeRoot(t, "web")
	c, err := DialRoot(f.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := startServerWith(t, func(cfg *Config) { cfg.Containers = c })
	fetch := (&Fetch{PMIDs: []uint32{wirePMID(tCount)}}).Append(nil)
	inst := (&InstanceReq{InDom: wireLoadInDom, Inst: InstNull}).Append(nil)
	p.send(attrPDU(3, AttrContainer, "nosuch\x00"))
	p.expectError(withFrom(fetch, 3), ErrNoContainer)
	p.expectError(withFrom(inst, 3), ErrNoContainer)
	p.send(attrPDU(4, AttrContainer, "web\x00"))
	p.expectError(withFrom(fetch, 4), ErrNYI)
	p.expectError(withFrom(inst, 4), ErrNYI)
	h, reply := p.roundTrip(withFrom(fetch, 5))
	var res Result
	if h.Type != TypeResult || res.Decode(reply) != nil || res.Sets[0].NumVal != 3 {
		t.Errorf("client 5, on the host: %v %s", h.Type, words(reply))
	}
	// pmdaroot is asked at each request, as pmdalinux asks it.
	for _, want := range []string{"nosuch", "nosuch", "web", "web"} {
		if got := <-f.asked; got != want {
			t.Errorf("pmdaroot asked for %q, want %q", got, want)
		}
	}
}
