package proc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// A fetch the sample is late for learns the processes that exist now:
// one gone since the sample is not listed, in the process and hot
// domains alike; the groups list the same.
func TestPresentListsTheProcessesNow(t *testing.T) {
	h := collectortest.NewHarness(t, NewProcessCollector, "processes/t0")
	h.MustSample(collectortest.T0)
	if err := os.RemoveAll(filepath.Join(h.Proc, "300")); err != nil {
		t.Fatal(err)
	}
	var p cache.Present
	if err := h.C.(*processCollector).Present(&p); err != nil {
		t.Fatal(err)
	}
	for _, indom := range []cache.InDomID{indomProcess, indomHot} {
		for _, pid := range []uint32{1, 2, 100} {
			if !p.Has(indom, pid) {
				t.Errorf("domain %d: process %d is not listed", indom, pid)
			}
		}
		if p.Has(indom, 300) {
			t.Errorf("domain %d: the exited process 300 is listed", indom)
		}
	}
	if !p.Has(indomThreads, 300) {
		t.Error("the threads view is not /proc's directory's to list")
	}
	g := &groupCollector{rd: reader{root: h.Proc}, board: &board{}}
	var q cache.Present
	if err := g.Present(&q); err != nil || !q.Has(indomProcess, 100) || q.Has(indomProcess, 300) {
		t.Errorf("the group's listing: %v, 100 listed %v, 300 listed %v", err, q.Has(indomProcess, 100), q.Has(indomProcess, 300))
	}
	if err := (&groupCollector{inert: true, board: &board{}}).Present(&q); err == nil {
		t.Error("a group without the process collector listed processes")
	}
}

// A process whose status cannot be read while its directory stays keeps
// its other values (a missing file costs its own metrics only); one gone
// by the time its status is read is not published at all: a process
// listed without its user would break pcp-ps.
func TestStatusMissingOrProcessGone(t *testing.T) {
	h := collectortest.NewHarness(t, NewProcessCollector, "processes/t0")
	if err := os.Remove(filepath.Join(h.Proc, "300", "status")); err != nil {
		t.Fatal(err)
	}
	h.MustSample(collectortest.T0)
	h.WantU64("proc.psinfo.ppid", 300, 1)
	h.WantAbsent("proc.id.uid", 300)

	rd := reader{root: h.Proc}
	var r record
	if err := rd.read(300, &r); err != nil || r.hasStatus {
		t.Fatalf("read of 300 without status: %v, status %v", err, r.hasStatus)
	}
	gone := reader{root: h.Proc + "/missing"}
	if gone.exists(300) {
		t.Fatal("a process below a missing root exists")
	}
}
