package collector

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// swap.* metrics. pmdalinux reads pagesin/pagesout (its stat cluster,
// items 8, 9) from /proc/vmstat and length/used/free (its meminfo cluster,
// items 6-8) from /proc/meminfo. We put them in one cluster, keeping the
// meminfo items. swap.in and swap.out (pmdalinux stat items 10, 11) count
// swap operations from the "swap" line /proc/stat lost in 2.6: pmdalinux
// has no values for them on any current kernel, so we do not export them.
var (
	swapPagesIn = engine.Row{Name: "hostcache.swap.pagesin", Cluster: clusterSwap, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	swapPagesOut = engine.Row{Name: "hostcache.swap.pagesout", Cluster: clusterSwap, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	swapLength = engine.Row{Name: "hostcache.swap.length", Cluster: clusterSwap, Item: 6, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	swapUsed = engine.Row{Name: "hostcache.swap.used", Cluster: clusterSwap, Item: 7, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	swapFree = engine.Row{Name: "hostcache.swap.free", Cluster: clusterSwap, Item: 8, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
)

// swapdev.* metrics from /proc/swaps, with pmdalinux's items. Sizes are
// 32-bit Kbyte counts as in pmdalinux, so a swap area over 4 TiB wraps.
var (
	swapdevFree = engine.Row{Name: "hostcache.swapdev.free", Cluster: clusterSwapdev, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomSwapdev}.Desc()
	swapdevLength = engine.Row{Name: "hostcache.swapdev.length", Cluster: clusterSwapdev, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomSwapdev}.Desc()
	swapdevMaxSwap = engine.Row{Name: "hostcache.swapdev.maxswap", Cluster: clusterSwapdev, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomSwapdev}.Desc()
	swapdevVLength = engine.Row{Name: "hostcache.swapdev.vlength", Cluster: clusterSwapdev, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomSwapdev}.Desc()
	swapdevPriority = engine.Row{Name: "hostcache.swapdev.priority", Cluster: clusterSwapdev, Item: 4,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: indomSwapdev}.Desc()
)

// swapCollector reads swap activity (/proc/vmstat), swap space
// (/proc/meminfo) and the swap areas (/proc/swaps). Any of the three that
// cannot be read fails the sample, except a missing /proc/swaps: a kernel
// built without swap has none, and that is no swap areas, not an error.
//
// It parses meminfo and vmstat with the memory and vmstat collectors' own
// parsers, which keep only what is wanted, in place. Through procfs and a
// map of every vmstat field it cost more than those two collectors
// together, for five values.
type swapCollector struct {
	vmstat, meminfo, swaps *kernel.File
	buf                    []byte // each file's text in turn, reused
	vm                     *kernel.VMStat
	mem                    kernel.Meminfo
	areas                  []kernel.SwapArea // /proc/swaps's lines, reused

	filter engine.Filter
	ids    *cache.IDMap
	insts  *cache.Instances
	// The swap areas as last published: key encodes the names and types
	// of areas they were chosen from (see publishSwapdevs), shown which of
	// its lines each instance is, in instance order.
	key, nextKey []byte
	shown        []swapShown
}

// swapShown is a published swap area: its line in /proc/swaps and its id.
type swapShown struct {
	line int
	id   uint32
}

// NewSwapCollector checks the /proc root below env.Proc.
func NewSwapCollector(env engine.Env) (engine.Collector, error) {
	swaps, err := hostkit.ProcFile(env, "swaps")
	if err != nil {
		return nil, fmt.Errorf("swap: %w", err)
	}
	return &swapCollector{
		vmstat:  kernel.NewFileKept(env.Proc, filepath.Join(env.Proc, "vmstat"), env.KeepFiles),
		meminfo: kernel.NewFileKept(env.Proc, filepath.Join(env.Proc, "meminfo"), env.KeepFiles),
		swaps:   kernel.NewFileKept(env.Proc, swaps, env.KeepFiles),
		buf:     make([]byte, 0, 8192),
		vm:      kernel.NewVMStat("pswpin", "pswpout"),
		filter:  env.Filter, ids: env.IDMap(indomSwapdev),
	}, nil
}

func (c *swapCollector) Name() string { return "swap" }

func (c *swapCollector) Source() cache.Source {
	return cache.Source{
		Name: c.Name(),
		Metrics: []cache.Desc{swapPagesIn, swapPagesOut, swapLength, swapUsed, swapFree,
			swapdevFree, swapdevLength, swapdevMaxSwap, swapdevVLength, swapdevPriority},
		InDoms: []cache.InDomDesc{{ID: indomSwapdev, Name: "swapdev",
			Labels: hostkit.IndomLabels(`["block","memory"]`, "per swap device")}},
	}
}

// Sample reads the three files once. /proc/swaps is read last: the areas
// point into the shared buffer. Each file's metrics come and go with that
// file alone: without /proc/vmstat, swap.length and swapdev still come from
// meminfo and /proc/swaps, as pmdalinux gives them. Only when all three
// fail does nothing get published; a partial failure is still counted.
func (c *swapCollector) Sample(b *cache.Builder, now time.Time) error {
	errVM := readVMStat(c.vmstat, &c.buf, c.vm)
	if errVM == nil {
		if v, ok := c.vm.Get("pswpin"); ok {
			b.SetU64(swapPagesIn.ID, cache.InstNone, v)
		}
		if v, ok := c.vm.Get("pswpout"); ok {
			b.SetU64(swapPagesOut.ID, cache.InstNone, v)
		}
	}
	errMem := readMeminfo(c.meminfo, &c.buf, &c.mem)
	if errMem == nil {
		setSwapSpace(b, &c.mem)
	}
	errSwaps := c.readSwaps()
	if errSwaps == nil {
		c.publishSwapdevs(b, c.areas)
	}
	err := errors.Join(errVM, errMem, errSwaps)
	if errVM != nil && errMem != nil && errSwaps != nil {
		return err
	}
	return engine.Partial(err)
}

// setSwapSpace publishes swap.length/used/free in bytes from meminfo's kB.
func setSwapSpace(b *cache.Builder, m *kernel.Meminfo) {
	if v, ok := m.Get(kernel.MemSwapTotal); ok {
		b.SetU64(swapLength.ID, cache.InstNone, v<<10)
	}
	if v, ok := clampedSub(m, kernel.MemSwapTotal, kernel.MemSwapFree); ok {
		b.SetU64(swapUsed.ID, cache.InstNone, v<<10)
	}
	if v, ok := m.Get(kernel.MemSwapFree); ok {
		b.SetU64(swapFree.ID, cache.InstNone, v<<10)
	}
}
