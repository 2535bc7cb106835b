package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Kernel tunables and tables of one number each, below /proc/sys/kernel,
// with the items of pmdalinux's sysctl cluster. pmieconf's entropy rule
// watches the entropy pool.
var (
	entropyAvail = engine.Row{Name: "hostcache.kernel.all.entropy.avail", Cluster: clusterSysctl, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	entropyPoolsize = engine.Row{Name: "hostcache.kernel.all.entropy.poolsize", Cluster: clusterSysctl, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	sysctlPidMax = engine.Row{Name: "hostcache.kernel.all.pid_max", Cluster: clusterSysctl, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	sysctlNptys = engine.Row{Name: "hostcache.kernel.all.nptys", Cluster: clusterSysctl, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
)

// sysctlFile is one file and the metric its number is.
type sysctlFile struct {
	file *kernel.File
	desc cache.Desc
}

// sysctlCollector reads /proc/sys/kernel/random/{entropy_avail,poolsize},
// pid_max and pty/nr: one number each.
type sysctlCollector struct {
	files []sysctlFile
	buf   []byte
	nums  []uint64
}

// NewSysctlCollector names the files below env.Proc.
func NewSysctlCollector(env engine.Env) (engine.Collector, error) {
	dir, err := hostkit.ProcFile(env, filepath.Join("sys", "kernel"))
	if err != nil {
		return nil, fmt.Errorf("sysctl: %w", err)
	}
	file := func(name string, d cache.Desc) sysctlFile {
		return sysctlFile{kernel.NewFileKept(env.Proc, filepath.Join(dir, name), env.KeepFiles), d}
	}
	return &sysctlCollector{files: []sysctlFile{
		file("random/entropy_avail", entropyAvail), file("random/poolsize", entropyPoolsize),
		file("pid_max", sysctlPidMax), file("pty/nr", sysctlNptys),
	}}, nil
}

func (c *sysctlCollector) Name() string { return "sysctl" }

func (c *sysctlCollector) Source() cache.Source {
	var descs []cache.Desc
	for _, f := range c.files {
		descs = append(descs, f.desc)
	}
	return cache.Source{Name: c.Name(), Metrics: descs}
}

// Sample reads every file; one missing costs only its own metric.
func (c *sysctlCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for _, f := range c.files {
		if err := c.readOne(f.file, f.desc.ID, b); err != nil {
			errs = append(errs, err)
		}
	}
	return engine.PartialOf(errs, len(c.files))
}

// readOne publishes the single number of f as metric id.
func (c *sysctlCollector) readOne(f *kernel.File, id cache.MetricID, b *cache.Builder) error {
	var err error
	if c.buf, err = f.Read(c.buf); err != nil {
		return err
	}
	if c.nums, err = kernel.ParseNumbers(c.buf, c.nums); err != nil || len(c.nums) != 1 {
		return fmt.Errorf("%s: want one number: %v", f.Path, err)
	}
	b.SetU64(id, cache.InstNone, c.nums[0])
	return nil
}
