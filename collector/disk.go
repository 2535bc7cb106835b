package collector

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/prometheus/procfs/blockdevice"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// diskIndoms maps the per-device trees to their instance domains and filter
// names; disk.all has none.
var diskIndoms = [diskNTrees]struct {
	id     cache.InDomID
	filter string
}{
	diskDev:  {indomDisk, "disk"},
	diskPart: {indomPartitions, "partitions"},
	diskDM:   {indomDM, "dm"},
	diskMD:   {indomMD, "md"},
	diskWWID: {indomWWID, ""}, // sums of disk.dev's disks, as filtered there
	diskZram: {indomZram, "zram"},
}

// diskMeta is what /sys told us about a device, kept while it is the same
// device so that labels are read once, not every sample. A device is new
// when its number changes or its completed I/O count goes backwards: a disk
// swapped in the same slot comes back under the same name and number, but
// with fresh counters and perhaps another model.
type diskMeta struct {
	major, minor uint32
	ios          uint64 // reads + writes completed at the last sample
	labels       []cache.Label
}

// diskCollector reads /proc/diskstats once per sample into disk.dev,
// disk.all, disk.partitions, disk.dm, disk.md, disk.wwid and zram, with
// the iostat figures of disk.dev, disk.dm, disk.md and disk.wwid; /sys/block
// names dm devices, labels instances and holds the zram devices' own
// statistics.
type diskCollector struct {
	hostkit.Paced // attribute and layout refreshes
	fs            blockdevice.FS
	sys           diskSys
	// mdLinks is the directory of the md arrays' persistent names.
	mdLinks string
	filter  engine.Filter
	ids     [diskNTrees]*cache.IDMap     // per-device trees only
	descs   [diskNTrees][]cache.Desc     // in diskFields order
	iostat  [diskNTrees][]cache.Desc     // disk.dev and disk.dm only
	indoms  [diskNTrees]*cache.Instances // last published, reused while unchanged
	// indomOf is the list each table was last made or checked from.
	indomOf [diskNTrees][]cache.Instance
	meta    map[string]diskMeta // by kernel name
	// attrCache holds each disk's size and scheduler (disk_attrs.go).
	attrCache map[string]*diskAttrs
	path      string // <proc>/diskstats
	file      *kernel.File
	buf       []byte // its text, reused
	stats     []kernel.Diskstats
	layout    diskLayout // where each line went (disk_layout.go)
	wwids     wwidSums   // this sample's disks by world-wide id (disk_wwid.go)
	// slots are the per-device trees' descs checked once in this
	// sample's builder, not once per disk and field.
	slots [diskNTrees][]cache.Slot
	// memo is the text the last sample was built from, and due the first
	// time after it when something besides the text is read again (a
	// disk's attributes, the layout): until then the same text repeats
	// the last sample (kernel.Memo).
	memo   kernel.Memo
	due    time.Time
	made   time.Time // when the last sample was built
	mdSeen []mdSeen  // the md arrays' status as last published
	zram   zramDevs  // the zram devices' sysfs attributes (zram_sys.go)
}

// NewDiskCollector opens /proc and /sys below env.Proc and env.Sys.
func NewDiskCollector(env engine.Env) (engine.Collector, error) {
	fs, err := blockdevice.NewFS(env.Proc, env.Sys)
	if err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	sysRoot := env.Sys
	if sysRoot == "" {
		sysRoot = "/sys" // as blockdevice.NewFS defaults it
	}
	c := &diskCollector{
		fs: fs, sys: diskSys{root: sysRoot, fs: fs}, filter: env.Filter,
		meta: map[string]diskMeta{}, attrCache: map[string]*diskAttrs{},
		zram: newZramDevs(sysRoot, env.KeepFiles),
		path: filepath.Join(env.Proc, "diskstats"), mdLinks: mdLinks(env.Proc),
		file: kernel.NewFileKept(env.Proc, filepath.Join(env.Proc, "diskstats"), env.KeepFiles),
	}
	for t := range diskNTrees {
		c.descs[t] = diskTreeDescs(t)
		if t != diskAll {
			c.ids[t] = env.IDMap(diskIndoms[t].id)
		}
	}
	c.iostat[diskDev] = iostatDescs(diskDev)
	c.iostat[diskDM] = iostatDescs(diskDM)
	c.iostat[diskMD] = iostatDescs(diskMD)
	c.iostat[diskWWID] = iostatDescs(diskWWID)
	return c, nil
}

