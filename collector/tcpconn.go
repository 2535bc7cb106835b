package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// TCP sockets by state, counted over /proc/net/tcp and tcp6 with
// pmdalinux's items (its clusters 19 tcpconn and 76 tcpconn6): item N
// counts the kernel's state N (include/net/tcp_states.h).
var (
	tcpconnMetrics = [tcpStates]cache.Desc{
		engine.Metric("hostcache.network.tcpconn.established", clusterTCPConn, 1, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.syn_sent", clusterTCPConn, 2, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.syn_recv", clusterTCPConn, 3, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.fin_wait1", clusterTCPConn, 4, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.fin_wait2", clusterTCPConn, 5, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.time_wait", clusterTCPConn, 6, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.close", clusterTCPConn, 7, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.close_wait", clusterTCPConn, 8, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.last_ack", clusterTCPConn, 9, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.listen", clusterTCPConn, 10, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn.closing", clusterTCPConn, 11, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
	}
	tcpconn6Metrics = [tcpStates]cache.Desc{
		engine.Metric("hostcache.network.tcpconn6.established", clusterTCPConn6, 1, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.syn_sent", clusterTCPConn6, 2, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.syn_recv", clusterTCPConn6, 3, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.fin_wait1", clusterTCPConn6, 4, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.fin_wait2", clusterTCPConn6, 5, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.time_wait", clusterTCPConn6, 6, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.close", clusterTCPConn6, 7, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.close_wait", clusterTCPConn6, 8, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.last_ack", clusterTCPConn6, 9, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.listen", clusterTCPConn6, 10, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
		engine.Metric("hostcache.network.tcpconn6.closing", clusterTCPConn6, 11, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone),
	}
)

// tcpTableLimit is the most a sample reads of each table. The kernel
// prints a table by walking its socket hash as the file is read, some
// 2 µs a socket on the development machine, and a line is 150 bytes (IPv4)
// or about 180 (IPv6): 24 MiB holds 100,000 IPv6 or 160,000 IPv4 sockets,
// a third of a second of kernel time at most, every 10 s. A longer table
// is not read to its end: its counts are left without values, and the
// sample's error says why, so a host with that many sockets costs a
// bounded amount whatever it holds.
const tcpTableLimit = 24 << 20

// tcpconnCollector counts the two tables, streamed through one buffer.
type tcpconnCollector struct {
	tables [2]tcpTable
	limit  int64
	buf    []byte
}

// tcpTable is one table and the metrics its states feed.
type tcpTable struct {
	path    string
	metrics *[tcpStates]cache.Desc
}

// NewTCPConnCollector names the tables below env.Proc/net.
func NewTCPConnCollector(env engine.Env) (engine.Collector, error) {
	return newTCPConnCollector(env, tcpTableLimit)
}

func newTCPConnCollector(env engine.Env, limit int64) (*tcpconnCollector, error) {
	dir, err := procFile(env, "net")
	if err != nil {
		return nil, fmt.Errorf("tcpconn: %w", err)
	}
	return &tcpconnCollector{limit: limit, tables: [2]tcpTable{
		{filepath.Join(dir, "tcp"), &tcpconnMetrics},
		{filepath.Join(dir, "tcp6"), &tcpconn6Metrics},
	}}, nil
}

func (c *tcpconnCollector) Name() string { return "tcpconn" }

func (c *tcpconnCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: append(tcpconnMetrics[:len(tcpconnMetrics):len(tcpconnMetrics)], tcpconn6Metrics[:]...)}
}

// Sample counts both tables; one that is missing (a kernel without
// IPv6), odd or too long loses only its own metrics.
func (c *tcpconnCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for i := range c.tables {
		if err := c.sampleTable(b, &c.tables[i]); err != nil {
			errs = append(errs, fmt.Errorf("tcpconn: %w", err))
		}
	}
	return engine.PartialOf(errs, len(c.tables))
}

func (c *tcpconnCollector) sampleTable(b *cache.Builder, t *tcpTable) error {
	var n tcpStateCounts
	var err error
	if c.buf, err = countTCPStates(t.path, c.buf, c.limit, &n); err != nil {
		return err
	}
	for i := range t.metrics {
		b.SetU64(t.metrics[i].ID, cache.InstNone, n[i])
	}
	return nil
}
