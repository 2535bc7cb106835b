package collector

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// miscDescs is the verified pmdalinux descriptor table of the rest of
// pmdalinux's metrics (see pmdalinux_test.go for the row format): the
// mem.vmstat.* fields older kernels print, fibre channel hosts, tape
// drives, the agent's own strings and the kernel's uevent count,
// transcribed from `pminfo -d` against pmdalinux (PCP 6.0.3, kernel
// 6.18.44).
var miscDescs = []pmdalinuxDesc{
	{"mem.vmstat.allocstall_high", "12.156", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.compact_blocks_moved", "12.57", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.compact_pagemigrate_failed", "12.59", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.compact_pages_moved", "12.60", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.kswapd_skip_congestion_wait", "12.89", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.kswapd_steal", "12.32", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.nr_bounce", "12.40", "64-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"mem.vmstat.nr_pages_scanned", "12.112", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.nr_slab", "12.5", "64-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"mem.vmstat.nr_writeback_temp", "12.56", "64-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgalloc_high", "12.10", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgrefill_dma", "12.20", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgrefill_dma32", "12.65", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgrefill_high", "12.18", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgrefill_movable", "12.66", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgrefill_normal", "12.19", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_direct_dma", "12.29", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_direct_dma32", "12.67", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_direct_high", "12.27", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_direct_movable", "12.68", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_direct_normal", "12.28", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_kswapd_dma", "12.26", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_kswapd_dma32", "12.69", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_kswapd_high", "12.24", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_kswapd_movable", "12.70", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgscan_kswapd_normal", "12.25", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_direct_dma", "12.142", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_direct_dma32", "12.143", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_direct_movable", "12.145", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_direct_normal", "12.144", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_dma", "12.23", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_dma32", "12.71", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_high", "12.21", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_kswapd_dma", "12.138", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_kswapd_dma32", "12.139", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_kswapd_movable", "12.141", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_kswapd_normal", "12.140", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_movable", "12.72", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.pgsteal_normal", "12.22", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.thp_split", "12.77", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.unevictable_pgs_mlockfreed", "12.81", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.workingset_activate", "12.123", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.workingset_refault", "12.125", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"mem.vmstat.workingset_restore", "12.175", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"fchost.dumped_frames", "60.7", "64-bit unsigned int", "counter", "count", "60.39"},
	{"fchost.error_frames", "60.6", "64-bit unsigned int", "counter", "count", "60.39"},
	{"fchost.in.bytes", "60.2", "64-bit unsigned int", "counter", "byte", "60.39"},
	{"fchost.in.frames", "60.0", "64-bit unsigned int", "counter", "count", "60.39"},
	{"fchost.lip_count", "60.4", "64-bit unsigned int", "counter", "count", "60.39"},
	{"fchost.nos_count", "60.5", "64-bit unsigned int", "counter", "count", "60.39"},
	{"fchost.out.bytes", "60.3", "64-bit unsigned int", "counter", "byte", "60.39"},
	{"fchost.out.frames", "60.1", "64-bit unsigned int", "counter", "count", "60.39"},
	{"hinv.nfchost", "60.16", "32-bit unsigned int", "discrete", "none", "PM_INDOM_NULL"},
	{"hinv.ntape", "61.16", "32-bit unsigned int", "discrete", "none", "PM_INDOM_NULL"},
	{"pmda.uname", "62.5", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"pmda.version", "62.6", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"sysfs.kernel.uevent_seqnum", "62.0", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"tape.dev.in_flight", "61.0", "64-bit unsigned int", "instant", "count", "60.34"},
	{"tape.dev.io_ns", "61.1", "64-bit unsigned int", "counter", "nanosec", "60.34"},
	{"tape.dev.other_cnt", "61.2", "64-bit unsigned int", "counter", "count", "60.34"},
	{"tape.dev.read_byte_cnt", "61.3", "64-bit unsigned int", "counter", "byte", "60.34"},
	{"tape.dev.read_cnt", "61.4", "64-bit unsigned int", "counter", "count", "60.34"},
	{"tape.dev.read_ns", "61.5", "64-bit unsigned int", "counter", "nanosec", "60.34"},
	{"tape.dev.resid_cnt", "61.6", "64-bit unsigned int", "counter", "count", "60.34"},
	{"tape.dev.write_byte_cnt", "61.7", "64-bit unsigned int", "counter", "byte", "60.34"},
	{"tape.dev.write_cnt", "61.8", "64-bit unsigned int", "counter", "count", "60.34"},
	{"tape.dev.write_ns", "61.9", "64-bit unsigned int", "counter", "nanosec", "60.34"},
}

// miscFactories are the collectors whose metrics miscDescs lists, built on
// the misc fixtures; the vmstat collector declares the older fields beside
// the current ones, which the other tables list.
var miscFactories = []engine.Factory{NewVMStatCollector, NewFCHostCollector, NewTapeCollector,
	NewAgentCollector, NewSysfsCollector}

// Every metric of these collectors has pmdalinux's descriptor (in
// miscDescs or, for vmstat's current fields, the other tables), and every
// row of miscDescs is declared.
func TestMiscDescriptors(t *testing.T) {
	table := map[string]pmdalinuxDesc{}
	for _, w := range slices.Concat(pmdalinuxDescs, miscDescs) {
		table[w.name] = w
	}
	declared := map[string]bool{}
	env := engine.Env{Proc: filepath.Join(testdataDir, "misc", "older", "proc"), Sys: filepath.Join(testdataDir, "misc", "sys")}
	for _, f := range miscFactories {
		c, err := f(env)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range c.Source().Metrics {
			name := strings.TrimPrefix(d.Name, engine.Prefix)
			declared[name] = true
			if w, ok := table[name]; ok {
				checkDesc(t, d, w)
			} else {
				t.Errorf("%s: no row", name)
			}
		}
	}
	for _, w := range miscDescs {
		if !declared[w.name] {
			t.Errorf("%s: a row no collector declares", w.name)
		}
	}
}