// diskCount is hinv.ndisk, the disks of disk.dev (pmdalinux's item 33 of
// its stat cluster; here of the disk cluster).
var diskCount = engine.Row{Name: "hostcache.hinv.ndisk", Cluster: clusterDisk, Item: 33, Type: cache.TypeU32,
	Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()

func (c *diskCollector) Name() string { return "disk" }

func (c *diskCollector) Source() cache.Source {
	var descs []cache.Desc
	for t := range diskNTrees {
		descs = append(descs, c.descs[t]...)
	}
	descs = append(descs, diskCount, diskCapacity, diskScheduler, diskScsiID, diskMDCapacity, diskMDStatus,
		diskWWIDPaths, diskWWIDScheduler, diskWWIDCapacity, diskPartCapacity, diskDMCapacity)
	descs = append(descs, zramSysDescs()...)
	descs = append(descs, diskMapDescs()...)
	return cache.Source{
		Name:    c.Name(),
		Metrics: descs,
		InDoms: []cache.InDomDesc{
			{ID: indomDisk, Name: "disk", Labels: hostkit.IndomLabels(`"block"`, "per disk"),
				NameLabel: "device_name"},
			{ID: indomPartitions, Name: "partitions",
				Labels: hostkit.IndomLabels(`"block"`, "per partition")},
			{ID: indomDM, Name: "dm", Labels: hostkit.IndomLabels(`"block"`, "per dm device")},
			{ID: indomMD, Name: "md", Labels: hostkit.IndomLabels(`"block"`, "per md device")},
			{ID: indomWWID, Name: "wwid"}, // pmdalinux's 60.42 has no labels
			{ID: indomZram, Name: "zram"}, // nor has its 60.38
		},
	}
}

// Sample reads /proc/diskstats once. A line procfs cannot parse fails the
// whole sample (procfs stops there, and publishing the devices before it
// would look like the rest vanished); a truncated line, with fewer than the
// 14 base fields, is skipped by procfs and that device is not listed.
func (c *diskCollector) Sample(b *cache.Builder, now time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return fmt.Errorf("reading diskstats: %w", err)
	}
	if c.memo.Same(c.buf) && now.Before(c.due) && !now.Before(c.made) && c.mdSame() && c.zram.same() && b.Again() {
		return nil // the same text, nothing due: the same values
	}
	c.due = now.Add(c.Every(diskLayoutRefresh)) // brought forward by what is read below
	c.mdSeen = c.mdSeen[:0]
	c.zram.begin()
	if c.stats, err = kernel.ParseDiskstats(c.buf, c.stats); err != nil {
		return fmt.Errorf("reading diskstats: %w", err)
	}
	stats := c.stats
	c.takeSlots(b)
	var lists [diskNTrees][]cache.Instance
	var sum *diskSum
	c.wwids.reset()
	if c.fits(stats, now, c.Every(diskLayoutRefresh)) {
		lists, sum = c.layout.lists, c.publishLaidOut(b, stats, now)
	} else {
		c.forgetReplaced()
		lists, sum = c.publishDevices(b, stats, now)
		c.layout.lists, c.layout.placed = lists, now
	}
	lists[diskWWID] = c.publishWWIDs(b)
	c.zram.end()
	for _, t := range []diskTree{diskDev, diskPart, diskDM, diskMD, diskWWID, diskZram} {
		b.SetInDom(diskIndoms[t].id, c.instances(t, lists[t]))
	}
	b.SetU64(diskCount.ID, cache.InstNone, uint64(len(lists[diskDev])))
	sum.publish(b, c.descs[diskAll])
	c.dueBy(c.layout.placed.Add(c.Every(diskLayoutRefresh)))
	c.memo.Keep(c.buf)
	c.made = now
	return nil
}

