package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// treeSize is the shape of a synthetic host.
type treeSize struct{ cpus, disks, ifaces, mounts int }

func (s treeSize) times(f int) treeSize {
	return treeSize{s.cpus * f, s.disks * f, s.ifaces * f, s.mounts * f}
}

func (s treeSize) String() string {
	return fmt.Sprintf("%d CPUs, %d disks, %d interfaces, %d mounts", s.cpus, s.disks, s.ifaces, s.mounts)
}

// generateTree writes a synthetic /proc and /sys for a host of the given
// size under dir (dir/proc, dir/sys, and dir/mnt/N as mount points), in the
// kernel's formats. Files whose size does not scale with the host (meminfo,
// vmstat, snmp) are copied from this machine.
func generateTree(dir string, s treeSize) error {
	w := &treeWriter{root: dir}
	// The agent's own files (configuration, log, instance ids) go in
	// agent/, made now: the tree's root is where device names resolve,
	// and the agent should find it as settled as a host's / (a directory
	// changed within seconds makes it check every mount's links in full).
	w.dir("agent")
	w.file("proc/stat", statFile(s.cpus))
	w.file("proc/loadavg", "0.50 0.40 0.30 2/300 12345\n")
	w.file("proc/uptime", "12345.67 23456.78\n")
	w.file("proc/diskstats", diskstats(s.disks))
	w.file("proc/net/dev", netdev(s.ifaces))
	w.file("proc/interrupts", interruptsFile(s.cpus))
	w.file("proc/softirqs", softirqsFile(s.cpus))
	w.file("proc/net/softnet_stat", softnetFile(s.cpus))
	w.file("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n")
	for _, res := range []string{"cpu", "memory", "io"} {
		w.file("proc/pressure/"+res,
			"some avg10=0.10 avg60=0.20 avg300=0.30 total=12345\n"+
				"full avg10=0.00 avg60=0.00 avg300=0.00 total=678\n")
	}
	for _, f := range []string{"meminfo", "vmstat", "net/snmp", "net/netstat", "net/snmp6", "net/sockstat"} {
		w.copy("/proc/"+f, "proc/"+f)
	}
	// The other small files the collectors read, as this machine has them,
	// so that no collector samples a host without them (failing costs
	// what the floors do not pay, and no real host fails so).
	for _, f := range fixedFiles {
		w.copyIfPresent("/"+f, f)
	}
	mounts, mountinfo := mountList(dir, s.mounts)
	w.file("proc/mounts", mounts)
	w.file("proc/self/mounts", mounts)
	w.file("proc/self/mountinfo", mountinfo)
	for i := 0; i < s.mounts; i++ {
		w.dir(fmt.Sprintf("mnt/%d", i))
	}
	for i := 0; i < s.disks; i++ {
		name := diskName(i)
		w.file("sys/block/"+name+"/queue/rotational", "0\n")
		w.dir("sys/block/" + name + "/" + name + "1")
	}
	for i := 0; i < s.ifaces; i++ {
		base := fmt.Sprintf("sys/class/net/eth%d/", i)
		for f, v := range map[string]string{"mtu": "1500", "speed": "10000", "operstate": "up",
			"flags": "0x1003", "duplex": "full", "type": "1", "carrier": "1"} {
			w.file(base+f, v+"\n")
		}
		w.dir(base + "device")
	}
	return w.err
}

type treeWriter struct {
	root string
	err  error
}

func (w *treeWriter) dir(rel string) {
	if w.err == nil {
		w.err = os.MkdirAll(filepath.Join(w.root, rel), 0o755)
	}
}

func (w *treeWriter) file(rel, content string) {
	w.dir(filepath.Dir(rel))
	if w.err == nil {
		w.err = os.WriteFile(filepath.Join(w.root, rel), []byte(content), 0o644)
	}
}

// fixedFiles are the files, below / here, whose size does not grow with
// the host and that the generator copies when this machine has them.
var fixedFiles = []string{
	"proc/buddyinfo", "proc/zoneinfo", "proc/locks", "proc/net/if_inet6", "proc/net/sockstat6",
	"proc/net/udp", "proc/net/udp6", "proc/net/raw", "proc/net/raw6", "proc/net/unix",
	"proc/sys/fs/aio-max-nr", "proc/sys/fs/aio-nr", "proc/sys/fs/dentry-state", "proc/sys/fs/file-nr",
	"proc/sys/fs/inode-state", "proc/sys/kernel/hostname", "proc/sys/kernel/osrelease",
	"proc/sys/kernel/ostype", "proc/sys/kernel/version", "proc/sys/kernel/pid_max",
	"proc/sys/kernel/pty/nr", "proc/sys/kernel/random/entropy_avail", "proc/sys/kernel/random/poolsize",
	"proc/sysvipc/msg", "proc/sysvipc/sem", "proc/sysvipc/shm",
	"sys/kernel/mm/ksm/full_scans", "sys/kernel/mm/ksm/merge_across_nodes", "sys/kernel/mm/ksm/pages_shared",
	"sys/kernel/mm/ksm/pages_sharing", "sys/kernel/mm/ksm/pages_to_scan", "sys/kernel/mm/ksm/pages_unshared",
	"sys/kernel/mm/ksm/pages_volatile", "sys/kernel/mm/ksm/run", "sys/kernel/mm/ksm/sleep_millisecs",
}

// copyIfPresent copies a file this machine may not have.
func (w *treeWriter) copyIfPresent(from, rel string) {
	if data, err := os.ReadFile(from); err == nil {
		w.file(rel, string(data))
	}
}

func (w *treeWriter) copy(from, rel string) {
	data, err := os.ReadFile(from)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.file(rel, string(data))
}

