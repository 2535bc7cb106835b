package collector

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// /proc/loadavg metrics, with pmdalinux's items in its loadavg cluster. As in
// pmdalinux all four come from this one file; nprocs is the kernel's thread
// count, the "87" of "1/87" (pmdalinux: "total number of processes
// (lightweight)").
var (
	loadAvg      = metric(clusterLoadavg, 0, "kernel.all.load", cache.TypeFloat, cache.SemInstant, cache.UnitsNone, indomLoadavg)
	loadLastPID  = metric(clusterLoadavg, 1, "kernel.all.lastpid", cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	loadRunnable = metric(clusterLoadavg, 2, "kernel.all.runnable", cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	loadNProcs   = metric(clusterLoadavg, 3, "kernel.all.nprocs", cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
)

// loadPeriods are pmdalinux's kernel.all.load instance ids, in the order of
// /proc/loadavg: the averaging period in minutes, named "N minute".
var loadPeriods = [3]uint32{1, 5, 15}

func newLoadInstances() *cache.Instances {
	list := make([]cache.Instance, len(loadPeriods))
	for i, m := range loadPeriods {
		list[i] = cache.Instance{ID: m, Name: strconv.FormatUint(uint64(m), 10) + " minute"}
	}
	return cache.NewInstances(list)
}

// loadavg is one parsed /proc/loadavg.
type loadavg struct {
	load                      [3]float64 // in loadPeriods order
	runnable, nprocs, lastpid uint64
}

// loadCollector reads /proc/loadavg itself: procfs's LoadAvg parses only the
// three averages, and two reads could disagree with each other.
type loadCollector struct {
	path  string
	file  *kernelFile
	buf   []byte
	insts *cache.Instances // fixed, so built once
}

// NewLoadCollector checks the /proc root below p.Proc.
func NewLoadCollector(p Env) (Collector, error) {
	path, err := procFile(p, "loadavg")
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	return &loadCollector{path: path, file: newKernelFile(p.Proc, path), insts: newLoadInstances()}, nil
}

func (c *loadCollector) Name() string { return "load" }

func (c *loadCollector) Source() cache.Source {
	return cache.Source{
		Name:    c.Name(),
		Metrics: []cache.Desc{loadAvg, loadLastPID, loadRunnable, loadNProcs},
		InDoms:  []cache.InDomDesc{{ID: indomLoadavg, Name: "loadavg"}},
	}
}

// Sample reads /proc/loadavg once.
func (c *loadCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.read(c.buf); err != nil {
		return fmt.Errorf("reading loadavg: %w", err)
	}
	la, err := parseLoadavg(c.buf)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", c.path, err)
	}
	b.SetInDom(indomLoadavg, c.insts)
	for i, id := range loadPeriods {
		b.SetDouble(loadAvg.ID, id, la.load[i])
	}
	b.SetU64(loadLastPID.ID, cache.InstNone, la.lastpid)
	b.SetU64(loadRunnable.ID, cache.InstNone, la.runnable)
	b.SetU64(loadNProcs.ID, cache.InstNone, la.nprocs)
	return nil
}

// parseLoadavg reads "L1 L5 L15 RUNNABLE/THREADS LASTPID"; later fields,
// should a kernel add any, are ignored.
func parseLoadavg(data []byte) (loadavg, error) {
	var la loadavg
	f := strings.Fields(string(data))
	if len(f) < 5 {
		return la, fmt.Errorf("want 5 fields, got %d", len(f))
	}
	for i := range la.load {
		// As a C float, the way pmdalinux's sscanf("%f") reads it, so the
		// FLOAT we publish is the same nearest float32.
		v, err := strconv.ParseFloat(f[i], 32)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return la, fmt.Errorf("bad load average %q", f[i])
		}
		la.load[i] = v
	}
	run, threads, ok := strings.Cut(f[3], "/")
	if !ok {
		return la, fmt.Errorf("want RUNNABLE/THREADS, got %q", f[3])
	}
	var err error
	if la.runnable, err = strconv.ParseUint(run, 10, 32); err != nil {
		return la, err
	}
	if la.nprocs, err = strconv.ParseUint(threads, 10, 32); err != nil {
		return la, err
	}
	if la.lastpid, err = strconv.ParseUint(f[4], 10, 32); err != nil {
		return la, err
	}
	return la, nil
}
