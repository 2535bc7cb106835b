package collector

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixture testdata/zram (see its README.md). The zram lines, fields as in
// disk_test.go (rd_ios rd_merges rd_sectors rd_ticks wr_ios wr_merges
// wr_sectors wr_ticks in_flight io_ticks weighted_ticks ds_ios ds_merges
// ds_sectors ds_ticks fl_ios fl_ticks):
//
//	t0 zram0 4100 0 32800 12 25000 0 200000 350 1 360 362 300 0 2400 3 0 0
//	t1 zram0 4300 0 34400 14 25400 0 203200 356 0 380 372 310 0 2480 3 0 0
//	zram1    all 0 (not set up)
//
// sys/block/zram0 at t0: disksize 4294967296 (4 GiB); io_stat 1 2 3 250;
// mm_stat 104857600 26214400 29360128 0 31457280 120 7 15 2; bd_stat 10 4 12.
// At t1 io_stat's notify_free is 270 and mm_stat starts 106954752 26738688
// 29884416 and has 124 same pages. zram1: disksize 0, io_stat 0s, a 7-field
// mm_stat (a kernel before huge_pages), no bd_stat.
var zramTestdata = filepath.Join(testdataDir, "zram")

const zram0, zram1 uint32 = 0, 1

func newZramFixture(t *testing.T, tree string, env engine.Env) *diskFixture {
	t.Helper()
	return newDiskFixtureIn(t, zramTestdata, tree, env)
}

// zramPageKB is mm_stat's page in KB on this host (4 on x86-64).
var zramPageKB = zramPageSize() / 1024

// Every zram metric and capacity the disk collector declares is
// pmdalinux's, and every zram metric of pmdalinux's is declared.
func TestZramDescriptors(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	descs := f.C.Source().Metrics
	checkTwinFamily(t, descs, "zram.")
	checkTwinFamily(t, descs, "disk.partitions.capacity")
	checkTwinFamily(t, descs, "disk.dm.capacity")
}

// zram devices are their own instance domain, by kernel name, and never
// disks: disk.all sums sda alone.
func TestZramInstances(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.wantMembers(indomZram, map[string]uint32{"zram0": zram0, "zram1": zram1}, "zram0", "zram1")
	f.wantMembers(indomDisk, map[string]uint32{"sda": 0}, "sda")
	f.WantU64("disk.all.read", cache.InstNone, 100)
	f.WantU64("hinv.ndisk", cache.InstNone, 1)
	if labels := f.labelsOf(indomZram, "zram0"); len(labels) != 0 {
		t.Errorf("zram0 has labels %v; pmdalinux gives none", labels)
	}
}

// The diskstats fields, exactly as pmdalinux derives them.
func TestZramDiskstats(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	for name, want := range map[string]uint64{
		"read": 4100, "write": 25000, "total": 29100,
		"blkread": 32800, "blkwrite": 200000, "blktotal": 232800,
		"read_bytes": 16400, "write_bytes": 100000, "total_bytes": 116400,
		"read_merge": 0, "write_merge": 0, "avactive": 360, "aveq": 362,
		"read_rawactive": 12, "write_rawactive": 350, "total_rawactive": 362,
		"discard": 300, "blkdiscard": 2400, "discard_bytes": 1200, "discard_merge": 0,
		"discard_rawactive": 3, "flush": 0, "flush_rawactive": 0, "inflight": 1,
	} {
		f.WantU64("zram."+name, zram0, want)
	}
	f.WantU64("zram.read", zram1, 0)
}

