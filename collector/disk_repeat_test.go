package collector

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// With /proc/diskstats unchanged a sample repeats the one before, but what
// is read besides it still shows: an array's status at once (it is read
// every sample), a disk's scheduler when its attributes are due again.
func TestDiskRepeatStillSeesSysfs(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.mustSample(t0)
	f.mustSample(t0.Add(time.Second))
	snap := f.store.Load()
	src, _ := snap.Schema.SourceIndex("disk")
	if p := snap.Part(src); p == nil || !p.Repeats() {
		t.Fatal("the same diskstats text did not repeat the sample before")
	}
	md, _ := f.indom(indomMD).Lookup("md127")
	sys := filepath.Join(f.root, "sys", "block")
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(sys, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("md127/md/degraded", "1\n")
	f.mustSample(t0.Add(2 * time.Second))
	f.wantU64("disk.md.status", md, 1)
	write("sda/queue/scheduler", "mq-deadline [bfq]\n")
	f.mustSample(t0.Add(3 * time.Second))
	f.hostWantString("disk.dev.scheduler", diskSda, "mq-deadline") // kept for a minute
	f.mustSample(t0.Add(diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "bfq")
}
