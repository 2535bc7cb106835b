// Package standin holds what hostcache needs to answer in another agent's
// place (pmdalinux's or pmdaproc's): that agent's own identifiers
// (standin/linuxtable and standin/proctable, generated from the running
// pmcd by tools/genlinux) and the mapping between hostcache's internal
// metric and instance-domain ids and those wire identifiers.
package standin

import "github.com/pmdahostcache/pmdahostcache/cache"

// Wire identifiers with no metric or no instance domain (PM_ID_NULL,
// PM_INDOM_NULL).
const (
	PMIDNull  uint32 = 0xffffffff
	InDomNull uint32 = 0xffffffff
)

// Metric is one metric an agent serves, with its descriptor.
type Metric struct {
	Name          string
	Cluster, Item uint32
	InDom         cache.InDomID // serial in the agent's domain, or cache.InDomNone
	Type          cache.Type
	Sem           cache.Sem
	Units         cache.Units
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
