package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// swap.* metrics. pmdalinux reads pagesin/pagesout (its stat cluster,
// items 8, 9) from /proc/vmstat and length/used/free (its meminfo cluster,
// items 6-8) from /proc/meminfo. We put them in one cluster, keeping the
// meminfo items. swap.in and swap.out (pmdalinux stat items 10, 11) count
// swap operations from the "swap" line /proc/stat lost in 2.6: pmdalinux
// has no values for them on any current kernel, so we do not export them.
var (
	swapPagesIn  = metric(clusterSwap, 0, "swap.pagesin", cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	swapPagesOut = metric(clusterSwap, 1, "swap.pagesout", cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	swapLength   = metric(clusterSwap, 6, "swap.length", cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
	swapUsed     = metric(clusterSwap, 7, "swap.used", cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
	swapFree     = metric(clusterSwap, 8, "swap.free", cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
)

// swapdev.* metrics from /proc/swaps, with pmdalinux's items. Sizes are
// 32-bit Kbyte counts as in pmdalinux, so a swap area over 4 TiB wraps.
var (
	swapdevFree     = metric(clusterSwapdev, 0, "swapdev.free", cache.TypeU32, cache.SemInstant, cache.UnitsKByte, indomSwapdev)
	swapdevLength   = metric(clusterSwapdev, 1, "swapdev.length", cache.TypeU32, cache.SemDiscrete, cache.UnitsKByte, indomSwapdev)
	swapdevMaxSwap  = metric(clusterSwapdev, 2, "swapdev.maxswap", cache.TypeU32, cache.SemDiscrete, cache.UnitsKByte, indomSwapdev)
	swapdevVLength  = metric(clusterSwapdev, 3, "swapdev.vlength", cache.TypeU32, cache.SemDiscrete, cache.UnitsKByte, indomSwapdev)
	swapdevPriority = metric(clusterSwapdev, 4, "swapdev.priority", cache.TypeI32, cache.SemInstant, cache.UnitsNone, indomSwapdev)
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
	vmstat, meminfo, swaps *kernelFile
	buf                    []byte // each file's text in turn, reused
	vm                     *vmstatSample
	mem                    meminfo
	areas                  []swapArea // /proc/swaps's lines, reused

	filter Filter
	ids    *cache.IDMap
	insts  *cache.Instances
	// The swap areas as last published: key encodes the names and types
	// of areas they were chosen from (see publishSwapdevs), shown which of
	// its lines each instance is, in instance order.
	key, nextKey []byte
	shown        []swapShown
	rates        *rates
}

// swapShown is a published swap area: its line in /proc/swaps and its id.
type swapShown struct {
	line int
	id   uint32
}

// NewSwapCollector checks the /proc root below p.Proc.
func NewSwapCollector(p Env) (Collector, error) {
	swaps, err := procFile(p, "swaps")
	if err != nil {
		return nil, fmt.Errorf("swap: %w", err)
	}
	return &swapCollector{
		vmstat:  newKernelFile(p.Proc, filepath.Join(p.Proc, "vmstat")),
		meminfo: newKernelFile(p.Proc, filepath.Join(p.Proc, "meminfo")),
		swaps:   newKernelFile(p.Proc, swaps),
		buf:     make([]byte, 0, 8192),
		vm:      newVMStatSample("pswpin", "pswpout"),
		filter:  p.Filter, ids: p.IDMap(indomSwapdev), rates: newRates(),
	}, nil
}

func (c *swapCollector) Name() string { return "swap" }

func (c *swapCollector) Resets() uint64 { return c.rates.resets }

func (c *swapCollector) Source() cache.Source {
	return cache.Source{
		Name: c.Name(),
		Metrics: withRates([]cache.Desc{swapPagesIn, swapPagesOut, swapLength, swapUsed, swapFree,
			swapdevFree, swapdevLength, swapdevMaxSwap, swapdevVLength, swapdevPriority}),
		InDoms: []cache.InDomDesc{{ID: indomSwapdev, Name: "swapdev"}},
	}
}

// Sample reads the three files once. /proc/swaps is read last: the areas
// point into the shared buffer.
func (c *swapCollector) Sample(b *cache.Builder, now time.Time) error {
	if err := readVMStat(c.vmstat, &c.buf, c.vm); err != nil {
		return err
	}
	pswpin, hasIn := c.vm.get("pswpin")
	pswpout, hasOut := c.vm.get("pswpout")
	if err := readMeminfo(c.meminfo, &c.buf, &c.mem); err != nil {
		return err
	}
	if err := c.readSwaps(); err != nil {
		return err
	}
	c.rates.begin(now)
	if hasIn {
		c.rates.counter(b, &swapPagesIn, cache.InstNone, pswpin)
	}
	if hasOut {
		c.rates.counter(b, &swapPagesOut, cache.InstNone, pswpout)
	}
	setSwapSpace(b, &c.mem)
	c.publishSwapdevs(b, c.areas)
	c.rates.commit()
	return nil
}

// setSwapSpace publishes swap.length/used/free in bytes from meminfo's kB.
func setSwapSpace(b *cache.Builder, m *meminfo) {
	if v, ok := m.get(memSwapTotal); ok {
		b.SetU64(swapLength.ID, cache.InstNone, v<<10)
	}
	if v, ok := clampedSub(m, memSwapTotal, memSwapFree); ok {
		b.SetU64(swapUsed.ID, cache.InstNone, v<<10)
	}
	if v, ok := m.get(memSwapFree); ok {
		b.SetU64(swapFree.ID, cache.InstNone, v<<10)
	}
}
