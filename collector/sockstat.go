package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Socket counts from /proc/net/sockstat and sockstat6, with pmdalinux's
// items (its clusters 11 and 73). pmrep's :sar-n-SOCK view reads them.
var (
	sockTotal       = engine.Metric("hostcache.network.sockstat.total", clusterSock, 9, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockTCPInuse    = engine.Metric("hostcache.network.sockstat.tcp.inuse", clusterSock, 0, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockTCPOrphan   = engine.Metric("hostcache.network.sockstat.tcp.orphan", clusterSock, 10, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockTCPTW       = engine.Metric("hostcache.network.sockstat.tcp.tw", clusterSock, 11, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockTCPAlloc    = engine.Metric("hostcache.network.sockstat.tcp.alloc", clusterSock, 12, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockTCPMem      = engine.Metric("hostcache.network.sockstat.tcp.mem", clusterSock, 13, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockUDPInuse    = engine.Metric("hostcache.network.sockstat.udp.inuse", clusterSock, 3, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockUDPMem      = engine.Metric("hostcache.network.sockstat.udp.mem", clusterSock, 14, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockUDPLite     = engine.Metric("hostcache.network.sockstat.udplite.inuse", clusterSock, 8, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockRawInuse    = engine.Metric("hostcache.network.sockstat.raw.inuse", clusterSock, 6, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockFragInuse   = engine.Metric("hostcache.network.sockstat.frag.inuse", clusterSock, 15, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockFragMemory  = engine.Metric("hostcache.network.sockstat.frag.memory", clusterSock, 16, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockTCP6Inuse   = engine.Metric("hostcache.network.sockstat.tcp6.inuse", clusterSock6, 0, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockUDP6Inuse   = engine.Metric("hostcache.network.sockstat.udp6.inuse", clusterSock6, 1, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockUDPLite6    = engine.Metric("hostcache.network.sockstat.udplite6.inuse", clusterSock6, 2, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockRaw6Inuse   = engine.Metric("hostcache.network.sockstat.raw6.inuse", clusterSock6, 3, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockFrag6Inuse  = engine.Metric("hostcache.network.sockstat.frag6.inuse", clusterSock6, 4, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	sockFrag6Memory = engine.Metric("hostcache.network.sockstat.frag6.memory", clusterSock6, 5, cache.TypeI32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
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
	dir, err := procFile(env, "net")
	if err != nil {
		return nil, fmt.Errorf("sockstat: %w", err)
	}
	v4 := sockFields{
		"sockets": {"used": sockTotal},
		"TCP":     {"inuse": sockTCPInuse, "orphan": sockTCPOrphan, "tw": sockTCPTW, "alloc": sockTCPAlloc, "mem": sockTCPMem},
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
		sockTCPAlloc, sockTCPMem, sockUDPInuse, sockUDPMem, sockUDPLite, sockRawInuse, sockFragInuse, sockFragMemory,
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
