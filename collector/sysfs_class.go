package collector

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// classStat is one statistics attribute of a /sys/class device and the
// metric it gives; shift scales it (fibre channel counts 4-byte words).
type classStat struct {
	attr  string
	desc  cache.Desc
	shift uint
}

// classSpec describes a /sys/class whose devices each have a directory
// of counters: fc_host's statistics, scsi_tape's stats.
type classSpec struct {
	name     string // the collector's name
	class    string // the directory below /sys/class
	stats    string // each device's directory of counters
	keep     func(dev string) bool
	counters []classStat
	count    cache.Desc // the number of devices: hinv.nfchost, hinv.ntape
	indom    cache.InDomDesc
	// allOnesZero reads a counter of all ones as 0: fc_host drivers print
	// it for a counter they do not keep, and pmdalinux gives 0.
	allOnesZero bool
}

// classCollector reads every device's counters of one /sys/class. The
// class is listed again each sample: devices come and go with hot-plug.
type classCollector struct {
	spec  classSpec
	dir   string
	ids   *cache.IDMap
	buf   []byte
	names []string
	list  []cache.Instance
}

func newClassCollector(env engine.Env, spec classSpec) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Sys); err != nil {
		return nil, fmt.Errorf("%s: sys root: %w", spec.name, err)
	}
	return &classCollector{spec: spec, dir: filepath.Join(env.Sys, "class", spec.class),
		ids: env.IDMap(spec.indom.ID), buf: make([]byte, 0, 64)}, nil
}

func (c *classCollector) Name() string { return c.spec.name }

func (c *classCollector) Source() cache.Source {
	metrics := []cache.Desc{c.spec.count}
	for _, s := range c.spec.counters {
		metrics = append(metrics, s.desc)
	}
	return cache.Source{Name: c.Name(), Metrics: metrics, InDoms: []cache.InDomDesc{c.spec.indom}}
}

// Sample lists the class's devices and reads their counters. A host
// without the class (no such hardware, or the driver not loaded) has no
// devices: a count of 0, as pmdalinux gives, and no error.
func (c *classCollector) Sample(b *cache.Builder, _ time.Time) error {
	devs, err := c.devices()
	if err != nil {
		return err
	}
	c.list = c.list[:0]
	var errs []error
	for _, dev := range devs {
		id := c.ids.ID(dev)
		c.list = append(c.list, cache.Instance{ID: id, Name: dev})
		errs = append(errs, c.readDevice(b, dev, id)...)
	}
	b.SetInDom(c.spec.indom.ID, cache.NewInstances(c.list))
	b.SetU64(c.spec.count.ID, cache.InstNone, uint64(len(devs)))
	return engine.Partial(errors.Join(errs...))
}

// devices lists the class's devices that have a counters directory, by name.
func (c *classCollector) devices() ([]string, error) {
	entries, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.spec.name, err)
	}
	c.names = c.names[:0]
	for _, e := range entries {
		dev := e.Name()
		if strings.HasPrefix(dev, ".") || (c.spec.keep != nil && !c.spec.keep(dev)) {
			continue
		}
		if st, err := os.Stat(filepath.Join(c.dir, dev, c.spec.stats)); err == nil && st.IsDir() {
			c.names = append(c.names, dev)
		}
	}
	sort.Strings(c.names)
	return c.names, nil
}

// readDevice publishes one device's counters; an attribute that cannot be
// read or parsed costs only its own value.
func (c *classCollector) readDevice(b *cache.Builder, dev string, id uint32) []error {
	var errs []error
	for _, s := range c.spec.counters {
		path := filepath.Join(c.dir, dev, c.spec.stats, s.attr)
		var err error
		if c.buf, err = kernel.ReadFileInto(path, c.buf); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		line, _ := kernel.AttrLine(c.buf)
		v, err := strconv.ParseUint(string(line), 0, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		if v == ^uint64(0) && c.spec.allOnesZero {
			v = 0
		}
		b.SetU64(s.desc.ID, id, v<<s.shift)
	}
	return errs
}
