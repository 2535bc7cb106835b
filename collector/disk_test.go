package collector

import (
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/disk/t0 and t1 (t1 = t0 + 2 s), 17 stat fields per line
// (kernel 5.5+). The devices and what becomes of them:
//
//	loop0 sr0               not ours (loop, CD-ROM)
//	zram0                   zram "zram0", id 0 (zram_test.go)
//	md127                   disk.md "md127", never in disk.dev or disk.all
//	sda vda nvme0n1         disk.dev, ids 0 1 2 in file order
//	sda1 sda2 nvme0n1p1     disk.partitions, ids 0 1 2
//	dm-0                    disk.dm "vg0-root" (sys/block/dm-0/dm/name), id 0
//	dm-1                    no dm/name in sys: skipped, as pmdalinux does
//
// Fields: rd_ios rd_merges rd_sectors rd_ticks wr_ios wr_merges wr_sectors
// wr_ticks in_flight io_ticks weighted_ticks ds_ios ds_merges ds_sectors
// ds_ticks fl_ios fl_ticks.
//
//	t0 sda   10000 500 800000 20000 5000 1000 400000 30000 2 40000 60000 100 5 20000 500 300 900
//	t1 sda   10200 510 803200 20400 5100 1020 406400 30800 1 41000 63000 110 5 22048 550 320 940
//	t0 vda   92956 10926 4642498 90545 11324 19873 1716448 9667 0 25044 102656 15412 45 1042352 2370 1107 74
//	t1 vda   93006 10926 4642898 90645 11474 19903 1718848 9967 0 25244 103156 15412 45 1042352 2370 1117 79
//	t0/t1 nvme0n1 (unchanged)
//	         50000 2000 4000000 25000 70000 9000 5600000 140000 0 90000 170000 900 30 1800000 4500 8000 16000
//	t0 sda1  6000 300 480000 12000 3000 600 240000 18000 0 25000 30000 40 2 8000 200 0 0
//	t1 sda1  6120 300 481920 12240 3080 600 245120 18640 0 25800 30880 40 2 8000 200 0 0
//	t0 dm-0  4000 0 8589936192 9000 2000 0 160000 11000 0 15000 21000 20 0 40960 60 50 100
//	t1 dm-0  4100 0 8589937792 9300 2100 0 166400 11500 0 15600 21800 24 0 45056 68 55 115
//
// vda's t0 line is /proc/diskstats of the development machine as captured.

const (
	diskSda, diskVda, diskNvme   uint32 = 0, 1, 2
	diskSda1, diskSda2, diskNvp1 uint32 = 0, 1, 2
	dmRoot                       uint32 = 0
)

// An md array is published under disk.md, with its iostat figures, and
// counted neither as a disk nor in disk.all (t0 and t1: md127, 500 reads
// of 40000 sectors and 200 writes of 16000, unchanged).
func TestDiskMD(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.wantMembers(indomMD, map[string]uint32{"md127": 0}, "md127")
	f.WantU64("disk.md.read", 0, 500)
	f.WantU64("disk.md.write_bytes", 0, 8000) // 16000 sectors / 2
	f.WantU64("disk.md.total", 0, 700)
	for _, x := range f.hostInstances(indomDisk) {
		if x.Name == "md127" {
			t.Error("md127 is listed as a disk")
		}
	}
	f.load("t1")
	f.MustSample(t1)
	f.WantFloat("rate.disk.md.read", 0, 0)
	f.WantFloat("disk.md.util", 0, 0)
}

// A disk's size and scheduler (sys/block/<disk>/size and
// queue/scheduler): sda 7814037168 sectors with mq-deadline, vda 536870912
// with none; nvme0n1 has neither file. At t1 sda's scheduler is bfq, which
// shows once the attributes are read again, a minute on.
func TestDiskCapacityAndScheduler(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.WantU64("disk.dev.capacity", diskSda, 7814037168/2)
	f.WantU64("disk.dev.capacity", diskVda, 268435456)
	f.hostWantString("disk.dev.scheduler", diskSda, "mq-deadline")
	f.hostWantString("disk.dev.scheduler", diskVda, "none")
	f.WantAbsent("disk.dev.capacity", diskNvme)
	f.load("t1")
	f.MustSample(t1)
	f.hostWantString("disk.dev.scheduler", diskSda, "mq-deadline")
	f.MustSample(t1.Add(diskAttrRefresh))
	f.hostWantString("disk.dev.scheduler", diskSda, "bfq")
}

func TestChosenScheduler(t *testing.T) {
	for in, want := range map[string]string{"none [mq-deadline] kyber": "mq-deadline", "[none]": "none", "none": "none", "noop deadline": ""} {
		if got := chosenScheduler(in); got != want {
			t.Errorf("chosenScheduler(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiskFirstSample(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)

	f.wantMembers(indomDisk, map[string]uint32{"sda": 0, "vda": 1, "nvme0n1": 2}, "sda", "vda", "nvme0n1")
	f.wantMembers(indomPartitions, map[string]uint32{"sda1": 0, "sda2": 1, "nvme0n1p1": 2}, "sda1", "sda2", "nvme0n1p1")
	f.wantMembers(indomDM, map[string]uint32{"vg0-root": 0}, "vg0-root")

	f.WantU64("disk.dev.read", diskSda, 10000)
	f.WantU64("disk.dev.total", diskSda, 15000)           // 10000 + 5000
	f.WantU64("disk.dev.blktotal", diskSda, 1200000)      // 800000 + 400000 sectors
	f.WantU64("disk.dev.read_bytes", diskSda, 400000)     // 800000 sectors / 2
	f.WantU64("disk.dev.total_bytes", diskSda, 600000)    // 1200000 / 2
	f.WantU64("disk.dev.total_rawactive", diskSda, 50000) // 20000 + 30000 ms
	f.WantU64("disk.dev.discard_bytes", diskSda, 10000)   // 20000 / 2
	f.WantU64("disk.dev.read_bytes", diskVda, 2321249)    // 4642498 / 2
	f.WantU64("disk.dev.total_bytes", diskVda, 3179473)   // (4642498 + 1716448) / 2
	f.WantU64("disk.dev.inflight", diskSda, 2)
	f.WantU64("disk.dev.flush", diskNvme, 8000)
	f.WantU64("disk.partitions.write_bytes", diskSda1, 120000) // 240000 / 2
	f.WantU64("disk.partitions.flush", diskSda1, 0)            // the kernel's 0, published
	f.WantU64("disk.dm.blkread", dmRoot, 8589936192)
	// disk.dm.*_bytes are 32-bit, as in pmdalinux 6.0.3: 8589936192/2 =
	// 4294968096 = 2^32 + 800, and (8589936192 + 160000)/2 = 2^32 + 80800.
	f.WantU64("disk.dm.read_bytes", dmRoot, 800)
	f.WantU64("disk.dm.total_bytes", dmRoot, 80800)
	f.WantU64("disk.dm.write_bytes", dmRoot, 80000)

	// disk.all sums sda, vda and nvme0n1 only.
	f.WantU64("disk.all.read", cache.InstNone, 152956)        // 10000 + 92956 + 50000
	f.WantU64("disk.all.read_bytes", cache.InstNone, 4721249) // 400000 + 2321249 + 2000000
	f.WantU64("disk.all.avactive", cache.InstNone, 155044)    // 40000 + 25044 + 90000
	f.WantU64("disk.all.discard_rawactive", cache.InstNone, 7370)
	f.WantU64("disk.all.inflight", cache.InstNone, 2)
	f.WantU64("disk.all.flush", cache.InstNone, 9407) // 300 + 1107 + 8000

	// One sample has no interval: no rates and no iostat figures.
	for _, prefix := range []string{"rate.", "disk.dev.util", "disk.dev.await", "disk.dm.await"} {
		if n := f.Published(prefix); n != 0 {
			t.Errorf("first sample published %d %s values", n, prefix)
		}
	}
}

func TestDiskRates(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.load("t1")
	f.MustSample(t1)

	f.WantFloat("rate.disk.dev.read", diskSda, 100)          // 200 / 2 s
	f.WantFloat("rate.disk.dev.write", diskSda, 50)          // 100 / 2 s
	f.WantFloat("rate.disk.dev.total", diskSda, 150)         // 300 / 2 s
	f.WantFloat("rate.disk.dev.blkread", diskSda, 1600)      // 3200 sectors / 2 s
	f.WantFloat("rate.disk.dev.read_bytes", diskSda, 800)    // 1600 KB / 2 s
	f.WantFloat("rate.disk.dev.write_bytes", diskSda, 1600)  // 3200 KB / 2 s
	f.WantFloat("rate.disk.dev.total_bytes", diskSda, 2400)  // (604800 - 600000) KB / 2 s
	f.WantFloat("rate.disk.dev.avactive", diskSda, 0.5)      // 1000 ms / 2 s, in s/s
	f.WantFloat("rate.disk.dev.aveq", diskSda, 1.5)          // 3000 ms / 2 s
	f.WantFloat("rate.disk.dev.discard_bytes", diskSda, 512) // 1024 KB / 2 s
	f.WantFloat("rate.disk.dev.flush", diskSda, 10)          // 20 / 2 s
	f.WantFloat("rate.disk.dev.flush_rawactive", diskSda, 0.02)
	f.WantU64("disk.dev.inflight", diskSda, 1) // an instant value: no rate
	if _, ok := f.Store.Schema().Lookup(engine.Prefix + "rate.disk.dev.inflight"); ok {
		t.Error("instant disk.dev.inflight has a rate twin")
	}
	f.WantFloat("rate.disk.dev.read_bytes", diskVda, 100) // (2321449 - 2321249) KB / 2 s
	f.WantFloat("rate.disk.dev.read", diskNvme, 0)        // idle: 0, not no value

	f.WantFloat("rate.disk.partitions.read", diskSda1, 60)          // 120 / 2 s
	f.WantFloat("rate.disk.partitions.write_bytes", diskSda1, 1280) // 2560 KB / 2 s
	f.WantFloat("rate.disk.partitions.avactive", diskSda1, 0.4)     // 800 ms / 2 s
	f.WantFloat("rate.disk.partitions.read", diskSda2, 0)

	f.WantFloat("rate.disk.dm.read", dmRoot, 50)          // 100 / 2 s
	f.WantFloat("rate.disk.dm.blkread", dmRoot, 800)      // 1600 sectors / 2 s
	f.WantFloat("rate.disk.dm.read_bytes", dmRoot, 400)   // 32-bit 800 -> 1600 KB / 2 s
	f.WantFloat("rate.disk.dm.total_bytes", dmRoot, 2000) // 32-bit 80800 -> 84800 KB / 2 s

	// disk.all: the sums' rates. read 152956 -> 153206, read_bytes 4721249
	// -> 4723049 (sda +1600, vda +200), avactive 155044 -> 156244, flush
	// 9407 -> 9437, discard_rawactive 7370 -> 7420.
	f.WantFloat("rate.disk.all.read", cache.InstNone, 125)
	f.WantFloat("rate.disk.all.read_bytes", cache.InstNone, 900)
	f.WantFloat("rate.disk.all.avactive", cache.InstNone, 0.6)
	f.WantFloat("rate.disk.all.flush", cache.InstNone, 15)
	f.WantFloat("rate.disk.all.discard_rawactive", cache.InstNone, 0.025)
	f.WantU64("disk.all.inflight", cache.InstNone, 1)

	if n := f.Resets(); n != 0 {
		t.Errorf("Resets() = %d, want 0", n)
	}
}

// The iostat figures of iostat.conf over the same 2 s interval.
func TestDiskIostat(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.load("t1")
	f.MustSample(t1)

	// sda: 200 reads taking 400 ms, 100 writes taking 800 ms, 1600 KB read,
	// 3200 KB written, 10 discards of 1024 KB in 50 ms, 20 flushes in 40 ms,
	// busy 1000 ms of the 2000.
	f.WantFloat("disk.dev.await", diskSda, 4)          // (400 + 800) / (200 + 100)
	f.WantFloat("disk.dev.r_await", diskSda, 2)        // 400 / 200
	f.WantFloat("disk.dev.w_await", diskSda, 8)        // 800 / 100
	f.WantFloat("disk.dev.d_await", diskSda, 5)        // 50 / 10
	f.WantFloat("disk.dev.f_await", diskSda, 2)        // 40 / 20
	f.WantFloat("disk.dev.avg_qlen", diskSda, 0.6)     // (400 + 800) ms / 1000 / 2 s
	f.WantFloat("disk.dev.avg_rqsz", diskSda, 16)      // (1600 + 3200) KB / 300
	f.WantFloat("disk.dev.r_avg_rqsz", diskSda, 8)     // 1600 / 200
	f.WantFloat("disk.dev.w_avg_rqsz", diskSda, 32)    // 3200 / 100
	f.WantFloat("disk.dev.d_avg_rqsz", diskSda, 102.4) // 1024 / 10
	f.WantFloat("disk.dev.util", diskSda, 50)          // 100 * 1000 ms / 1000 / 2 s

	// vda: 50 reads (100 ms, 200 KB), 150 writes (300 ms, 1200 KB), no
	// discards, 10 flushes in 5 ms, busy 200 ms.
	f.WantFloat("disk.dev.await", diskVda, 2)      // 400 / 200
	f.WantFloat("disk.dev.avg_rqsz", diskVda, 7)   // 1400 / 200
	f.WantFloat("disk.dev.r_avg_rqsz", diskVda, 4) // 200 / 50
	f.WantFloat("disk.dev.w_avg_rqsz", diskVda, 8) // 1200 / 150
	f.WantFloat("disk.dev.f_await", diskVda, 0.5)  // 5 / 10
	f.WantFloat("disk.dev.util", diskVda, 10)      // 100 * 200 / 1000 / 2
	f.WantFloat("disk.dev.avg_qlen", diskVda, 0.2) // 400 / 1000 / 2
	// No discard completed: iostat.conf's mkconst(0), not no value.
	f.WantFloat("disk.dev.d_await", diskVda, 0)
	f.WantFloat("disk.dev.d_avg_rqsz", diskVda, 0)

	// nvme0n1 did nothing: every figure 0.
	for _, fig := range iostatFigures {
		f.WantFloat(strings.TrimPrefix(fig.dev, "hostcache."), diskNvme, 0)
	}

	// vg0-root: 100 reads (300 ms, 800 KB), 100 writes (500 ms, 3200 KB), 4
	// discards (8 ms, 2048 KB), 5 flushes (15 ms), busy 600 ms.
	f.WantFloat("disk.dm.await", dmRoot, 4)      // 800 / 200
	f.WantFloat("disk.dm.r_await", dmRoot, 3)    // 300 / 100
	f.WantFloat("disk.dm.w_await", dmRoot, 5)    // 500 / 100
	f.WantFloat("disk.dm.d_await", dmRoot, 2)    // 8 / 4
	f.WantFloat("disk.dm.f_await", dmRoot, 3)    // 15 / 5
	f.WantFloat("disk.dm.avg_qlen", dmRoot, 0.4) // 800 / 1000 / 2
	f.WantFloat("disk.dm.avg_rqsz", dmRoot, 20)  // (800 + 3200) / 200
	f.WantFloat("disk.dm.r_avg_rqsz", dmRoot, 8) // 800 / 100
	f.WantFloat("disk.dm.w_avg_rqsz", dmRoot, 32)
	f.WantFloat("disk.dm.d_avg_rqsz", dmRoot, 512) // 2048 / 4
	f.WantFloat("disk.dm.util", dmRoot, 30)        // 100 * 600 / 1000 / 2

	// Partitions have no iostat figures in iostat.conf.
	if _, ok := f.Store.Schema().Lookup(engine.Prefix + "disk.partitions.await"); ok {
		t.Error("disk.partitions.await exists")
	}
}

// testdata/disk/pcp-t0 and pcp-t1 hold vda's counters as pmlogger recorded
// them from pmdalinux under dd load, at 04:51:46.067056 and 04:51:48.064216.
// `pmval -U -f 12` on that archive, with PCP's own iostat.conf, printed the
// figures below: we must agree. PCP's interval was 1.997159909 s, not the
// 1.997160 s of the printed stamps (util and avg_qlen both imply it): its
// archive code carries epoch times through a double, good to ~0.2 us. We
// sample over that interval so the comparison is exact.
func TestDiskIostatMatchesPCP(t *testing.T) {
	f := newDiskFixture(t, "pcp-t0", engine.Env{})
	f.MustSample(t0)
	f.load("pcp-t1")
	f.MustSample(t0.Add(1997159909 * time.Nanosecond))
	for name, want := range map[string]float64{
		"util": 69.698975716821, "avg_qlen": 0.565803466667, "await": 0.156748508808,
		"r_await": 0.222222222222, "w_await": 0.156666666667, "avg_rqsz": 63.927867942849,
		"r_avg_rqsz": 4, "w_avg_rqsz": 64.002777777778,
	} {
		if got := f.Float("disk.dev."+name, 0); math.Abs(got-want) > 1e-8 {
			t.Errorf("disk.dev.%s = %.12f, PCP says %.12f", name, got, want)
		}
	}
}

// testdata/disk/reset is t1 with sda replaced between samples by another
// disk in the same slot (same name and 8:0, model WDC WD40EFRX-68N): sda,
// sda1 and sda2 restart with every counter at 1 (partition flush fields 0).
func TestDiskCounterReset(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	before := f.indom(indomDisk)
	f.load("reset")
	f.MustSample(t1)

	// No rate, and no iostat figure, for the re-created devices...
	f.WantAbsent("rate.disk.dev.read", diskSda)
	f.WantAbsent("rate.disk.dev.avactive", diskSda)
	f.WantAbsent("disk.dev.await", diskSda)
	f.WantAbsent("disk.dev.util", diskSda)
	f.WantAbsent("rate.disk.partitions.read", diskSda1)
	f.WantAbsent("rate.disk.partitions.write", diskSda2)
	f.WantU64("disk.dev.read", diskSda, 1) // raw values as read
	// ...but the other devices keep theirs.
	f.WantFloat("rate.disk.dev.read", diskVda, 25)
	f.WantFloat("disk.dev.util", diskVda, 10)
	f.WantFloat("rate.disk.dev.read", diskNvme, 0)
	f.WantFloat("rate.disk.partitions.read", diskNvp1, 0)
	f.WantFloat("rate.disk.dm.read", dmRoot, 50)
	f.WantFloat("disk.dm.await", dmRoot, 4)
	// disk.all went backwards (sda's t0 counts exceed what vda added).
	f.WantAbsent("rate.disk.all.read", cache.InstNone)

	// Backwards: sda's 23 counters, 21 each for sda1 and sda2 (their flush
	// counters stayed 0), and disk.all's 23: 88.
	if n := f.Resets(); n != 88 {
		t.Errorf("Resets() = %d, want 88", n)
	}
	// The replaced disk is read afresh from /sys: a new model label, so a
	// new instance table.
	if got := f.labelsOf(indomDisk, "sda"); !slices.Contains(got, cache.StringLabel("model", "WDC WD40EFRX-68N")) {
		t.Errorf("sda labels after replacement = %v", got)
	}
	if f.indom(indomDisk) == before {
		t.Error("instance table not rebuilt after a label changed")
	}
}

// testdata/disk/change is t1 without nvme0n1, nvme0n1p1 and dm-0, and with a
// new disk sdb (partition sdb1; no /sys entries) and dm-2 "vg0-swap".
func TestDiskAppearVanishAndStableIDs(t *testing.T) {
	env := engine.Env{IDDir: t.TempDir()}
	f := newDiskFixture(t, "t0", env)
	f.MustSample(t0)
	f.load("change")
	f.MustSample(t1)

	f.wantMembers(indomDisk, map[string]uint32{"sda": 0, "vda": 1, "sdb": 3}, "sda", "vda", "sdb")
	f.wantMembers(indomPartitions, map[string]uint32{"sda1": 0, "sda2": 1, "sdb1": 3}, "sda1", "sda2", "sdb1")
	f.wantMembers(indomDM, map[string]uint32{"vg0-swap": 1}, "vg0-swap")
	f.WantAbsent("disk.dev.read", diskNvme) // gone: no value, id 2 not reused
	f.WantAbsent("disk.dm.read", dmRoot)
	f.WantU64("disk.dev.read", 3, 40)
	f.WantAbsent("rate.disk.dev.read", 3) // new: no rate yet
	f.WantFloat("rate.disk.dev.read", diskSda, 100)
	if got := f.labelsOf(indomDisk, "sdb"); got != nil {
		t.Errorf("sdb, with nothing in /sys, has labels %v", got)
	}

	// nvme0n1 comes back under its old id, without a rate for its first
	// sample back.
	f.load("t1")
	f.MustSample(t1.Add(2 * time.Second))
	f.wantMembers(indomDisk, map[string]uint32{"sda": 0, "vda": 1, "nvme0n1": 2}, "sda", "vda", "nvme0n1")
	f.WantAbsent("rate.disk.dev.read", diskNvme)

	// A restarted agent reloads the ids from IDDir.
	g := newDiskFixture(t, "change", env)
	g.MustSample(t0)
	g.wantMembers(indomDisk, map[string]uint32{"sda": 0, "vda": 1, "sdb": 3}, "sda", "vda", "sdb")
	g.wantMembers(indomDM, map[string]uint32{"vg0-swap": 1}, "vg0-swap")
	g.load("t0")
	g.MustSample(t1)
	g.wantMembers(indomDisk, map[string]uint32{"sda": 0, "vda": 1, "nvme0n1": 2}, "sda", "vda", "nvme0n1")
	g.wantMembers(indomPartitions, map[string]uint32{"sda1": 0, "sda2": 1, "nvme0n1p1": 2}, "sda1", "sda2", "nvme0n1p1")
	g.wantMembers(indomDM, map[string]uint32{"vg0-root": 0}, "vg0-root")
}

func TestDiskLabels(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	want := map[string][]cache.Label{
		// Sorted by label name; the model's sysfs padding trimmed.
		"sda":     {cache.StringLabel("model", "ST4000NM0035-1V4"), {Name: "rotational", Value: "true"}},
		"nvme0n1": {cache.StringLabel("model", "Samsung SSD 980 PRO 1TB"), {Name: "rotational", Value: "false"}},
		"vda":     {{Name: "rotational", Value: "true"}}, // virtio: no device/model
	}
	for name, w := range want {
		if got := f.labelsOf(indomDisk, name); !slices.Equal(got, w) {
			t.Errorf("%s labels = %v, want %v", name, got, w)
		}
	}
	wantDM := []cache.Label{cache.StringLabel("dm_device", "dm-0"), {Name: "rotational", Value: "false"}}
	if got := f.labelsOf(indomDM, "vg0-root"); !slices.Equal(got, wantDM) {
		t.Errorf("vg0-root labels = %v, want %v", got, wantDM)
	}
	if got := f.labelsOf(indomPartitions, "sda1"); got != nil {
		t.Errorf("sda1 labels = %v, want none", got)
	}

	// Unchanged membership and labels: the same tables are published again.
	tables := []*cache.Instances{f.indom(indomDisk), f.indom(indomPartitions), f.indom(indomDM)}
	f.load("t1")
	f.MustSample(t1)
	for i, id := range []cache.InDomID{indomDisk, indomPartitions, indomDM} {
		if f.indom(id) != tables[i] {
			t.Errorf("indom %d rebuilt although unchanged", id)
		}
	}
}

func TestDiskFilter(t *testing.T) {
	filter := engine.Filter{
		"disk":       {Exclude: regexp.MustCompile(`^vda$`)},
		"partitions": {Include: regexp.MustCompile(`^sda`)},
		"dm":         {Exclude: regexp.MustCompile(`root`)}, // by mapped name
	}
	f := newDiskFixture(t, "t0", engine.Env{Filter: filter})
	f.MustSample(t0)
	f.wantMembers(indomDisk, map[string]uint32{"sda": 0, "nvme0n1": 1}, "sda", "nvme0n1")
	f.wantMembers(indomPartitions, map[string]uint32{"sda1": 0, "sda2": 1}, "sda1", "sda2")
	f.wantMembers(indomDM, nil)
	// disk.all sums the disks published: sda + nvme0n1.
	f.WantU64("disk.all.read", cache.InstNone, 60000)
}

// A 4.x kernel: 14 fields, no discard or flush fields. They publish no
// value anywhere (never 0), nor do the figures built on them.
func TestDiskOldKernel(t *testing.T) {
	f := newDiskFixture(t, "old14-t0", engine.Env{})
	f.MustSample(t0)
	f.load("old14-t1")
	f.MustSample(t1)

	f.WantU64("disk.dev.read", diskSda, 10200)
	f.WantFloat("rate.disk.dev.read", diskSda, 100)
	f.WantFloat("disk.dev.await", diskSda, 4)
	f.WantFloat("disk.dev.util", diskSda, 50)
	f.WantFloat("disk.dm.await", dmRoot, 4)
	f.WantFloat("rate.disk.partitions.read", diskSda1, 60)
	for _, tree := range []string{"disk.dev.", "disk.partitions.", "disk.dm.", "disk.all."} {
		for _, field := range []string{"discard", "blkdiscard", "discard_bytes", "discard_merge",
			"discard_rawactive", "flush", "flush_rawactive"} {
			if n := f.Published(tree + field); n != 0 {
				t.Errorf("%s%s: %d values from a 14-field kernel", tree, field, n)
			}
			if n := f.Published("rate." + tree + field); n != 0 {
				t.Errorf("rate.%s%s: %d values from a 14-field kernel", tree, field, n)
			}
		}
	}
	for _, fig := range []string{"disk.dev.d_await", "disk.dev.f_await", "disk.dev.d_avg_rqsz",
		"disk.dm.d_await", "disk.dm.f_await", "disk.dm.d_avg_rqsz"} {
		if n := f.Published(fig); n != 0 {
			t.Errorf("%s: %d values from a 14-field kernel", fig, n)
		}
	}
}

// A 4.18 to 5.4 kernel: 18 fields, discard but no flush. Sampled twice
// unchanged: the discard figures are 0 (no discard completed), the flush
// ones absent.
func TestDiskKernel418(t *testing.T) {
	f := newDiskFixture(t, "k418", engine.Env{})
	f.MustSample(t0)
	f.MustSample(t1)
	f.WantU64("disk.dev.discard", diskSda, 100)
	f.WantU64("disk.all.discard", cache.InstNone, 100)
	f.WantU64("disk.partitions.discard_rawactive", diskSda1, 200)
	f.WantFloat("disk.dev.d_await", diskSda, 0)
	f.WantFloat("rate.disk.dev.discard", diskSda, 0)
	for _, name := range []string{"disk.dev.flush", "disk.all.flush", "disk.partitions.flush", "disk.dev.f_await"} {
		if n := f.Published(name); n != 0 {
			t.Errorf("%s: %d values from an 18-field kernel", name, n)
		}
	}
}

func TestDiskBrokenSources(t *testing.T) {
	for _, tree := range []string{"empty", "malformed"} {
		f := newDiskFixture(t, tree, engine.Env{})
		if err := f.Sample(t0); err == nil {
			t.Errorf("%s: sample succeeded", tree)
		}
		f.NothingPublished()
	}

	// A failed sample keeps the interval: the next rate is over the 2 s
	// since the last good sample.
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.load("malformed")
	if err := f.Sample(t0.Add(time.Second)); err == nil {
		t.Fatal("malformed sample succeeded")
	}
	f.load("t1")
	f.MustSample(t1)
	f.WantFloat("rate.disk.dev.read", diskSda, 100)
	f.WantFloat("disk.dev.util", diskSda, 50)

	// A truncated line (sda1 with 3 stat fields) drops that device only.
	g := newDiskFixture(t, "short", engine.Env{})
	g.MustSample(t0)
	g.wantMembers(indomDisk, map[string]uint32{"sda": 0, "vda": 1}, "sda", "vda")
	g.wantMembers(indomPartitions, nil)
}

func TestDiskBadRoot(t *testing.T) {
	if _, err := NewDiskCollector(engine.Env{Proc: "/nonexistent/proc", Sys: "/nonexistent/sys"}); err == nil {
		t.Error("a missing root was accepted")
	}
	if _, err := NewDiskCollector(engine.Env{Proc: filepath.Join(diskTestdata, "t0", "proc"), Sys: "/nonexistent/sys"}); err == nil {
		t.Error("a missing sys root was accepted")
	}
}

func TestDiskFieldIndexes(t *testing.T) {
	for idx, name := range map[int]string{
		dfRead: "read", dfWrite: "write", dfTotal: "total", dfReadBytes: "read_bytes",
		dfWriteBytes: "write_bytes", dfAvactive: "avactive", dfReadRaw: "read_rawactive",
		dfWriteRaw: "write_rawactive", dfTotalRaw: "total_rawactive", dfDiscard: "discard",
		dfDiscardBytes: "discard_bytes", dfDiscardRaw: "discard_rawactive", dfFlush: "flush",
		dfFlushRaw: "flush_rawactive",
	} {
		if diskFields[idx].name != name {
			t.Errorf("diskFields[%d] is %s, want %s", idx, diskFields[idx].name, name)
		}
	}
}

func TestClassifyDisk(t *testing.T) {
	for name, want := range map[string]diskKind{
		"sda": diskWhole, "sda1": diskPartition, "sdaa": diskWhole, "sdaa12": diskPartition,
		"hda": diskWhole, "hda3": diskPartition, "vda": diskWhole, "vdb12": diskPartition,
		"xvda": diskWhole, "xvda1": diskPartition, "dasda": diskWhole, "dasda1": diskPartition,
		"nvme0n1": diskWhole, "nvme0n1p1": diskPartition, "nvme10n2p13": diskPartition,
		"mmcblk0": diskWhole, "mmcblk0p2": diskPartition, "mmcblk0boot0": diskWhole,
		"rbd0": diskWhole, "rbd0p1": diskPartition, "nbd3": diskWhole, "nbd3p1": diskPartition,
		"dm-0": diskMapped, "dm-12": diskMapped,
		"loop0": diskIgnored, "loop0p1": diskIgnored, "ram0": diskIgnored, "zram0": diskCompressed, "zram12": diskCompressed,
		"sr0": diskIgnored, "md127": diskRAID, "md0p1": diskRAID, "md_d0": diskRAID,
		// Old '/' names: a partition ends in p<digits>...
		"rd/c0d0": diskWhole, "rd/c0d0p1": diskPartition,
		// ...and pmdalinux's heuristics, followed even where they are wrong:
		// no trailing digits after a '/' means partition, the kernel's '!'
		// for '/' makes a cciss disk a partition, as are pmem and zvol disks.
		"ida/disk": diskPartition, "cciss!c0d0": diskPartition, "pmem0": diskPartition, "zd0": diskPartition,
		// Not disks: SGI xvm volumes and 18-character multipath WWIDs.
		"myxvmvol": diskIgnored, "3600508b400105e2ab": diskIgnored,
	} {
		if got := classifyDisk(name); got != want {
			t.Errorf("classifyDisk(%q) = %d, want %d", name, got, want)
		}
	}
}

// Every row writes out its four full names (so a search for one finds its
// declaration); they must be the row's field below each tree, and the
// iostat figures' dev and dm names must agree.
func TestDiskNamesWrittenOut(t *testing.T) {
	for _, f := range diskFields {
		for tr, at := range f.in {
			if want := diskTreePrefixes[tr] + f.name; at.name != want {
				t.Errorf("%s in tree %d is named %s, want %s", f.name, tr, at.name, want)
			}
		}
	}
	for _, fig := range iostatFigures {
		dev, ok1 := strings.CutPrefix(fig.dev, diskTreePrefixes[diskDev])
		dm, ok2 := strings.CutPrefix(fig.dm, diskTreePrefixes[diskDM])
		if !ok1 || !ok2 || dev != dm {
			t.Errorf("iostat figure %s / %s", fig.dev, fig.dm)
		}
	}
}
