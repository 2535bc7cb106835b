package collector

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// snmpKey names one field of the snmp or netstat files.
type snmpKey struct{ proto, field string }

// netProtoCollector reads the TCP and UDP counters of /proc/net/snmp and
// /proc/net/netstat.
type netProtoCollector struct {
	files []string     // net/snmp, net/netstat
	descs []cache.Desc // in snmpFields order
	// index finds the snmpFields (usually one) that read a field.
	index map[snmpKey][]int
	rates *rates
	seen  []bool // by snmpFields index: set in the current sample
	found int    // fields set in the current sample
}

// NewNetProtoCollector reads below env.Proc.
func NewNetProtoCollector(env Env) (Collector, error) {
	if err := netCheckRoot(env.Proc); err != nil {
		return nil, fmt.Errorf("netproto: %w", err)
	}
	c := &netProtoCollector{
		files: []string{filepath.Join(env.Proc, "net", "snmp"), filepath.Join(env.Proc, "net", "netstat")},
		index: map[snmpKey][]int{},
		rates: newRates(),
		seen:  make([]bool, len(snmpFields)),
	}
	for i, f := range snmpFields {
		c.descs = append(c.descs, metric(clusterSNMP, f.item, "network."+f.name, cache.TypeU64, f.sem, f.units, cache.InDomNone))
		k := snmpKey{f.proto, f.field}
		c.index[k] = append(c.index[k], i)
	}
	return c, nil
}

func (c *netProtoCollector) Name() string { return "netproto" }

func (c *netProtoCollector) Resets() uint64 { return c.rates.resets }

func (c *netProtoCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: withRates(c.descs)}
}

// Sample reads both files once. A file that is missing (netstat on an old
// or restricted kernel) only leaves its fields without values; the sample
// fails when neither gives a single field we know.
func (c *netProtoCollector) Sample(b *cache.Builder, now time.Time) error {
	var errs []error
	c.rates.begin(now)
	c.found = 0
	clear(c.seen)
	publish := func(proto, field string, v uint64) {
		for _, i := range c.index[snmpKey{proto, field}] {
			c.set(b, i, v)
		}
	}
	for _, path := range c.files {
		data, err := readFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if bad := parseSNMP(data, publish); bad > 0 {
			errs = append(errs, fmt.Errorf("%s: %d malformed lines or values skipped", path, bad))
		}
	}
	if c.found == 0 {
		return fmt.Errorf("netproto: no TCP or UDP counters read: %w", errors.Join(errs...))
	}
	c.rates.commit()
	return nil
}

// set publishes the value of snmpFields[i]; a field repeated in a damaged
// file keeps its first value.
func (c *netProtoCollector) set(b *cache.Builder, i int, v uint64) {
	if c.seen[i] {
		return
	}
	c.seen[i] = true
	c.found++
	d := &c.descs[i]
	if d.Sem == cache.SemCounter {
		c.rates.counter(b, d, cache.InstNone, v)
		return
	}
	b.SetU64(d.ID, cache.InstNone, v)
}