// disksize and the statistics files, converted to pmdalinux's units.
func TestZramSysfs(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.WantU64("zram.capacity", zram0, 4194304) // 4294967296 / 1024
	f.WantU64("zram.capacity", zram1, 0)       // not set up
	f.WantU64("zram.io_stat.failed.reads", zram0, 1)
	f.WantU64("zram.io_stat.failed.writes", zram0, 2)
	f.WantU64("zram.io_stat.invalid", zram0, 3)
	f.WantU64("zram.io_stat.notify_free", zram0, 250)
	f.WantU64("zram.mm_stat.data_size.original", zram0, 102400)  // 104857600 / 1024
	f.WantU64("zram.mm_stat.data_size.compressed", zram0, 25600) // 26214400 / 1024
	f.WantU64("zram.mm_stat.mem.used_total", zram0, 28672)       // 29360128 / 1024
	f.WantU64("zram.mm_stat.mem.limit", zram0, 0)
	f.WantU64("zram.mm_stat.mem.max_used", zram0, 30720) // 31457280 / 1024
	f.WantU64("zram.mm_stat.pages.same", zram0, 120*zramPageKB)
	f.WantU64("zram.mm_stat.pages.compacted", zram0, 7*zramPageKB)
	f.WantU64("zram.mm_stat.pages.huge", zram0, 15*zramPageKB)
	f.WantU64("zram.bd_stat.count", zram0, 40) // 4 KiB units
	f.WantU64("zram.bd_stat.reads", zram0, 16)
	f.WantU64("zram.bd_stat.writes", zram0, 48)
	// zram1's mm_stat has seven fields: no huge pages; it has no bd_stat.
	f.WantU64("zram.mm_stat.pages.compacted", zram1, 0)
	f.WantAbsent("zram.mm_stat.pages.huge", zram1)
	f.WantAbsent("zram.bd_stat.count", zram1)
}

// Rates over t0 -> t1 (2 s), and the sysfs values of t1.
func TestZramRates(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.load("t1")
	f.MustSample(t1)
	f.WantFloat("rate.zram.read", zram0, 100)        // 200 reads / 2 s
	f.WantFloat("rate.zram.write_bytes", zram0, 800) // 3200 sectors = 1600 KB / 2 s
	f.WantFloat("rate.zram.avactive", zram0, 0.01)   // 20 ms / 2 s
	f.WantFloat("rate.zram.io_stat.notify_free", zram0, 10)
	f.WantFloat("rate.zram.mm_stat.pages.same", zram0, float64(4*zramPageKB)/2)
	f.WantFloat("rate.zram.read", zram1, 0)
	f.WantU64("zram.mm_stat.data_size.original", zram0, 104448) // 106954752 / 1024
	f.WantU64("zram.inflight", zram0, 0)
}

