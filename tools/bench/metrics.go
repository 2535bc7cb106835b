package main

// equivalentSet is the "CPU + memory + load + disk + network" fetch of the
// performance targets, as pmdalinux names it; hostcache serves each under
// "hostcache." with the same descriptor.
var equivalentSet = []string{
	"kernel.all.cpu.user", "kernel.all.cpu.sys", "kernel.all.cpu.idle", "kernel.all.cpu.wait.total",
	"kernel.all.cpu.nice", "kernel.all.cpu.steal", "kernel.all.cpu.intr",
	"kernel.percpu.cpu.user", "kernel.percpu.cpu.sys", "kernel.percpu.cpu.idle",
	"hinv.ncpu", "kernel.all.pswitch", "kernel.all.intr", "kernel.all.running", "kernel.all.blocked",
	"mem.physmem", "mem.util.used", "mem.util.free", "mem.util.cached", "mem.util.bufmem",
	"mem.util.available", "mem.util.slab", "mem.util.dirty", "mem.util.swapFree",
	"kernel.all.load", "kernel.all.nprocs", "kernel.all.runnable",
	"disk.dev.read", "disk.dev.write", "disk.dev.read_bytes", "disk.dev.write_bytes", "disk.dev.avactive",
	"disk.all.read", "disk.all.write", "disk.all.read_bytes", "disk.all.write_bytes",
	"network.interface.in.bytes", "network.interface.out.bytes",
	"network.interface.in.packets", "network.interface.out.packets",
	"network.interface.in.errors", "network.interface.out.errors",
}

func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}
