package network

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// TCP sockets by state, counted over /proc/net/tcp and tcp6 with
// pmdalinux's items (its clusters 19 tcpconn and 76 tcpconn6): item N
// counts the kernel's state N (include/net/tcp_states.h).
var (
	tcpconnMetrics = [tcpStates]cache.Desc{
		engine.Row{Name: "hostcache.network.tcpconn.established", Cluster: clusterTCPConn, Item: 1,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.syn_sent", Cluster: clusterTCPConn, Item: 2,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.syn_recv", Cluster: clusterTCPConn, Item: 3,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.fin_wait1", Cluster: clusterTCPConn, Item: 4,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.fin_wait2", Cluster: clusterTCPConn, Item: 5,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.time_wait", Cluster: clusterTCPConn, Item: 6,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.close", Cluster: clusterTCPConn, Item: 7,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.close_wait", Cluster: clusterTCPConn, Item: 8,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.last_ack", Cluster: clusterTCPConn, Item: 9,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.listen", Cluster: clusterTCPConn, Item: 10,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn.closing", Cluster: clusterTCPConn, Item: 11,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
	}
	tcpconn6Metrics = [tcpStates]cache.Desc{
		engine.Row{Name: "hostcache.network.tcpconn6.established", Cluster: clusterTCPConn6, Item: 1,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.syn_sent", Cluster: clusterTCPConn6, Item: 2,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.syn_recv", Cluster: clusterTCPConn6, Item: 3,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.fin_wait1", Cluster: clusterTCPConn6, Item: 4,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.fin_wait2", Cluster: clusterTCPConn6, Item: 5,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.time_wait", Cluster: clusterTCPConn6, Item: 6,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.close", Cluster: clusterTCPConn6, Item: 7,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.close_wait", Cluster: clusterTCPConn6, Item: 8,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.last_ack", Cluster: clusterTCPConn6, Item: 9,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.listen", Cluster: clusterTCPConn6, Item: 10,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.tcpconn6.closing", Cluster: clusterTCPConn6, Item: 11,
			Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
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
	dir, err := hostkit.ProcFile(env, "net")
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
	return cache.Source{Name: c.Name(),
		Metrics: append(tcpconnMetrics[:len(tcpconnMetrics):len(tcpconnMetrics)], tcpconn6Metrics[:]...)}
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
