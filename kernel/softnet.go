package kernel

// /proc/net/softnet_stat: one line per online CPU of hexadecimal columns
// (net/core/net-procfs.c): 0 processed, 1 dropped, 2 time_squeeze, 3-7
// zero (once fastroute and cpu_collision's old place), 8 cpu_collision,
// 9 received_rps, 10 flow_limit_count, and since Linux 5.10 11 the
// backlog length and 12 the CPU's number. Before 5.10 a line's CPU is its
// place among the online CPUs, which is its number unless a CPU is offline.
// Later kernels add columns after the CPU's number (6.x: 13 input_qlen,
// 14 process_qlen); they are not read.

// SoftnetCPU is one line's counters.
type SoftnetCPU struct {
	CPU                                   int
	Processed, Dropped, TimeSqueeze       uint64
	CPUCollision, ReceivedRPS, FlowLimits uint64
}

// ParseSoftnet appends each line's counters to out (reused) and returns
// it with how many lines were not read.
func ParseSoftnet(data []byte, out []SoftnetCPU) ([]SoftnetCPU, int) {
	out = out[:0]
	bad := 0
	for i := 0; len(data) > 0; i++ {
		var line []byte
		line, data = nextTextLine(data)
		var f [13][]byte
		n := fieldsOf(line, f[:])
		if n == 0 {
			i--
			continue
		}
		var v [13]uint64
		ok := n >= 11
		for j := 0; ok && j < min(n, len(f)); j++ {
			v[j], ok = parseHex(f[j])
		}
		if !ok {
			bad++
			continue
		}
		cpu := i
		if n >= 13 {
			cpu = int(v[12])
		}
		out = append(out, SoftnetCPU{CPU: cpu, Processed: v[0], Dropped: v[1], TimeSqueeze: v[2],
			CPUCollision: v[8], ReceivedRPS: v[9], FlowLimits: v[10]})
	}
	return out, bad
}