func statFile(cpus int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cpu  %d %d %d %d %d %d %d 0 0 0\n", 1000*cpus, 10*cpus, 500*cpus, 9000*cpus, 20*cpus, 5*cpus,
		7*cpus)
	for i := 0; i < cpus; i++ {
		fmt.Fprintf(&b, "cpu%d 1000 10 500 9000 20 5 7 0 0 0\n", i)
	}
	b.WriteString("intr 123456 0 0\nctxt 987654\nbtime 1795320000\nprocesses 4242\nprocs_running 3\n" +
		"procs_blocked 0\nsoftirq 5555 0 0 0 0 0 0 0 0 0 0\n")
	return b.String()
}

// diskName gives sda..sdz, sdaa, ... as the kernel names SCSI disks.
// interruptsFile is /proc/interrupts of a host with cpus CPUs: 32
// architecture lines and a device queue interrupt for every 4 CPUs (NICs
// and NVMe drives give each CPU group a vector), a count per CPU each.
func interruptsFile(cpus int) string {
	var b strings.Builder
	for c := 0; c < cpus; c++ {
		fmt.Fprintf(&b, "%11s", fmt.Sprintf("CPU%d", c))
	}
	b.WriteString("\n")
	row := func(label, text string, seed int) {
		fmt.Fprintf(&b, "%4s:", label)
		for c := 0; c < cpus; c++ {
			fmt.Fprintf(&b, " %10d", (seed*7919+c*104729)%1000003)
		}
		b.WriteString(" " + text + "\n")
	}
	for i := 0; i < cpus/4; i++ {
		row(fmt.Sprint(40+i), fmt.Sprintf("IR-PCI-MSIX-0000:3b:00.0 %d-edge eth0-TxRx-%d", i, i), i)
	}
	for i, l := range []string{"NMI", "LOC", "SPU", "PMI", "IWI", "RTR", "RES", "CAL", "TLB", "TRM", "THR", "DFR",
		"MCE", "MCP", "HYP", "HRE", "HVS", "PIN", "NPI", "PIW", "PLT", "RCU", "TMR", "IPI", "DPR", "MLK",
		"UVM", "NMX", "BUS", "GPF", "DBG", "SPR"} {
		row(l, "Architecture interrupts", 1000+i)
	}
	b.WriteString(" ERR:          0\n MIS:          0\n")
	return b.String()
}

// softirqsFile is /proc/softirqs: ten kinds, a count per CPU.
func softirqsFile(cpus int) string {
	var b strings.Builder
	b.WriteString("            ")
	for c := 0; c < cpus; c++ {
		fmt.Fprintf(&b, "%-11s", fmt.Sprintf("CPU%d", c))
	}
	b.WriteString("\n")
	for i, k := range []string{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
		"HRTIMER", "RCU"} {
		fmt.Fprintf(&b, "%12s", k+":")
		for c := 0; c < cpus; c++ {
			fmt.Fprintf(&b, " %10d", (i*7919+c*104729)%1000003)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// softnetFile is /proc/net/softnet_stat: a line per CPU, 15 hex columns.
func softnetFile(cpus int) string {
	var b strings.Builder
	for c := 0; c < cpus; c++ {
		fmt.Fprintf(&b,
			"%08x 00000000 00000001 00000000 00000000 00000000 00000000 "+
				"00000000 00000000 00000000 00000000 00000000 %08x 00000000 00000000\n", c*1000, c)
	}
	return b.String()
}

func diskName(i int) string {
	name := ""
	for i++; i > 0; i = (i - 1) / 26 {
		name = string(rune('a'+(i-1)%26)) + name
	}
	return "sd" + name
}

func diskstats(disks int) string {
	var b strings.Builder
	for i := 0; i < disks; i++ {
		name := diskName(i)
		line := " 100 200 300 400 500 600 700 800 0 900 1000 10 0 20 30 40 50"
		fmt.Fprintf(&b, "%4d %7d %s%s\n", 8, i*16, name, line)
		fmt.Fprintf(&b, "%4d %7d %s1%s\n", 8, i*16+1, name, line)
	}
	return b.String()
}

func netdev(ifaces int) string {
	var b strings.Builder
	b.WriteString("Inter-|   Receive                                                |  Transmit\n")
	b.WriteString(" face |bytes    packets errs drop fifo frame compressed " +
		"multicast|bytes    packets errs drop fifo colls carrier compressed\n")
	for i := 0; i < ifaces; i++ {
		fmt.Fprintf(&b, "%6s: 1000000 1000 0 0 0 0 0 10 2000000 2000 0 0 0 0 0 0\n", fmt.Sprintf("eth%d", i))
	}
	return b.String()
}

func mountList(dir string, mounts int) (string, string) {
	var m, mi strings.Builder
	for i := 0; i < mounts; i++ {
		mnt := filepath.Join(dir, "mnt", fmt.Sprint(i))
		dev := fmt.Sprintf("/dev/%s1", diskName(i))
		fmt.Fprintf(&m, "%s %s ext4 rw,relatime 0 0\n", dev, mnt)
		fmt.Fprintf(&mi, "%d 1 8:%d / %s rw,relatime shared:1 - ext4 %s rw\n", 100+i, i, mnt, dev)
	}
	return m.String(), mi.String()
}

// genTree writes the scale report's host of factor times the base size
// under dir.
func genTree(dir, factor string) error {
	f, err := strconv.Atoi(factor)
	if dir == "" || err != nil || f < 1 {
		return fmt.Errorf("usage: bench gen-tree DIR FACTOR (a whole number from 1)")
	}
	return generateTree(dir, scaleBase.times(f))
}
