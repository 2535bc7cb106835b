package collector

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The kernel's entropy pool, with pmdalinux's items. pmieconf's entropy
// rule watches it.
var (
	entropyAvail    = engine.Metric("hostcache.kernel.all.entropy.avail", clusterEntropy, 0, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	entropyPoolsize = engine.Metric("hostcache.kernel.all.entropy.poolsize", clusterEntropy, 1, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
)

// entropyCollector reads /proc/sys/kernel/random/entropy_avail and
// poolsize: one number each.
type entropyCollector struct {
	avail, poolsize *kernel.File
	buf             []byte
	nums            []uint64
}

// NewEntropyCollector opens the two files below env.Proc.
func NewEntropyCollector(env engine.Env) (engine.Collector, error) {
	dir, err := procFile(env, filepath.Join("sys", "kernel", "random"))
	if err != nil {
		return nil, fmt.Errorf("entropy: %w", err)
	}
	return &entropyCollector{
		avail:    kernel.NewFile(env.Proc, filepath.Join(dir, "entropy_avail")),
		poolsize: kernel.NewFile(env.Proc, filepath.Join(dir, "poolsize")),
	}, nil
}

func (c *entropyCollector) Name() string { return "entropy" }

func (c *entropyCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{entropyAvail, entropyPoolsize}}
}

// Sample reads both files; one missing costs only its own metric.
func (c *entropyCollector) Sample(b *cache.Builder, _ time.Time) error {
	errAvail := c.readOne(c.avail, entropyAvail.ID, b)
	errPool := c.readOne(c.poolsize, entropyPoolsize.ID, b)
	if errAvail != nil && errPool != nil {
		return errors.Join(errAvail, errPool)
	}
	return engine.Partial(errors.Join(errAvail, errPool))
}

// readOne publishes the single number of f as metric id.
func (c *entropyCollector) readOne(f *kernel.File, id cache.MetricID, b *cache.Builder) error {
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
