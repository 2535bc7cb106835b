package network

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Sockets by state, counted over the kernel's socket tables with
// pmdalinux's items (its clusters 77 rawconn, 78 rawconn6, 79 udpconn, 80
// udpconn6, 81 unix). pcp-dstat's socket plugin reads them.
//
// /proc/net/tcp and tcp6 are not read here: to print them the kernel
// walks its whole TCP connection hash, some 2 µs a socket (a fifth of a
// second for 100,000 connections), paid every interval whether anyone
// asks or not. network.tcpconn.* and tcpconn6.* have a collector of their
// own (tcpconn.go), which bounds what it reads, can be turned off
// (collector.tcpconn.enabled = no) while these counts go on, and is
// sampled less often while no client reads it, as every source is.
var (
	udpconnEstablished = engine.Row{Name: "hostcache.network.udpconn.established", Cluster: clusterUDPConn,
		Item: 1, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	udpconnListen = engine.Row{Name: "hostcache.network.udpconn.listen", Cluster: clusterUDPConn, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	udpconn6Established = engine.Row{Name: "hostcache.network.udpconn6.established", Cluster: clusterUDPConn6,
		Item: 1, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	udpconn6Listen = engine.Row{Name: "hostcache.network.udpconn6.listen", Cluster: clusterUDPConn6,
		Item: 2, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	rawconnCount = engine.Row{Name: "hostcache.network.rawconn.count", Cluster: clusterRawConn, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	rawconn6Count = engine.Row{Name: "hostcache.network.rawconn6.count", Cluster: clusterRawConn6,
		Item: 1, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()

	unixDatagram = engine.Row{Name: "hostcache.network.unix.datagram.count", Cluster: clusterUnix,
		Item: 1, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	unixStreamEstablished = engine.Row{Name: "hostcache.network.unix.stream.established", Cluster: clusterUnix,
		Item: 2, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	unixStreamListen = engine.Row{Name: "hostcache.network.unix.stream.listen", Cluster: clusterUnix,
		Item: 3, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	unixStreamCount = engine.Row{Name: "hostcache.network.unix.stream.count", Cluster: clusterUnix,
		Item: 4, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
)

// netconnCollector streams the socket tables: their length grows with the
// connections a host holds, so they are read a chunk at a time.
type netconnCollector struct {
	udp, udp6, raw, raw6, unix *kernel.File
	buf                        []byte
}

// NewNetConnCollector names the tables below env.Proc/net.
func NewNetConnCollector(env engine.Env) (engine.Collector, error) {
	dir, err := hostkit.ProcFile(env, "net")
	if err != nil {
		return nil, fmt.Errorf("netconn: %w", err)
	}
	file := func(name string) *kernel.File {
		return kernel.NewFileKept(env.Proc, filepath.Join(dir, name), env.KeepFiles)
	}
	return &netconnCollector{udp: file("udp"), udp6: file("udp6"),
		raw: file("raw"), raw6: file("raw6"), unix: file("unix")}, nil
}

func (c *netconnCollector) Name() string { return "netconn" }

func (c *netconnCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{udpconnEstablished, udpconnListen,
		udpconn6Established, udpconn6Listen, rawconnCount, rawconn6Count,
		unixDatagram, unixStreamEstablished, unixStreamListen, unixStreamCount}}
}

// Sample counts every table; one that cannot be read (no IPv6, a kernel
// without raw sockets) loses only its own metrics.
func (c *netconnCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for _, err := range []error{c.sampleUDP(b, c.udp, udpconnEstablished, udpconnListen),
		c.sampleUDP(b, c.udp6, udpconn6Established, udpconn6Listen),
		c.sampleRaw(b, c.raw, rawconnCount), c.sampleRaw(b, c.raw6, rawconn6Count), c.sampleUnix(b)} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return engine.PartialOf(errs, 5)
}

func (c *netconnCollector) sampleUDP(b *cache.Builder, f *kernel.File, est, listen cache.Desc) error {
	var n kernel.UDPCounts
	var err error
	if c.buf, err = f.ScanLines(c.buf, n.AddUDP); err != nil {
		return err
	}
	b.SetU64(est.ID, cache.InstNone, n.Established)
	b.SetU64(listen.ID, cache.InstNone, n.Listen)
	return nil
}

// sampleRaw counts the sockets of a raw table: its lines after the header.
func (c *netconnCollector) sampleRaw(b *cache.Builder, f *kernel.File, d cache.Desc) error {
	lines := uint64(0)
	var err error
	if c.buf, err = f.ScanLines(c.buf, func([]byte) { lines++ }); err != nil {
		return err
	}
	if lines > 0 {
		lines-- // the header
	}
	b.SetU64(d.ID, cache.InstNone, lines)
	return nil
}

func (c *netconnCollector) sampleUnix(b *cache.Builder) error {
	var n kernel.UnixCounts
	var err error
	if c.buf, err = c.unix.ScanLines(c.buf, n.AddUnix); err != nil {
		return err
	}
	b.SetU64(unixDatagram.ID, cache.InstNone, n.Datagram)
	b.SetU64(unixStreamEstablished.ID, cache.InstNone, n.StreamEstablished)
	b.SetU64(unixStreamListen.ID, cache.InstNone, n.StreamListen)
	b.SetU64(unixStreamCount.ID, cache.InstNone, n.Stream)
	return nil
}
