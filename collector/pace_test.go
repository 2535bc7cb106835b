package collector

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The refreshes a collector makes between samples stretch with its
// sampling while it is slowed down (engine.Paced), and come back to their
// minute when a client reads it again.
var (
	_ engine.Paced = (*diskCollector)(nil)
	_ engine.Paced = (*filesysCollector)(nil)
)

// sda's scheduler changes at t1 (mq-deadline to bfq) and again at twelve
// minutes (kyber): at a tenth of the pace its attributes are read again
// after ten minutes, not one; back at full pace they are read at the next
// sample, being older than a minute.
func TestDiskAttrsPaced(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	c := f.C.(*diskCollector)
	f.MustSample(t0)
	c.Pace(10)
	f.load("t1")
	f.MustSample(t0.Add(diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "mq-deadline")
	f.MustSample(t0.Add(9 * diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "mq-deadline")
	f.MustSample(t0.Add(10 * diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "bfq")

	sched := filepath.Join(f.root, "sys/block/sda/queue/scheduler")
	if err := os.WriteFile(sched, []byte("[kyber] bfq\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t0.Add(12 * diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "bfq") // two minutes old
	c.Pace(1)
	f.MustSample(t0.Add(12*diskAttrRefresh + time.Second))
	f.hostWantString("disk.dev.scheduler", diskSda, "kyber")
}

// The disk layout is placed afresh at the paced refresh, and a pace
// change alone makes the next sample a full one: its due times are
// counted again.
func TestDiskLayoutPaced(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	c := f.C.(*diskCollector)
	f.MustSample(t0)
	placed := c.layout.placed
	c.Pace(10)
	f.MustSample(t0.Add(diskLayoutRefresh + time.Second))
	if !c.made.Equal(t0.Add(diskLayoutRefresh + time.Second)) {
		t.Error("the sample after a pace change was not built in full")
	}
	if !c.layout.placed.Equal(placed) {
		t.Error("layout placed afresh within ten minutes at a tenth of the pace")
	}
	f.MustSample(t0.Add(10 * diskLayoutRefresh))
	if c.layout.placed.Equal(placed) {
		t.Error("layout not placed afresh after ten minutes at a tenth of the pace")
	}
}

// The mount table's links are resolved again after ten minutes at a tenth
// of the pace, and at the next sample once back at full pace.
func TestFilesysTablePaced(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	resolves := countResolves(c)
	h.MustSample(t0)
	c.Pace(10)
	first := *resolves
	h.MustSample(t0.Add(9 * mountTableRefresh))
	if *resolves != first {
		t.Errorf("links resolved again within ten minutes at a tenth of the pace (%d, want %d)", *resolves, first)
	}
	h.MustSample(t0.Add(10 * mountTableRefresh))
	if *resolves == first {
		t.Fatal("links not resolved again after ten minutes at a tenth of the pace")
	}
	c.Pace(1)
	now := *resolves
	h.MustSample(t0.Add(10*mountTableRefresh + time.Second))
	if *resolves != now {
		t.Error("links resolved again a second after they were, at full pace")
	}
	h.MustSample(t0.Add(11*mountTableRefresh + time.Second))
	if *resolves == now {
		t.Error("links not resolved again a minute on, back at full pace")
	}
}
