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
	f.MustSample(t0)
	f.MustSample(t0.Add(time.Second))
	if !f.Repeated("disk") {
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
	f.MustSample(t0.Add(2 * time.Second))
	f.WantU64("disk.md.status", md, 1)
	write("sda/queue/scheduler", "mq-deadline [bfq]\n")
	f.MustSample(t0.Add(3 * time.Second))
	f.hostWantString("disk.dev.scheduler", diskSda, "mq-deadline") // kept for a minute
	f.MustSample(t0.Add(diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "bfq")
}

// An attribute a disk lacks is looked for again every absentRecheck
// refreshes, not at each: nvme0n1 has no size file at t0 (the first
// read); one that appears shows at the tenth read, not the next.
func TestDiskAbsentAttributeRechecked(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.WantAbsent("disk.dev.capacity", diskNvme)
	if err := os.WriteFile(filepath.Join(f.root, "sys", "block", "nvme0n1", "size"), []byte("2000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for k := 1; k < absentRecheck-1; k++ {
		f.MustSample(t0.Add(time.Duration(k) * diskAttrRefresh))
		if _, ok := f.Value("disk.dev.capacity", diskNvme); ok {
			t.Fatalf("the new size file was read at refresh %d", k)
		}
	}
	f.MustSample(t0.Add((absentRecheck - 1) * diskAttrRefresh))
	f.WantU64("disk.dev.capacity", diskNvme, 1000)
	f.WantU64("disk.dev.capacity", diskSda, 7814037168/2) // present ones are read every refresh
}
