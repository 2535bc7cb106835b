package collector

// zramDescs is the verified pmdalinux descriptor table of the zram devices
// (see pmdalinux_test.go for the row format), transcribed from `pminfo -d`
// of zram.* against pmdalinux (PCP 6.0.3, kernel 6.18). The diskstats
// metrics keep pmdalinux's items of its cluster 86 (our clusterZram, 55).
// Its io_stat, mm_stat and bd_stat clusters 87, 88 and 89 share our
// clusterZramSys (56): each file's items are pmdalinux's plus 0, 10 or 20.
// The disk collector exports them, so diskDescs includes this table.
var zramDescs = []pmdalinuxDesc{
	{"zram.read", "55.0", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.write", "55.1", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.total", "55.2", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.blkread", "55.3", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.blkwrite", "55.4", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.blktotal", "55.5", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.read_bytes", "55.6", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.write_bytes", "55.7", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.total_bytes", "55.8", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.read_merge", "55.9", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.write_merge", "55.10", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.avactive", "55.11", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.aveq", "55.12", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.read_rawactive", "55.13", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.write_rawactive", "55.14", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.total_rawactive", "55.15", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.capacity", "55.16", "64-bit unsigned int", "discrete", "Kbyte", "60.38"},
	{"zram.discard", "55.17", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.blkdiscard", "55.18", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.discard_bytes", "55.19", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.discard_merge", "55.20", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.discard_rawactive", "55.21", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.flush", "55.22", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.flush_rawactive", "55.23", "32-bit unsigned int", "counter", "millisec", "60.38"},
	{"zram.inflight", "55.24", "32-bit unsigned int", "instant", "none", "60.38"},
	{"zram.io_stat.invalid", "56.2", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.io_stat.notify_free", "56.3", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.io_stat.failed.reads", "56.0", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.io_stat.failed.writes", "56.1", "64-bit unsigned int", "counter", "count", "60.38"},
	{"zram.mm_stat.data_size.original", "56.10", "64-bit unsigned int", "instant", "Kbyte", "60.38"},
	{"zram.mm_stat.data_size.compressed", "56.11", "64-bit unsigned int", "instant", "Kbyte", "60.38"},
	{"zram.mm_stat.mem.used_total", "56.12", "64-bit unsigned int", "instant", "Kbyte", "60.38"},
	{"zram.mm_stat.mem.limit", "56.13", "64-bit unsigned int", "instant", "Kbyte", "60.38"},
	{"zram.mm_stat.mem.max_used", "56.14", "64-bit unsigned int", "instant", "Kbyte", "60.38"},
	{"zram.mm_stat.pages.same", "56.15", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.mm_stat.pages.compacted", "56.16", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.mm_stat.pages.huge", "56.17", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.bd_stat.count", "56.20", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.bd_stat.reads", "56.21", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
	{"zram.bd_stat.writes", "56.22", "64-bit unsigned int", "counter", "Kbyte", "60.38"},
}
