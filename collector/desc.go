package collector

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Cluster numbers are part of every PMID and therefore an ABI: never renumber
// one, and keep retired numbers listed here so they are not reused.
const (
	clusterControl = 0  // hostcache.control.*: self-metrics and controls
	clusterStat    = 1  // /proc/stat: CPU time and kernel activity
	clusterMeminfo = 2  // /proc/meminfo
	clusterLoadavg = 3  // /proc/loadavg
	clusterUptime  = 4  // /proc/uptime
	clusterDisk    = 5  // /proc/diskstats: disk.dev.*, disk.all.*, iostat figures
	clusterPart    = 6  // /proc/diskstats: disk.partitions.*
	clusterDM      = 7  // /proc/diskstats + /sys/block/dm-*: disk.dm.*
	clusterNetdev  = 8  // /proc/net/dev + /sys/class/net: network.interface.*, network.all.*
	clusterSNMP    = 9  // /proc/net/snmp, /proc/net/netstat: network.tcp.*, network.udp.*
	clusterFilesys = 10 // /proc/mounts + statfs: filesys.*
	clusterPSI     = 11 // /proc/pressure/*: kernel.all.pressure.*
	clusterVmstat  = 12 // /proc/vmstat: mem.vmstat.*
	clusterSwap    = 13 // /proc/vmstat, /proc/meminfo: swap.*
	clusterSwapdev = 14 // /proc/swaps: swapdev.*
)

// Instance domain serials, an ABI like the clusters.
const (
	indomCollectors cache.InDomID = 0 // one instance per collector
	indomCPU        cache.InDomID = 1 // per-CPU, "cpuN" with id N as pmdalinux
	indomLoadavg    cache.InDomID = 2 // "1 minute", "5 minute", "15 minute"
	indomDisk       cache.InDomID = 3 // whole disks, pmdalinux's 60.1
	indomPartitions cache.InDomID = 4 // partitions, 60.10
	indomDM         cache.InDomID = 5 // device-mapper devices by mapped name, 60.24
	indomInterface  cache.InDomID = 6 // network interfaces, 60.3
	indomFilesys    cache.InDomID = 7 // mounted filesystems by device, 60.5
	indomSwapdev    cache.InDomID = 8 // swap devices, 60.6
	indomPressure   cache.InDomID = 9 // PSI averaging windows, 60.37
)

// rateItemOffset is added to a counter's item to give its rate's item, so
// every hostcache.rate.X sits in X's cluster at a predictable place.
const rateItemOffset = 512

// Prefix is the root of every metric name.
const Prefix = "hostcache."

// metric describes a metric named below the hostcache prefix.
func metric(cluster, item uint32, name string, t cache.Type, sem cache.Sem, u cache.Units, indom cache.InDomID) cache.Desc {
	return cache.Desc{
		Name: Prefix + name, ID: cache.NewMetricID(cluster, item),
		Type: t, Sem: sem, Units: u, InDom: indom,
	}
}

// RateDesc returns the descriptor of hostcache.rate.X for counter X: a
// double, instant, in X's units per second.
func RateDesc(counter cache.Desc) cache.Desc {
	units, _ := cache.RateOf(counter.Units)
	return cache.Desc{
		Name:  Prefix + "rate." + strings.TrimPrefix(counter.Name, Prefix),
		ID:    rateID(counter.ID),
		Type:  cache.TypeDouble,
		Sem:   cache.SemInstant,
		Units: units,
		InDom: counter.InDom,
	}
}

// withRates returns descs followed by a rate metric for every counter.
func withRates(descs []cache.Desc) []cache.Desc {
	out := append([]cache.Desc(nil), descs...)
	for _, d := range descs {
		if d.Sem == cache.SemCounter {
			out = append(out, RateDesc(d))
		}
	}
	return out
}

// rateID is the id of the rate twin of counter id.
func rateID(id cache.MetricID) cache.MetricID {
	return cache.NewMetricID(id.Cluster(), id.Item()+rateItemOffset)
}