// With /proc/diskstats unchanged the sample repeats, unless a zram
// device's statistics moved: they are read every sample.
func TestZramSysfsSeenWhenDiskstatsUnchanged(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.MustSample(t0.Add(time.Second))
	if !f.Repeated("disk") {
		t.Fatal("the same text and attributes did not repeat the sample")
	}
	mm := filepath.Join(f.root, "sys", "block", "zram0", "mm_stat")
	if err := os.WriteFile(mm, []byte("2048 1024 4096 0 4096 0 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t0.Add(2 * time.Second))
	if f.Repeated("disk") {
		t.Error("a changed mm_stat repeated the sample before")
	}
	f.WantU64("zram.mm_stat.data_size.original", zram0, 2)
	f.WantU64("zram.read", zram0, 4100)
}

// Damaged attributes leave only their own metrics without values: a
// disksize that is not a number, a short io_stat (its first two fields),
// a word in mm_stat, an empty bd_stat, and zram1 with no sysfs directory.
func TestZramDamagedSysfs(t *testing.T) {
	f := newZramFixture(t, "odd", engine.Env{})
	f.MustSample(t0)
	f.WantU64("zram.read", zram0, 4100)
	f.WantU64("zram.read", zram1, 0)
	f.WantAbsent("zram.capacity", zram0)
	f.WantU64("zram.io_stat.failed.reads", zram0, 1)
	f.WantU64("zram.io_stat.failed.writes", zram0, 2)
	f.WantAbsent("zram.io_stat.invalid", zram0)
	for _, s := range slicesOf(zramMMStat, zramBDStat) {
		name := strings.TrimPrefix(s.desc.Name, engine.Prefix)
		f.WantAbsent(name, zram0)
	}
	// 24 diskstats values per device and zram0's two io_stat fields.
	if n := f.Published("zram."); n != 2*24+2 {
		t.Errorf("%d zram values published, want 50", n)
	}
	f.WantAbsent("zram.capacity", zram1)
}

func slicesOf(tables ...[]zramStat) []zramStat {
	var out []zramStat
	for _, t := range tables {
		out = append(out, t...)
	}
	return out
}

// A kernel before 4.18 writes 14 fields: no discard or flush values.
func TestZramOldKernel(t *testing.T) {
	f := newZramFixture(t, "old14", engine.Env{})
	f.MustSample(t0)
	f.WantU64("zram.aveq", zram0, 362)
	f.WantAbsent("zram.discard", zram0)
	f.WantAbsent("zram.flush", zram0)
	f.WantU64("zram.capacity", zram0, 1048576)
	f.WantAbsent("zram.io_stat.invalid", zram0) // no io_stat file
}

// A device that leaves /proc/diskstats leaves the instance domain and
// its files are let go; back, it has its id again.
func TestZramDeviceGoneAndBack(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	diskstats := filepath.Join(f.root, "proc", "diskstats")
	text, err := os.ReadFile(diskstats)
	if err != nil {
		t.Fatal(err)
	}
	without := strings.Replace(string(text), " 252       0 zram0 4100 0 32800 12 25000 0 200000 350 1 360 362 300 0 2400 3 0 0\n", "", 1)
	if err := os.WriteFile(diskstats, []byte(without), 0o644); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t0.Add(time.Second))
	f.wantMembers(indomZram, map[string]uint32{"zram1": zram1}, "zram1")
	f.WantAbsent("zram.capacity", zram0)
	if _, ok := f.C.(*diskCollector).zram.devs["zram0"]; ok {
		t.Error("zram0's files are still kept")
	}
	if err := os.WriteFile(diskstats, text, 0o644); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t0.Add(2 * time.Second))
	f.wantMembers(indomZram, map[string]uint32{"zram0": zram0, "zram1": zram1}, "zram0", "zram1")
	f.WantU64("zram.capacity", zram0, 4194304)
}

// The instances can be filtered under the name "zram".
func TestZramFilter(t *testing.T) {
	filter := engine.Filter{"zram": {Exclude: regexp.MustCompile("^zram1$")}}
	f := newZramFixture(t, "t0", engine.Env{Filter: filter})
	f.MustSample(t0)
	f.wantMembers(indomZram, map[string]uint32{"zram0": zram0}, "zram0")
}

// Partitions and dm devices have their size from /sys/class/block.
func TestDiskPartitionAndDMCapacity(t *testing.T) {
	f := newZramFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.WantU64("disk.partitions.capacity", 0, 1048576) // sda1: 2097152 sectors / 2
	f.WantU64("disk.dm.capacity", 0, 20971520)        // vg0-root: 41943040 / 2
	f.WantU64("disk.dev.capacity", 0, 2097152)        // sda, from /sys/block as before
	size := filepath.Join(f.root, "sys", "class", "block", "sda1", "size")
	if err := os.WriteFile(size, []byte("4194304\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t0.Add(time.Second))
	f.WantU64("disk.partitions.capacity", 0, 1048576) // read again a minute on
	f.MustSample(t0.Add(diskAttrRefresh))
	f.WantU64("disk.partitions.capacity", 0, 2097152)
	if err := os.Remove(size); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t0.Add(2 * diskAttrRefresh))
	f.WantAbsent("disk.partitions.capacity", 0)
}

func TestZramScale(t *testing.T) {
	for _, c := range []struct {
		s          zramScale
		v, page, w uint64
	}{
		{zramAsIs, 7, 4096, 7}, {zramBytes, 5000, 4096, 4}, {zramPages, 3, 4096, 12},
		{zramPages, 3, 65536, 192}, {zramFourKs, 3, 65536, 12},
	} {
		if got := c.s.kb(c.v, c.page); got != c.w {
			t.Errorf("scale %d of %d (page %d) = %d, want %d", c.s, c.v, c.page, got, c.w)
		}
	}
}
