package collector

import (
	"maps"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/collector/network"
	"github.com/pmdahostcache/pmdahostcache/standin/linuxtable"
)

// The twin tests check each metric against its pmdalinux twin in the one
// generated table (standin/linuxtable, made by make linux-table from the
// running pmcd): type, semantics, units and instance domain. The PMIDs are
// checked by tools/genmetrics against the committed pmns.

// hostInDoms maps this package's instance domains to pmdalinux's serials (domain
// 60). Several of ours share one of pmdalinux's: the hinv.cpu.*, cpusys
// and interrupts metrics are per CPU (60.0) in collectors of their own,
// and the NUMA and extfrag metrics are per node (60.19).
var hostInDoms = map[cache.InDomID]cache.InDomID{
	cache.InDomNone: cache.InDomNone,
	indomCPU:        0, indomCPUInfo: 0, indomCPUSys: 0, indomIRQCPUs: 0,
	indomDisk: 1, indomLoadavg: 2, indomIRQ: 4, indomFilesys: 5, indomSwapdev: 6,
	indomPartitions: 10, indomSCSI: 11, indomSlab: 12, indomTmpfs: 18,
	indomNode: 19, indomNUMA: 19, indomExtfrag: 19, indomDM: 24, indomMD: 25, indomIPCShm: 28, indomIPCMsg: 29, indomIPCSem: 30,
	indomBuddy: 31, indomZone: 32, indomZoneProt: 33, indomTape: 34, indomTTY: 35, indomSoftirq: 36,
	indomPressure: 37, indomZram: 38, indomFCHost: 39, indomIRQCPU: 40, indomSoftirqCPU: 41, indomWWID: 42,
}

// linuxInDoms maps every registered collector's instance domains to
// pmdalinux's: this package's and its subpackages'.
func linuxInDoms() map[cache.InDomID]cache.InDomID {
	out := maps.Clone(hostInDoms)
	maps.Copy(out, network.LinuxInDoms())
	return out
}

// Short names for the twin checks (collectortest), with the host's domains.
var (
	notExported = collectortest.NotExported
	linuxTwins  = collectortest.LinuxTwins
	contains    = collectortest.Contains
	rateUnitsOf = collectortest.RateUnitsOf
)

func checkTwin(t *testing.T, d cache.Desc, m linuxtable.Metric) {
	t.Helper()
	collectortest.CheckTwin(t, d, m, linuxInDoms())
}

func checkTwinFamily(t *testing.T, descs []cache.Desc, family string, skip ...string) {
	t.Helper()
	collectortest.CheckTwinFamily(t, descs, family, linuxInDoms(), skip...)
}