// publishDevices publishes every device we keep, returning the members of
// each tree and the disk.all sums.
func (c *diskCollector) publishDevices(b *cache.Builder, stats []kernel.Diskstats,
	now time.Time) ([diskNTrees][]cache.Instance, *diskSum) {
	var lists [diskNTrees][]cache.Instance
	sum := newDiskSum(stats)
	seen := make(map[string]bool, len(stats))      // kernel names published
	placed := make(map[diskPlace]bool, len(stats)) // instance names, per tree
	c.layout.lines = c.layout.lines[:0]
	c.layout.placements++
	for i := range stats {
		s := &stats[i]
		t, name, ok := c.place(s)
		line := diskLine{name: s.Name, major: s.Major, minor: s.Minor, ios: s.ReadIOs + s.WriteIOs, tree: t}
		switch classifyDisk(s.Name) {
		case diskMapped:
			line.dm, line.mapped = true, name // "" when it has no mapped name
		case diskRAID:
			line.md, line.mapped = true, name
		}
		if !ok || placed[diskPlace{t, name}] {
			c.layout.lines = append(c.layout.lines, line)
			continue // not ours, or a second dm device claiming a mapped name
		}
		placed[diskPlace{t, name}] = true
		seen[s.Name] = true
		inst := cache.Instance{ID: c.ids[t].ID(name), Name: name, Labels: c.labels(s, t)}
		line.keep, line.inst = true, inst.ID
		c.layout.lines = append(c.layout.lines, line)
		lists[t] = append(lists[t], inst)
		c.publishDevice(b, t, inst.ID, s)
		switch t {
		case diskDev:
			sum.add(s)
			a := c.attrs(s.Name, nil, now)
			c.layout.lines[len(c.layout.lines)-1].attrs = a
			c.publishAttrs(b, inst.ID, a)
			c.wwids.add(s, *a)
		case diskMD:
			c.publishMD(b, inst.ID, s.Name, now)
		case diskPart, diskDM:
			c.publishSize(b, t, inst.ID, s.Name, now)
		case diskZram:
			c.zram.publish(b, inst.ID, s.Name)
		}
	}
	for name := range c.meta {
		if !seen[name] {
			delete(c.meta, name) // gone: read /sys afresh if it returns
			delete(c.attrCache, name)
		}
	}
	return lists, sum
}

// diskPlace is an instance name in a tree.
type diskPlace struct {
	t    diskTree
	name string
}

// place returns the tree and instance name of a device, false for devices
// we do not publish: not ours (see classifyDisk), filtered out by the
// administrator, or dm devices without a mapped name in /sys (pmdalinux
// skips those too; it would then try /dev/mapper, which we do not read).
// zram devices keep their kernel names, as pmdalinux's zram instances do.
func (c *diskCollector) place(s *kernel.Diskstats) (diskTree, string, bool) {
	name := s.Name
	var t diskTree
	switch classifyDisk(name) {
	case diskWhole:
		t = diskDev
	case diskPartition:
		t = diskPart
	case diskMapped:
		mapped, ok := c.sys.dmName(name)
		if !ok {
			return 0, "", false
		}
		t, name = diskDM, mapped
	case diskRAID:
		t, name = diskMD, mdName(c.mdLinks, name)
	case diskCompressed:
		t = diskZram
	default:
		return 0, "", false
	}
	return t, name, c.filter.Keep(diskIndoms[t].filter, name)
}

// labels returns a device's instance labels, read from /sys only for a
// device new since the last sample (see diskMeta).
func (c *diskCollector) labels(s *kernel.Diskstats, t diskTree) []cache.Label {
	if t == diskPart || t == diskMD || t == diskZram {
		return nil
	}
	ios := s.ReadIOs + s.WriteIOs
	m, ok := c.meta[s.Name]
	if !ok || m.major != s.Major || m.minor != s.Minor || ios < m.ios {
		kind := diskWhole
		if t == diskDM {
			kind = diskMapped
		}
		m = diskMeta{major: s.Major, minor: s.Minor, labels: c.sys.labels(s.Name, kind)}
	}
	m.ios = ios
	c.meta[s.Name] = m
	return m.labels
}

