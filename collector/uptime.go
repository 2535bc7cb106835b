package collector

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// /proc/uptime metrics, with pmdalinux's items in its uptime cluster.
var (
	uptimeUp   = metric(clusterUptime, 0, "kernel.all.uptime", cache.TypeDouble, cache.SemInstant, cache.UnitsSec, cache.InDomNone)
	uptimeIdle = metric(clusterUptime, 1, "kernel.all.idletime", cache.TypeDouble, cache.SemInstant, cache.UnitsSec, cache.InDomNone)
)

// uptimeCollector reads /proc/uptime, which procfs has no parser for.
type uptimeCollector struct {
	path string
	file *kernelFile
	buf  []byte
}

// NewUptimeCollector checks the /proc root below p.Proc.
func NewUptimeCollector(p Env) (Collector, error) {
	path, err := procFile(p, "uptime")
	if err != nil {
		return nil, fmt.Errorf("uptime: %w", err)
	}
	return &uptimeCollector{path: path, file: newKernelFile(p.Proc, path)}, nil
}

func (c *uptimeCollector) Name() string { return "uptime" }

func (c *uptimeCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{uptimeUp, uptimeIdle}}
}

// Sample reads /proc/uptime once.
func (c *uptimeCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.read(c.buf); err != nil {
		return fmt.Errorf("reading uptime: %w", err)
	}
	up, idle, err := parseUptime(c.buf)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", c.path, err)
	}
	b.SetDouble(uptimeUp.ID, cache.InstNone, up)
	b.SetDouble(uptimeIdle.ID, cache.InstNone, idle)
	return nil
}

// parseUptime reads "UPTIME IDLE" (seconds since boot, and idle seconds
// summed over CPUs). Later fields, should a kernel add any, are ignored.
func parseUptime(data []byte) (up, idle float64, err error) {
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0, 0, fmt.Errorf("want 2 fields, got %d", len(f))
	}
	if up, err = parseSeconds(f[0]); err != nil {
		return 0, 0, err
	}
	if idle, err = parseSeconds(f[1]); err != nil {
		return 0, 0, err
	}
	return up, idle, nil
}

// parseSeconds parses a non-negative, finite number of seconds; ParseFloat
// alone would accept "NaN" and "-Inf".
func parseSeconds(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("bad seconds %q", s)
	}
	return v, nil
}

// procFile returns the path of file name below the /proc root, for the
// collectors that read a file themselves (uptime, load). It checks the root
// now, as procfs.NewFS does for the others, so a bad root fails at start-up.
func procFile(p Env, name string) (string, error) {
	if p.Proc == "" {
		return "", errors.New("no proc root")
	}
	st, err := os.Stat(p.Proc)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("proc root %s is not a directory", p.Proc)
	}
	return filepath.Join(p.Proc, name), nil
}
