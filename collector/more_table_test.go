package collector

// moreDescs are pmdalinux's descriptors of the vfs, entropy and further
// meminfo metrics
// (pminfo -d, PCP 6.0.3), with our PMIDs.
var moreDescs = []pmdalinuxDesc{
	{"kernel.all.entropy.avail", "15.0", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.entropy.poolsize", "15.1", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.pid_max", "15.2", "32-bit unsigned int", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.all.nptys", "15.3", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.files.count", "16.0", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.files.free", "16.1", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.files.max", "16.2", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.inodes.count", "16.3", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.inodes.free", "16.4", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.dentry.count", "16.5", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.dentry.free", "16.6", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.aio.count", "16.7", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.aio.max", "16.8", "32-bit int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.posix.read", "17.0", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.posix.write", "17.1", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.posix.count", "17.2", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.flock.read", "17.3", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.flock.write", "17.4", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.flock.count", "17.5", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.lease.read", "17.6", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.lease.write", "17.7", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"vfs.locks.lease.count", "17.8", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},

	// pmdalinux's other names for meminfo's figures.
	{"hinv.physmem", "2.9", "32-bit unsigned int", "discrete", "Mbyte", "PM_INDOM_NULL"},
	{"mem.freemem", "2.10", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"hinv.pagesize", "2.11", "32-bit unsigned int", "discrete", "byte", "PM_INDOM_NULL"},
	{"hinv.hugepagesize", "2.59", "32-bit unsigned int", "discrete", "byte", "PM_INDOM_NULL"},

	// The system's names.
	{"kernel.uname.release", "18.0", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.uname.version", "18.1", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.uname.sysname", "18.2", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.uname.machine", "18.3", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.uname.nodename", "18.4", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.uname.distro", "18.7", "string", "discrete", "none", "PM_INDOM_NULL"},
	{"hinv.machine", "18.8", "string", "discrete", "none", "PM_INDOM_NULL"},

	// Socket counts.
	{"network.sockstat.total", "19.9", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.tcp.inuse", "19.0", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.tcp.orphan", "19.10", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.tcp.tw", "19.11", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.tcp.alloc", "19.12", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.tcp.mem", "19.13", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.udp.inuse", "19.3", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.udp.mem", "19.14", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.udplite.inuse", "19.8", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.raw.inuse", "19.6", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.frag.inuse", "19.15", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.frag.memory", "19.16", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.tcp6.inuse", "20.0", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.udp6.inuse", "20.1", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.udplite6.inuse", "20.2", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.raw6.inuse", "20.3", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.frag6.inuse", "20.4", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
	{"network.sockstat.frag6.memory", "20.5", "32-bit int", "instant", "count", "PM_INDOM_NULL"},
}
