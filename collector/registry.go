package collector

import (
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector/mmvfiles"
	"github.com/pmdahostcache/pmdahostcache/collector/proc"

	"github.com/pmdahostcache/pmdahostcache/collector/network"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Registry lists every collector in a fixed order: the order of their
// instances in hostcache.control metrics and of their logs.
func Registry() []engine.Registration {
	return slices.Concat(hostRegistry(), mmvfiles.Registry(), proc.Registry())
}

// hostRegistry lists the host's collectors, pmdalinux's twins.
func hostRegistry() []engine.Registration {
	return []engine.Registration{
		{Name: "cpu", Factory: NewCPUCollector},
		{Name: "memory", Factory: NewMemoryCollector},
		{Name: "load", Factory: NewLoadCollector},
		{Name: "uptime", Factory: NewUptimeCollector},
		{Name: "disk", Factory: NewDiskCollector},
		{Name: "network", Factory: network.NewNetworkCollector},
		// Secondary sources: protocol, VM and pressure counters change the
		// picture over seconds, and statfs can be slow, so they sample less often.
		{Name: "netproto", Factory: network.NewNetProtoCollector, Interval: 5 * time.Second},
		{Name: "filesys", Factory: NewFilesysCollector, Interval: 10 * time.Second},
		{Name: "pressure", Factory: NewPressureCollector, Interval: 5 * time.Second},
		{Name: "vmstat", Factory: NewVMStatCollector, Interval: 5 * time.Second},
		{Name: "swap", Factory: NewSwapCollector, Interval: 5 * time.Second},
		{Name: "numa", Factory: NewNUMACollector, Interval: 5 * time.Second},
		// Tables that move slowly and that alarms, not rates, are made of.
		{Name: "sysctl", Factory: NewSysctlCollector, Interval: 5 * time.Second},
		{Name: "vfs", Factory: NewVFSCollector, Interval: 5 * time.Second},
		{Name: "sockstat", Factory: network.NewSockstatCollector, Interval: 5 * time.Second},
		// Tables as long as the sockets, IPC objects and logins a host
		// has, and the CPUs' sysfs state: counts that alarms read.
		{Name: "netconn", Factory: network.NewNetConnCollector, Interval: 10 * time.Second},
		// TCP sockets by state: a table as long as the host's connections,
		// in a collector of its own so its cap and failures are its own.
		{Name: "tcpconn", Factory: network.NewTCPConnCollector, Interval: 10 * time.Second},
		{Name: "ipc", Factory: NewIPCCollector, Interval: 10 * time.Second},
		{Name: "login", Factory: NewLoginCollector, Interval: 10 * time.Second},
		{Name: "cpusys", Factory: NewCPUSysCollector, Interval: 10 * time.Second},
		// Sources x CPUs counts: as secondary as the protocol counters.
		{Name: "interrupts", Factory: NewInterruptsCollector, Interval: 5 * time.Second},
		{Name: "softnet", Factory: network.NewSoftnetCollector, Interval: 5 * time.Second},
		{Name: "ksm", Factory: NewKSMCollector, Interval: 10 * time.Second},
		// Addresses: changed by DHCP or an administrator, read as often as
		// the socket tables.
		{Name: "netaddr", Factory: network.NewNetAddrCollector, Interval: 10 * time.Second},
		// NFS and RPC call counts: as secondary as the protocol counters.
		{Name: "nfs", Factory: network.NewNFSCollector, Interval: 5 * time.Second},
		{Name: "buddyinfo", Factory: NewBuddyinfoCollector, Interval: 10 * time.Second},
		{Name: "zoneinfo", Factory: NewZoneinfoCollector, Interval: 10 * time.Second},
		// The same free lists as buddyinfo and zoneinfo, as debugfs's
		// fragmentation index.
		{Name: "extfrag", Factory: NewExtfragCollector, Interval: 10 * time.Second},
		{Name: "slabinfo", Factory: NewSlabinfoCollector, Interval: 10 * time.Second},
		{Name: "tty", Factory: NewTTYCollector, Interval: 10 * time.Second},
		// Names that change only with a new kernel or host name.
		{Name: "uname", Factory: NewUnameCollector, Interval: 60 * time.Second},
		{Name: "cpuinfo", Factory: NewCPUInfoCollector, Interval: 60 * time.Second},
		// SCSI devices come and go rarely.
		{Name: "scsi", Factory: NewSCSICollector, Interval: 60 * time.Second},
		// Tunables an administrator sets with sysctl.
		{Name: "ipclimits", Factory: NewIPCLimitsCollector, Interval: 60 * time.Second},
		// Hardware lists and device-event counts, moving as slowly as the
		// CPUs' sysfs state; the agent's own strings, as uname's.
		{Name: "fchost", Factory: NewFCHostCollector, Interval: 10 * time.Second},
		{Name: "tape", Factory: NewTapeCollector, Interval: 10 * time.Second},
		{Name: "sysfs", Factory: NewSysfsCollector, Interval: 10 * time.Second},
		{Name: "agent", Factory: NewAgentCollector, Interval: 60 * time.Second},
	}
}

// FilterKeys lists the instance domains an administrator may filter with
// instances.<name>.include and .exclude: those whose collectors consult
// engine.Filter (disk.go, network.go, network_all.go, filesys.go,
// swap_devices.go). The configuration is checked against it.
func FilterKeys() []string {
	return []string{"disk", "partitions", "dm", "md", "interface", network.AllFilterKey, "filesys", "swapdev"}
}

// DynamicRoots are the namespace nodes whose names change while the agent
// runs: the MMV files' (mmvfiles.DynamicRoots).
func DynamicRoots() []string { return mmvfiles.DynamicRoots() }
