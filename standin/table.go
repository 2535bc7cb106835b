// Package standin holds what hostcache needs to answer in pmdalinux's
// place: pmdalinux's own identifiers (standin/linuxtable, generated from the
// running pmcd by tools/genlinux) and the mapping between hostcache's
// internal metric and instance-domain ids and those wire identifiers.
package standin

import "github.com/pmdahostcache/pmdahostcache/cache"

// Domain is pmdalinux's PMDA domain, the one the stand-in answers as.
const Domain = 60

// Wire identifiers with no metric or no instance domain (PM_ID_NULL,
// PM_INDOM_NULL).
const (
	PMIDNull  uint32 = 0xffffffff
	InDomNull uint32 = 0xffffffff
)

// LinuxMetric is one metric pmdalinux serves, with its descriptor.
type LinuxMetric struct {
	Name          string
	Cluster, Item uint32
	InDom         cache.InDomID // serial in domain 60, or cache.InDomNone
	Type          cache.Type
	Sem           cache.Sem
	Units         cache.Units
}

// PMID is the metric's wire PMID.
func (m LinuxMetric) PMID() uint32 { return WirePMID(m.Cluster, m.Item) }

// WirePMID packs a domain-60 PMID: domain 9 bits, cluster 12, item 10.
func WirePMID(cluster, item uint32) uint32 {
	return Domain<<22 | (cluster&0xfff)<<10 | item&0x3ff
}

// WireInDom packs a domain-60 instance domain: domain 9 bits, serial 22.
func WireInDom(serial cache.InDomID) uint32 {
	return Domain<<22 | uint32(serial)&0x3fffff
}

// KeptInDom reports whether pmdalinux's instance domain serial has its ids
// in a libpcp_pmda DOMAIN.SERIAL file the stand-in keeps using. pmdalinux
// loads these at its start and saves them when they grow: disks (1),
// partitions (10), zram (38), device-mapper (24) and md (25) devices,
// WWIDs (42), network interfaces (3), interrupt lines (4) and per-CPU
// interrupts (40), softirqs (36) and per-CPU softirqs (41), slabs (12),
// zones (32) and SCSI devices (11). Interface addresses (17) and SysV IPC
// objects (shared memory 28, message queues 29, semaphore sets 30) it
// saves and never loads: it numbers them afresh in the order it finds them
// at each start, so its file holds the numbering it last used, which the
// stand-in continues. Its other domains it numbers afresh at each start
// and never saves.
func KeptInDom(serial cache.InDomID) bool {
	switch serial {
	case 1, 3, 4, 10, 11, 12, 17, 24, 25, 28, 29, 30, 32, 36, 38, 40, 41, 42:
		return true
	}
	return false
}
