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

// Socket counts from /proc/net/sockstat and sockstat6, with pmdalinux's
// items (its clusters 11 and 73). pmrep's :sar-n-SOCK view reads them.
var (
	sockTotal = engine.Row{Name: "hostcache.network.sockstat.total", Cluster: clusterSock, Item: 9,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockTCPInuse = engine.Row{Name: "hostcache.network.sockstat.tcp.inuse", Cluster: clusterSock, Item: 0,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockTCPOrphan = engine.Row{Name: "hostcache.network.sockstat.tcp.orphan", Cluster: clusterSock, Item: 10,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockTCPTW = engine.Row{Name: "hostcache.network.sockstat.tcp.tw", Cluster: clusterSock, Item: 11,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockTCPAlloc = engine.Row{Name: "hostcache.network.sockstat.tcp.alloc", Cluster: clusterSock, Item: 12,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockTCPMem = engine.Row{Name: "hostcache.network.sockstat.tcp.mem", Cluster: clusterSock, Item: 13,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockUDPInuse = engine.Row{Name: "hostcache.network.sockstat.udp.inuse", Cluster: clusterSock, Item: 3,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockUDPMem = engine.Row{Name: "hostcache.network.sockstat.udp.mem", Cluster: clusterSock, Item: 14,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockUDPLite = engine.Row{Name: "hostcache.network.sockstat.udplite.inuse", Cluster: clusterSock,
		Item: 8, Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	sockRawInuse = engine.Row{Name: "hostcache.network.sockstat.raw.inuse", Cluster: clusterSock, Item: 6,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockFragInuse = engine.Row{Name: "hostcache.network.sockstat.frag.inuse", Cluster: clusterSock, Item: 15,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockFragMemory = engine.Row{Name: "hostcache.network.sockstat.frag.memory", Cluster: clusterSock, Item: 16,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockTCP6Inuse = engine.Row{Name: "hostcache.network.sockstat.tcp6.inuse", Cluster: clusterSock6, Item: 0,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockUDP6Inuse = engine.Row{Name: "hostcache.network.sockstat.udp6.inuse", Cluster: clusterSock6, Item: 1,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockUDPLite6 = engine.Row{Name: "hostcache.network.sockstat.udplite6.inuse", Cluster: clusterSock6,
		Item: 2, Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	sockRaw6Inuse = engine.Row{Name: "hostcache.network.sockstat.raw6.inuse", Cluster: clusterSock6, Item: 3,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockFrag6Inuse = engine.Row{Name: "hostcache.network.sockstat.frag6.inuse", Cluster: clusterSock6, Item: 4,
		Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	sockFrag6Memory = engine.Row{Name: "hostcache.network.sockstat.frag6.memory", Cluster: clusterSock6,
		Item: 5, Type: cache.TypeI32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
)

// sockFields says which metric each "PROTO: name value" pair of a file is.
type sockFields map[string]map[string]cache.Desc

// sockstatFile is one of the two files and its fields.
type sockstatFile struct {
	file   *kernel.File
	fields sockFields
}

// sockstatCollector reads /proc/net/sockstat and sockstat6.
type sockstatCollector struct {
	files []sockstatFile
	buf   []byte
}

// NewSockstatCollector names the files below env.Proc.
func NewSockstatCollector(env engine.Env) (engine.Collector, error) {
	dir, err := hostkit.ProcFile(env, "net")
	if err != nil {
		return nil, fmt.Errorf("sockstat: %w", err)
	}
	v4 := sockFields{
		"sockets": {"used": sockTotal},
		"TCP": {"inuse": sockTCPInuse, "orphan": sockTCPOrphan, "tw": sockTCPTW, "alloc": sockTCPAlloc,
			"mem": sockTCPMem},
		"UDP":     {"inuse": sockUDPInuse, "mem": sockUDPMem},
		"UDPLITE": {"inuse": sockUDPLite},
		"RAW":     {"inuse": sockRawInuse},
		"FRAG":    {"inuse": sockFragInuse, "memory": sockFragMemory},
	}
	v6 := sockFields{
		"TCP6":     {"inuse": sockTCP6Inuse},
		"UDP6":     {"inuse": sockUDP6Inuse},
		"UDPLITE6": {"inuse": sockUDPLite6},
		"RAW6":     {"inuse": sockRaw6Inuse},
		"FRAG6":    {"inuse": sockFrag6Inuse, "memory": sockFrag6Memory},
	}
	return &sockstatCollector{files: []sockstatFile{
		{kernel.NewFileKept(env.Proc, filepath.Join(dir, "sockstat"), env.KeepFiles), v4},
		{kernel.NewFileKept(env.Proc, filepath.Join(dir, "sockstat6"), env.KeepFiles), v6},
	}}, nil
}

func (c *sockstatCollector) Name() string { return "sockstat" }

func (c *sockstatCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{sockTotal, sockTCPInuse, sockTCPOrphan, sockTCPTW,
		sockTCPAlloc, sockTCPMem, sockUDPInuse, sockUDPMem, sockUDPLite, sockRawInuse, sockFragInuse,
		sockFragMemory,
		sockTCP6Inuse, sockUDP6Inuse, sockUDPLite6, sockRaw6Inuse, sockFrag6Inuse, sockFrag6Memory}}
}

// Sample reads both files; a kernel without IPv6 has no sockstat6, and
// loses only its metrics.
func (c *sockstatCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for _, f := range c.files {
		var err error
		if c.buf, err = f.file.Read(c.buf); err != nil {
			errs = append(errs, err)
			continue
		}
		kernel.ParseSockstat(c.buf, func(proto, name []byte, v uint64) {
			if d, ok := f.fields[string(proto)][string(name)]; ok {
				b.SetI64(d.ID, cache.InstNone, int64(int32(v)))
			}
		})
	}
	return engine.PartialOf(errs, len(c.files))
}
