package collector

import (
	"slices"
	"strings"
	"testing"
)

// diskDescs is the verified pmdalinux descriptor table of this area (see
// pmdalinux_test.go for the row format), transcribed from `pminfo -d -m` of
// disk.dev, disk.all, disk.partitions and disk.dm against pmdalinux (PCP
// 6.0.3, kernel 6.18). Our PMIDs reuse pmdalinux's items: its cluster 0 for
// disk.dev and disk.all (our cluster 5), 10 for disk.partitions (6) and 54 for
// disk.dm (7). The iostat figures are PCP's derived metrics from
// /etc/pcp/derived/iostat.conf (pminfo shows them in the dynamic domain 511);
// their items are ours: 5.110-5.120 and 7.40-7.50.
//
// The capacities are read from /sys (disk_attrs.go, disk_capacity.go),
// where pmdalinux reads /proc/partitions. disk.dm.*_bytes are 32-bit as in
// PCP 6.0.3 (later PCP made them 64-bit).
//
// The disk collector also exports the zram devices' metrics: their rows
// are zramDescs (zram_table_test.go).
var diskDescs = slices.Concat(diskTreeRows, zramDescs)

var diskTreeRows = []pmdalinuxDesc{
	{"disk.dev.read", "5.4", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.write", "5.5", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.total", "5.28", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.blkread", "5.6", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.blkwrite", "5.7", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.blktotal", "5.36", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.read_bytes", "5.38", "64-bit unsigned int", "counter", "Kbyte", "60.1"},
	{"disk.dev.write_bytes", "5.39", "64-bit unsigned int", "counter", "Kbyte", "60.1"},
	{"disk.dev.total_bytes", "5.40", "64-bit unsigned int", "counter", "Kbyte", "60.1"},
	{"disk.dev.read_merge", "5.49", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.write_merge", "5.50", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.avactive", "5.46", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.read_rawactive", "5.72", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.write_rawactive", "5.73", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.total_rawactive", "5.79", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.aveq", "5.47", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.scheduler", "5.59", "string", "discrete", "none", "60.1"},
	{"hinv.map.scsi_id", "5.103", "string", "discrete", "none", "60.1"},
	{"disk.dev.capacity", "5.87", "64-bit unsigned int", "discrete", "Kbyte", "60.1"},
	{"disk.dev.discard", "5.88", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.blkdiscard", "5.89", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.discard_bytes", "5.90", "64-bit unsigned int", "counter", "Kbyte", "60.1"},
	{"disk.dev.discard_merge", "5.91", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.discard_rawactive", "5.92", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.flush", "5.93", "64-bit unsigned int", "counter", "count", "60.1"},
	{"disk.dev.flush_rawactive", "5.94", "32-bit unsigned int", "counter", "millisec", "60.1"},
	{"disk.dev.inflight", "5.95", "32-bit unsigned int", "instant", "none", "60.1"},
	{"disk.dev.await", "5.110", "double", "instant", "millisec / count", "60.1"},
	{"disk.dev.r_await", "5.111", "double", "instant", "millisec / count", "60.1"},
	{"disk.dev.w_await", "5.112", "double", "instant", "millisec / count", "60.1"},
	{"disk.dev.d_await", "5.113", "double", "instant", "millisec / count", "60.1"},
	{"disk.dev.f_await", "5.114", "double", "instant", "millisec / count", "60.1"},
	{"disk.dev.avg_qlen", "5.115", "double", "instant", "none", "60.1"},
	{"disk.dev.avg_rqsz", "5.116", "double", "instant", "Kbyte / count", "60.1"},
	{"disk.dev.r_avg_rqsz", "5.117", "double", "instant", "Kbyte / count", "60.1"},
	{"disk.dev.w_avg_rqsz", "5.118", "double", "instant", "Kbyte / count", "60.1"},
	{"disk.dev.d_avg_rqsz", "5.119", "double", "instant", "Kbyte / count", "60.1"},
	{"disk.dev.util", "5.120", "double", "instant", "none", "60.1"},
	{"disk.all.read", "5.24", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.write", "5.25", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.total", "5.29", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.blkread", "5.26", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.blkwrite", "5.27", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.blktotal", "5.37", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.read_bytes", "5.41", "64-bit unsigned int", "counter", "Kbyte", "PM_INDOM_NULL"},
	{"disk.all.write_bytes", "5.42", "64-bit unsigned int", "counter", "Kbyte", "PM_INDOM_NULL"},
	{"disk.all.total_bytes", "5.43", "64-bit unsigned int", "counter", "Kbyte", "PM_INDOM_NULL"},
	{"disk.all.read_merge", "5.51", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.write_merge", "5.52", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.avactive", "5.44", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.read_rawactive", "5.74", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.write_rawactive", "5.75", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.total_rawactive", "5.80", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.aveq", "5.45", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.discard", "5.96", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.blkdiscard", "5.97", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.discard_bytes", "5.98", "64-bit unsigned int", "counter", "Kbyte", "PM_INDOM_NULL"},
	{"disk.all.discard_merge", "5.99", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.discard_rawactive", "5.100", "32-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.flush", "5.101", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"disk.all.flush_rawactive", "5.102", "32-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"disk.all.inflight", "5.104", "64-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"disk.partitions.read", "6.0", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.write", "6.1", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.total", "6.2", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.blkread", "6.3", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.blkwrite", "6.4", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.blktotal", "6.5", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.read_bytes", "6.6", "64-bit unsigned int", "counter", "Kbyte", "60.10"},
	{"disk.partitions.write_bytes", "6.7", "64-bit unsigned int", "counter", "Kbyte", "60.10"},
	{"disk.partitions.total_bytes", "6.8", "64-bit unsigned int", "counter", "Kbyte", "60.10"},
	{"disk.partitions.read_merge", "6.9", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.write_merge", "6.10", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.avactive", "6.11", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.aveq", "6.12", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.read_rawactive", "6.13", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.write_rawactive", "6.14", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.total_rawactive", "6.15", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.capacity", "6.16", "64-bit unsigned int", "discrete", "Kbyte", "60.10"},
	{"disk.partitions.discard", "6.17", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.blkdiscard", "6.18", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.discard_bytes", "6.19", "64-bit unsigned int", "counter", "Kbyte", "60.10"},
	{"disk.partitions.discard_merge", "6.20", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.discard_rawactive", "6.21", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.flush", "6.22", "64-bit unsigned int", "counter", "count", "60.10"},
	{"disk.partitions.flush_rawactive", "6.23", "32-bit unsigned int", "counter", "millisec", "60.10"},
	{"disk.partitions.inflight", "6.24", "32-bit unsigned int", "instant", "none", "60.10"},
	{"disk.dm.read", "7.0", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.write", "7.1", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.total", "7.2", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.blkread", "7.3", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.blkwrite", "7.4", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.blktotal", "7.5", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.read_bytes", "7.6", "32-bit unsigned int", "counter", "Kbyte", "60.24"},
	{"disk.dm.write_bytes", "7.7", "32-bit unsigned int", "counter", "Kbyte", "60.24"},
	{"disk.dm.total_bytes", "7.8", "32-bit unsigned int", "counter", "Kbyte", "60.24"},
	{"disk.dm.read_merge", "7.9", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.write_merge", "7.10", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.avactive", "7.11", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.aveq", "7.12", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.read_rawactive", "7.14", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.write_rawactive", "7.15", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.total_rawactive", "7.16", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.capacity", "7.17", "64-bit unsigned int", "discrete", "Kbyte", "60.24"},
	{"disk.dm.discard", "7.18", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.blkdiscard", "7.19", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.discard_bytes", "7.20", "64-bit unsigned int", "counter", "Kbyte", "60.24"},
	{"disk.dm.discard_merge", "7.21", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.discard_rawactive", "7.22", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.flush", "7.23", "64-bit unsigned int", "counter", "count", "60.24"},
	{"disk.dm.flush_rawactive", "7.24", "32-bit unsigned int", "counter", "millisec", "60.24"},
	{"disk.dm.inflight", "7.25", "32-bit unsigned int", "instant", "none", "60.24"},
	{"disk.dm.await", "7.40", "double", "instant", "millisec / count", "60.24"},
	{"disk.dm.r_await", "7.41", "double", "instant", "millisec / count", "60.24"},
	{"disk.dm.w_await", "7.42", "double", "instant", "millisec / count", "60.24"},
	{"disk.dm.d_await", "7.43", "double", "instant", "millisec / count", "60.24"},
	{"disk.dm.f_await", "7.44", "double", "instant", "millisec / count", "60.24"},
	{"disk.dm.avg_qlen", "7.45", "double", "instant", "none", "60.24"},
	{"disk.dm.avg_rqsz", "7.46", "double", "instant", "Kbyte / count", "60.24"},
	{"disk.dm.r_avg_rqsz", "7.47", "double", "instant", "Kbyte / count", "60.24"},
	{"disk.dm.w_avg_rqsz", "7.48", "double", "instant", "Kbyte / count", "60.24"},
	{"disk.dm.d_avg_rqsz", "7.49", "double", "instant", "Kbyte / count", "60.24"},
	{"disk.dm.util", "7.50", "double", "instant", "none", "60.24"},

	// Software RAID arrays: the same items and types as disk.dm (pmdalinux's
	// cluster 59); disk.md.status and capacity are not exported.
	{"disk.md.read", "42.0", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.write", "42.1", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.total", "42.2", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.blkread", "42.3", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.blkwrite", "42.4", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.blktotal", "42.5", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.read_bytes", "42.6", "32-bit unsigned int", "counter", "Kbyte", "60.25"},
	{"disk.md.write_bytes", "42.7", "32-bit unsigned int", "counter", "Kbyte", "60.25"},
	{"disk.md.total_bytes", "42.8", "32-bit unsigned int", "counter", "Kbyte", "60.25"},
	{"disk.md.read_merge", "42.9", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.write_merge", "42.10", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.avactive", "42.11", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.aveq", "42.12", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.read_rawactive", "42.14", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.write_rawactive", "42.15", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.total_rawactive", "42.16", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.discard", "42.18", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.blkdiscard", "42.19", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.discard_bytes", "42.20", "64-bit unsigned int", "counter", "Kbyte", "60.25"},
	{"disk.md.discard_merge", "42.21", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.discard_rawactive", "42.22", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.flush", "42.23", "64-bit unsigned int", "counter", "count", "60.25"},
	{"disk.md.flush_rawactive", "42.24", "32-bit unsigned int", "counter", "millisec", "60.25"},
	{"disk.md.inflight", "42.25", "32-bit unsigned int", "instant", "none", "60.25"},
	{"disk.md.await", "42.40", "double", "instant", "millisec / count", "60.25"},
	{"disk.md.r_await", "42.41", "double", "instant", "millisec / count", "60.25"},
	{"disk.md.w_await", "42.42", "double", "instant", "millisec / count", "60.25"},
	{"disk.md.d_await", "42.43", "double", "instant", "millisec / count", "60.25"},
	{"disk.md.f_await", "42.44", "double", "instant", "millisec / count", "60.25"},
	{"disk.md.avg_qlen", "42.45", "double", "instant", "none", "60.25"},
	{"disk.md.avg_rqsz", "42.46", "double", "instant", "Kbyte / count", "60.25"},
	{"disk.md.r_avg_rqsz", "42.47", "double", "instant", "Kbyte / count", "60.25"},
	{"disk.md.w_avg_rqsz", "42.48", "double", "instant", "Kbyte / count", "60.25"},
	{"disk.md.d_avg_rqsz", "42.49", "double", "instant", "Kbyte / count", "60.25"},
	{"disk.md.util", "42.50", "double", "instant", "none", "60.25"},
	{"disk.md.capacity", "42.17", "64-bit unsigned int", "discrete", "Kbyte", "60.25"},
	{"disk.md.status", "51.0", "32-bit int", "instant", "none", "60.25"},
	{"disk.wwid.scsi_paths", "50.3", "string", "discrete", "none", "60.42"},
	{"disk.wwid.read", "50.4", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.write", "50.5", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.total", "50.28", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.blkread", "50.6", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.blkwrite", "50.7", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.blktotal", "50.36", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.read_bytes", "50.38", "64-bit unsigned int", "counter", "Kbyte", "60.42"},
	{"disk.wwid.write_bytes", "50.39", "64-bit unsigned int", "counter", "Kbyte", "60.42"},
	{"disk.wwid.total_bytes", "50.40", "64-bit unsigned int", "counter", "Kbyte", "60.42"},
	{"disk.wwid.read_merge", "50.49", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.write_merge", "50.50", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.avactive", "50.46", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.read_rawactive", "50.72", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.write_rawactive", "50.73", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.total_rawactive", "50.79", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.aveq", "50.47", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.scheduler", "50.59", "string", "discrete", "none", "60.42"},
	{"disk.wwid.capacity", "50.87", "64-bit unsigned int", "discrete", "Kbyte", "60.42"},
	{"disk.wwid.discard", "50.88", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.blkdiscard", "50.89", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.discard_bytes", "50.90", "64-bit unsigned int", "counter", "Kbyte", "60.42"},
	{"disk.wwid.discard_merge", "50.91", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.discard_rawactive", "50.92", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.flush", "50.93", "64-bit unsigned int", "counter", "count", "60.42"},
	{"disk.wwid.flush_rawactive", "50.94", "32-bit unsigned int", "counter", "millisec", "60.42"},
	{"disk.wwid.inflight", "50.95", "64-bit unsigned int", "instant", "none", "60.42"},
	{"disk.wwid.await", "50.110", "double", "instant", "millisec / count", "60.42"},
	{"disk.wwid.r_await", "50.111", "double", "instant", "millisec / count", "60.42"},
	{"disk.wwid.w_await", "50.112", "double", "instant", "millisec / count", "60.42"},
	{"disk.wwid.d_await", "50.113", "double", "instant", "millisec / count", "60.42"},
	{"disk.wwid.f_await", "50.114", "double", "instant", "millisec / count", "60.42"},
	{"disk.wwid.avg_qlen", "50.115", "double", "instant", "none", "60.42"},
	{"disk.wwid.avg_rqsz", "50.116", "double", "instant", "Kbyte / count", "60.42"},
	{"disk.wwid.r_avg_rqsz", "50.117", "double", "instant", "Kbyte / count", "60.42"},
	{"disk.wwid.w_avg_rqsz", "50.118", "double", "instant", "Kbyte / count", "60.42"},
	{"disk.wwid.d_avg_rqsz", "50.119", "double", "instant", "Kbyte / count", "60.42"},
	{"disk.wwid.util", "50.120", "double", "instant", "none", "60.42"},
}

// Every row writes out its four full names (so a search for one finds its
// declaration); they must be the row's field below each tree, and the
// iostat figures' dev and dm names must agree.
func TestDiskNamesWrittenOut(t *testing.T) {
	for _, f := range diskFields {
		for tr, at := range f.in {
			if want := diskTreePrefixes[tr] + f.name; at.name != want {
				t.Errorf("%s in tree %d is named %s, want %s", f.name, tr, at.name, want)
			}
		}
	}
	for _, fig := range iostatFigures {
		dev, ok1 := strings.CutPrefix(fig.dev, diskTreePrefixes[diskDev])
		dm, ok2 := strings.CutPrefix(fig.dm, diskTreePrefixes[diskDM])
		if !ok1 || !ok2 || dev != dm {
			t.Errorf("iostat figure %s / %s", fig.dev, fig.dm)
		}
	}
}