// publishDevice publishes one device's values in tree t.
func (c *diskCollector) publishDevice(b *cache.Builder, t diskTree, inst uint32, s *kernel.Diskstats) {
	slots := c.slots[t][:len(diskFields)]
	for i := range diskFields {
		// A U32 metric's slot keeps the kernel's 32-bit field to its width.
		if f := &diskFields[i]; s.Fields >= f.since {
			b.SetSlot(slots[i], inst, f.value(s))
		}
	}
	publishMapName(b, t, inst, s.Name)
}

// takeSlots checks the per-device trees' metrics in b, once a sample.
func (c *diskCollector) takeSlots(b *cache.Builder) {
	for _, t := range []diskTree{diskDev, diskPart, diskDM, diskMD, diskZram} {
		c.slots[t] = c.slots[t][:0]
		for _, d := range c.descs[t] {
			c.slots[t] = append(c.slots[t], b.U64Slot(d.ID))
		}
	}
}

// Derived declares the iostat figures of disk.dev and disk.dm, computed
// over each client's interval (see disk_iostat.go).
func (c *diskCollector) Derived() []engine.Derived {
	out := iostatDerived(c.iostat[diskDev], c.descs[diskDev])
	out = append(out, iostatDerived(c.iostat[diskDM], c.descs[diskDM])...)
	out = append(out, iostatDerived(c.iostat[diskMD], c.descs[diskMD])...)
	return append(out, iostatDerived(c.iostat[diskWWID], c.descs[diskWWID])...)
}

// instances returns the instance table of tree t, reusing the last one
// while members and labels are unchanged.
func (c *diskCollector) instances(t diskTree, list []cache.Instance) *cache.Instances {
	old := c.indoms[t]
	if old != nil && sameBacking(c.indomOf[t], list) {
		// The very list the table was made or checked from: a laid-out
		// sample's, which nothing changes in place.
		return old
	}
	c.indomOf[t] = list
	if old != nil && slices.EqualFunc(old.All(), list, diskSameInstance) {
		return old
	}
	c.indoms[t] = cache.NewInstances(list)
	return c.indoms[t]
}

// sameBacking reports whether a and b are the same slice of one array.
func sameBacking(a, b []cache.Instance) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func diskSameInstance(a, b cache.Instance) bool {
	return a.ID == b.ID && a.Name == b.Name && slices.Equal(a.Labels, b.Labels)
}

// diskSum accumulates disk.all: each field summed over the published
// disk.dev instances, each term as disk.dev publishes it (so 32 bits for
// the kernel's millisecond fields), which is how pmdalinux sums them.
type diskSum struct {
	v []uint64
	// fields is the smallest field count among the summed disks: a field
	// one of them lacks has no total. With no disk at all, it is the
	// largest count in the file, so the sums are 0 where the kernel has
	// the field and absent where it has not.
	fields int
	disks  int
}

func newDiskSum(stats []kernel.Diskstats) *diskSum {
	sum := &diskSum{v: make([]uint64, len(diskFields))}
	for i := range stats {
		sum.fields = max(sum.fields, stats[i].Fields)
	}
	return sum
}

func (sum *diskSum) add(s *kernel.Diskstats) {
	if sum.disks == 0 || s.Fields < sum.fields {
		sum.fields = s.Fields
	}
	sum.disks++
	for i := range diskFields {
		if v, ok := diskFieldValue(&diskFields[i], diskDev, s); ok {
			sum.v[i] += v
		}
	}
}

// publish sets disk.all. Its rates are those of the sums, so a step in
// which a disk vanished has none (the sum went backwards).
func (sum *diskSum) publish(b *cache.Builder, descs []cache.Desc) {
	for i := range diskFields {
		if sum.fields >= diskFields[i].since {
			b.SetU64(descs[i].ID, cache.InstNone, sum.v[i])
		}
	}
}
