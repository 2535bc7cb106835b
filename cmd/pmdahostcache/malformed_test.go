package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

const testDomain = config.DefaultDomain

// startAgent runs the real binary on pipes, as pmcd does, against the
// fixture /proc tree, and returns it with its log file.
func startAgent(t *testing.T) (*driver.Agent, string) {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	logFile := filepath.Join(dir, "agent.log")
	a, err := driver.Start(agentPath, []string{"-d", "396", "-l", logFile, "-U", "root", "-c", conf,
		"-r", "../../testdata/proc-t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	return a, logFile
}

func pmidOf(name string) uint32 {
	_, store, _ := buildCache(config.Default(), discardLog())
	d, ok := store.Schema().Lookup(name)
	if !ok {
		panic("no metric " + name)
	}
	return testDomain<<22 | uint32(d.ID)
}

func word(b []byte, off int, v uint32) []byte {
	out := append([]byte{}, b...)
	binary.BigEndian.PutUint32(out[off:], v)
	return out
}

func descReq(name string) []byte { return (&pmda.DescReq{PMID: pmidOf(name)}).Append(nil) }

// storeInsitu builds a store RESULT of one INSITU value for pmid.
func storeInsitu(pmid, value uint32) []byte {
	return pmda.AppendResult(nil, 0, []pmda.ValueSet{{PMID: pmid, Type: cache.TypeU32,
		Values: []cache.Value{cache.U32Value(cache.InstNone, value)}}})
}

// storeBlock builds a store RESULT of one value block of type t for pmid.
func storeBlock(pmid uint32, t cache.Type) []byte {
	return pmda.AppendResult(nil, 0, []pmda.ValueSet{{PMID: pmid, Type: t,
		Values: []cache.Value{cache.U64Value(cache.InstNone, 5)}}})
}

// TestMalformedPDUsGetErrors sends every kind of bad request pmcd could
// frame to the real agent on pipes. Each gets exactly one ERROR with the
// right code (or nothing, where no reply is due), the next good request is
// answered in step, nothing but PDUs reaches stdout, and the agent exits
// cleanly on EOF with no panic logged.
func TestMalformedPDUsGetErrors(t *testing.T) {
	a, logFile := startAgent(t)
	fetch := (&pmda.Fetch{PMIDs: []uint32{pmidOf("hostcache.hinv.ncpu"), pmidOf("hostcache.mem.physmem")}}).Append(nil)
	instReq := (&pmda.InstanceReq{InDom: testDomain<<22 | 2, Inst: pmda.InstNull, Name: "abcd"}).Append(nil)
	interval := pmidOf("hostcache.control.interval")
	big := make([]byte, 2<<20)
	copy(big, word(word(fetch, 0, uint32(len(big))), 4, uint32(pmda.TypeFetch)))
	cases := []struct {
		name string
		pdu  []byte
		want pmda.Errno // 0 with noReply: nothing comes back
		none bool
	}{
		// Not requests: pmcd expects no reply, and one would be read as
		// the answer to its next request.
		{"unknown type", []byte{0, 0, 0, 12, 0, 0, 0x70, 0x99, 0, 0, 0, 0}, 0, true},
		{"type 0", []byte{0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0}, 0, true},
		{"type 0x7fff", []byte{0, 0, 0, 12, 0, 0, 0x7f, 0xff, 0, 0, 0, 0}, 0, true},
		{"type 0x12345678", []byte{0, 0, 0, 12, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0}, 0, true},
		{"CONTROL_REQ", []byte{0, 0, 0, 16, 0, 0, 0x70, 0x0a, 0, 0, 0, 0, 0, 0, 0, 1}, 0, true},
		{"HIGHRES_FETCH", word(word(fetch, 4, 0x7014), 0, uint32(len(fetch))), 0, true},
		{"DESC_IDS", []byte{0, 0, 0, 20, 0, 0, 0x70, 0x16, 0, 0, 0, 0, 0, 0, 0, 1, 0x63, 0, 0x04, 0x2a}, 0, true},
		{"DESC, a reply type", (&pmda.Desc{PMID: interval}).Append(nil), 0, true},
		{"INSTANCE, a reply type", word(instReq, 4, uint32(pmda.TypeInstance)), 0, true},
		{"TEXT, a reply type", word(descReq("hostcache.hinv.ncpu"), 4, uint32(pmda.TypeText)), 0, true},
		{"LABEL, a reply type", word(descReq("hostcache.hinv.ncpu"), 4, uint32(pmda.TypeLabel)), 0, true},
		{"len not matching numpmid", word(fetch, 24, 3), pmda.ErrIPC, false},
		{"absurd numpmid", word(fetch, 24, 0x7fffffff), pmda.ErrIPC, false},
		{"negative numpmid", word(fetch, 24, 0xffffffff), pmda.ErrIPC, false},
		{"numpmid zero", word(fetch[:28], 0, 28), pmda.ErrIPC, false},
		{"instance name length too big", word(instReq, 28, 99999), pmda.ErrIPC, false},
		{"instance name length negative", word(instReq, 28, 0xfffffffc), pmda.ErrIPC, false},
		{"desc req with trailing bytes", word(append(descReq("hostcache.hinv.ncpu"), 0, 0, 0, 0), 0, 20), pmda.ErrIPC, false},
		{"text req too short", word((&pmda.TextReq{Ident: interval, Type: 5}).Append(nil)[:16], 0, 16), pmda.ErrIPC, false},
		{"label type unknown", (&pmda.LabelReq{Ident: interval, Type: 0x99}).Append(nil), pmda.ErrType, false},
		{"store U64 as INSITU", storeInsitu(pmidOf("hostcache.kernel.all.cpu.user"), 1), pmda.ErrConv, false},
		{"store I32 as a block", storeBlock(interval, cache.TypeU64), pmda.ErrConv, false},
		{"store block of the wrong type", storeBlock(pmidOf("hostcache.kernel.all.cpu.user"), cache.TypeDouble), pmda.ErrType, false},
		{"store block offset outside", word(storeBlock(interval, cache.TypeU64), 40, 0xffff), pmda.ErrIPC, false},
		{"store absurd numpmid", word(storeInsitu(interval, 500), 20, 0x7fffffff), pmda.ErrIPC, false},
		{"store negative interval", storeInsitu(interval, 0xfffffff6), pmda.ErrSign, false},
		{"store interval out of range", storeInsitu(interval, 99), pmda.ErrBadStore, false},
		{"store read-only", storeInsitu(pmidOf("hostcache.hinv.ncpu"), 4), pmda.ErrPermission, false},
		{"store unknown PMID", storeInsitu(testDomain<<22|4000<<10, 4), pmda.ErrPMID, false},
		{"oversized PDU", big, pmda.ErrIPC, false},
		{"malformed PROFILE", word([]byte{0, 0, 0, 16, 0, 0, 0x70, 0x02, 0, 0, 0, 0, 0, 0, 0, 0}, 12, 1), 0, true},
		{"ATTR", []byte{0, 0, 0, 0x12, 0, 0, 0x70, 0x11, 0, 0, 0, 0, 0, 0, 0, 0x0b, '0', 0}, 0, true},
		{"ERROR other than NOTCONN", (&pmda.ErrorPDU{Code: pmda.ErrGeneric}).Append(nil), 0, true},
		{"CREDS after start-up", (&pmda.Creds{Version: 2}).Append(nil), 0, true},
	}
	good := descReq("hostcache.kernel.all.load")
	for _, c := range cases {
		if err := a.Send(c.pdu); err != nil {
			t.Fatalf("%s: send: %v", c.name, err)
		}
		if !c.none {
			h, reply, err := a.Read()
			var e pmda.ErrorPDU
			if err != nil || h.Type != pmda.TypeError || e.Decode(reply) != nil || e.Code != c.want {
				t.Fatalf("%s: reply %v %x (%v), want ERROR %v", c.name, h.Type, reply, err, c.want)
			}
		}
		h, _, err := a.Request(good)
		if err != nil || h.Type != pmda.TypeDesc {
			t.Fatalf("after %s: %v %v, want DESC", c.name, h.Type, err)
		}
	}
	rest, err := a.Close(5 * time.Second)
	if err != nil || len(rest) != 0 {
		t.Errorf("exit on EOF: %v, %d stray bytes on stdout", err, len(rest))
	}
	checkLog(t, logFile)
}

// checkLog fails on a panic or race report in the agent's log.
func checkLog(t *testing.T, logFile string) {
	t.Helper()
	data, _ := os.ReadFile(logFile)
	for _, bad := range []string{"panic", "DATA RACE"} {
		if strings.Contains(string(data), bad) {
			t.Errorf("agent log has %q:\n%s", bad, data)
		}
	}
}

// TestUnframeablePDUsCloseCleanly: input that cannot be framed (a short
// header, a length below 12, a negative type, a length far beyond any
// limit) ends the conversation: the agent exits without a panic, without
// allocating what the header claims, and without writing anything.
func TestUnframeablePDUsCloseCleanly(t *testing.T) {
	cases := map[string][]byte{
		"short header then EOF": {0, 0, 0, 20, 0},
		"length below header":   {0, 0, 0, 4, 0, 0, 0x70, 0x03, 0, 0, 0, 0},
		"negative type":         {0, 0, 0, 16, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0},
		"length of 2 GiB":       {0x7f, 0xff, 0xff, 0xff, 0, 0, 0x70, 0x03, 0, 0, 0, 0},
		"EOF inside a body":     {0, 0, 0, 40, 0, 0, 0x70, 0x03, 0, 0, 0, 0, 0, 0},
	}
	for name, pdu := range cases {
		t.Run(name, func(t *testing.T) {
			a, logFile := startAgent(t)
			a.Send(pdu)
			rest, err := a.Close(5 * time.Second)
			if err == driver.ErrNoExit {
				t.Fatal("agent did not exit")
			}
			if len(rest) != 0 && !bytes.HasPrefix(rest, []byte{0, 0, 0, 16, 0, 0, 0x70, 0}) {
				t.Errorf("agent wrote %x", rest)
			}
			checkLog(t, logFile)
		})
	}
}
