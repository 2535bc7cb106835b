package collector

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// psiWindows are pmdalinux's kernel.all.pressure.*.avg instances: the
// averaging window in seconds is the id (60.37: 10, 60, 300).
var psiWindows = []cache.Instance{
	{ID: 10, Name: "10 second"}, {ID: 60, Name: "1 minute"}, {ID: 300, Name: "5 minute"},
}

// psiLines lists the pressure lines pmdalinux exports: cpu has "some" only
// (the kernel's cpu "full" line is not a pmdalinux metric), irq "full" only
// (the kernel has no irq "some"). Each line gives an average (per window)
// and a total. pmdalinux spreads them over four clusters (83, 84, 85, 93)
// with items 0-3; we keep one cluster and give each resource a block of
// ten, the total's item one above its average's.
var psiLines = []struct {
	resource   string
	full       bool
	avg, total cache.Desc
}{
	{"cpu", false,
		engine.Row{Name: "hostcache.kernel.all.pressure.cpu.some.avg", Cluster: clusterPSI, Item: 0,
			Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomPressure, Peaks: true}.Desc(),
		engine.Row{Name: "hostcache.kernel.all.pressure.cpu.some.total", Cluster: clusterPSI, Item: 1,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: psiUsecUnits,
			InDom: cache.InDomNone}.Desc()},
	{"memory", false,
		engine.Row{Name: "hostcache.kernel.all.pressure.memory.some.avg", Cluster: clusterPSI, Item: 10,
			Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomPressure, Peaks: true}.Desc(),
		engine.Row{Name: "hostcache.kernel.all.pressure.memory.some.total", Cluster: clusterPSI, Item: 11,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: psiUsecUnits,
			InDom: cache.InDomNone}.Desc()},
	{"memory", true,
		engine.Row{Name: "hostcache.kernel.all.pressure.memory.full.avg", Cluster: clusterPSI, Item: 12,
			Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomPressure, Peaks: true}.Desc(),
		engine.Row{Name: "hostcache.kernel.all.pressure.memory.full.total", Cluster: clusterPSI, Item: 13,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: psiUsecUnits,
			InDom: cache.InDomNone}.Desc()},
	{"io", false,
		engine.Row{Name: "hostcache.kernel.all.pressure.io.some.avg", Cluster: clusterPSI, Item: 20,
			Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomPressure, Peaks: true}.Desc(),
		engine.Row{Name: "hostcache.kernel.all.pressure.io.some.total", Cluster: clusterPSI, Item: 21,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: psiUsecUnits,
			InDom: cache.InDomNone}.Desc()},
	{"io", true,
		engine.Row{Name: "hostcache.kernel.all.pressure.io.full.avg", Cluster: clusterPSI, Item: 22,
			Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomPressure, Peaks: true}.Desc(),
		engine.Row{Name: "hostcache.kernel.all.pressure.io.full.total", Cluster: clusterPSI, Item: 23,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: psiUsecUnits,
			InDom: cache.InDomNone}.Desc()},
	{"irq", true,
		engine.Row{Name: "hostcache.kernel.all.pressure.irq.full.avg", Cluster: clusterPSI, Item: 30,
			Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomPressure, Peaks: true}.Desc(),
		engine.Row{Name: "hostcache.kernel.all.pressure.irq.full.total", Cluster: clusterPSI, Item: 31,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: psiUsecUnits,
			InDom: cache.InDomNone}.Desc()},
}

// psiResources are the /proc/pressure files, in the order they are read.
var psiResources = [...]string{"cpu", "memory", "io", "irq"}

// pressureCollector reads /proc/pressure/{cpu,memory,io,irq}.
//
// A kernel without PSI (before 4.20, built without it, or booted with
// psi=0) has no /proc/pressure: that is no data, not an error, so such a
// host does not count an error every sample. The same goes for one missing
// file (irq appeared in 6.1). An existing file that cannot be read or
// parsed leaves its metrics without values; only when every existing file
// fails is the sample an error.
type pressureCollector struct {
	dir   string
	files [len(psiResources)]*kernel.File
	buf   []byte // each file's text in turn, reused
	stats [len(psiResources)]kernel.PSIStats
	read  [len(psiResources)]bool // stats[r] is this sample's
	res   []int                   // psiLines' index into psiResources
	avg   []cache.Desc            // in psiLines order
	total []cache.Desc            // in psiLines order
	insts *cache.Instances
}

// NewPressureCollector checks the /proc root below env.Proc.
func NewPressureCollector(env engine.Env) (engine.Collector, error) {
	dir, err := hostkit.ProcFile(env, "pressure")
	if err != nil {
		return nil, fmt.Errorf("pressure: %w", err)
	}
	c := &pressureCollector{
		dir: dir, buf: make([]byte, 0, 512),
		insts: cache.NewInstances(psiWindows),
	}
	for r, name := range psiResources {
		c.files[r] = kernel.NewFileKept(env.Proc, filepath.Join(dir, name), env.KeepFiles)
	}
	for _, l := range psiLines {
		c.res = append(c.res, slices.Index(psiResources[:], l.resource))
		c.avg = append(c.avg, l.avg)
		c.total = append(c.total, l.total)
	}
	return c, nil
}

// psiUsecUnits are microseconds, the unit of the PSI totals.
var psiUsecUnits = cache.MakeUnits(0, 1, 0, 0, cache.TimeUSec, 0)

func (c *pressureCollector) Name() string { return "pressure" }

func (c *pressureCollector) Source() cache.Source {
	descs := append(append([]cache.Desc(nil), c.avg...), c.total...)
	return cache.Source{
		Name:    c.Name(),
		Metrics: descs,
		InDoms:  []cache.InDomDesc{{ID: indomPressure, Name: "pressure"}},
	}
}

// Sample reads each pressure file once.
func (c *pressureCollector) Sample(b *cache.Builder, now time.Time) error {
	b.SetInDom(indomPressure, c.insts)
	var errs []error
	read, missing := 0, 0
	for r, name := range psiResources {
		c.read[r] = false
		err := c.readFile(r)
		switch {
		case err == nil:
			c.read[r] = true
			read++
		case errors.Is(err, fs.ErrNotExist):
			missing++
		case !psiAbsent(err):
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	// Only when no file is there, see whether the directory is: if not,
	// this kernel has no PSI.
	if missing == len(psiResources) {
		if _, err := os.Stat(c.dir); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	if read == 0 && len(errs) > 0 {
		return fmt.Errorf("reading pressure: %w", errors.Join(errs...))
	}
	for i, l := range psiLines {
		r := c.res[i]
		st := &c.stats[r]
		line, ok := &st.Some, st.HasSome
		if l.full {
			line, ok = &st.Full, st.HasFull
		}
		if !c.read[r] || !ok {
			continue
		}
		b.SetDouble(c.avg[i].ID, 10, line.Avg10)
		b.SetDouble(c.avg[i].ID, 60, line.Avg60)
		b.SetDouble(c.avg[i].ID, 300, line.Avg300)
		b.SetU64(c.total[i].ID, cache.InstNone, line.Total)
	}
	return nil
}

// kernel.ReadFile reads and parses pressure file r into c.stats[r].
func (c *pressureCollector) readFile(r int) error {
	var err error
	if c.buf, err = c.files[r].Read(c.buf); err != nil {
		return err
	}
	return kernel.ParsePSI(c.buf, &c.stats[r])
}

// psiAbsent reports a pressure file this kernel does not provide: missing,
// or present but refusing reads (PSI for irq disabled at run time).
func psiAbsent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.EOPNOTSUPP)
}
