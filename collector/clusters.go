package collector

import "github.com/pmdahostcache/pmdahostcache/cache"

// Cluster numbers are part of every PMID and therefore an ABI: never renumber
// one, and keep retired numbers listed here so they are not reused. The
// network collectors' are in collector/network/ids.go (8, 9, 19, 20,
// 23-27, 37, 44, 46, 52-54), the MMV files' in collector/mmvfiles/ids.go;
// the registry's schema (TestDescriptorsMatchPmdalinux) fails on a number
// two packages take.
const (
	// 0 is the engine's: hostcache.control.* (engine.ClusterControl).
	clusterStat    = 1  // /proc/stat: CPU time and kernel activity
	clusterMeminfo = 2  // /proc/meminfo
	clusterLoadavg = 3  // /proc/loadavg
	clusterUptime  = 4  // /proc/uptime
	clusterDisk    = 5  // /proc/diskstats: disk.dev.*, disk.all.*, iostat figures
	clusterPart    = 6  // /proc/diskstats: disk.partitions.*
	clusterDM      = 7  // /proc/diskstats + /sys/block/dm-*: disk.dm.*
	clusterFilesys = 10 // /proc/mounts + statfs: filesys.*
	clusterPSI     = 11 // /proc/pressure/*: kernel.all.pressure.*
	clusterVmstat  = 12 // /proc/vmstat: mem.vmstat.*
	clusterSwap    = 13 // /proc/vmstat, /proc/meminfo: swap.*
	clusterSwapdev = 14 // /proc/swaps: swapdev.*
	clusterSysctl  = 15 // /proc/sys/kernel: kernel.all.entropy.*, pid_max, nptys
	clusterVFS     = 16 // /proc/sys/fs: vfs.files, inodes, dentry, aio
	clusterLocks   = 17 // /proc/locks: vfs.locks.*
	clusterUname   = 18 // /proc/sys/kernel, uname(2), /etc: kernel.uname.*, hinv.machine
	clusterCPUInfo = 21 // /proc/cpuinfo: hinv.cpu.*
	// The socket tables of /proc/net, one cluster per pmdalinux cluster so
	// that the items can be pmdalinux's.
	// 22 is retired: an unreleased network.tcpconn.*; the metrics are
	// clusterTCPConn's now.
	clusterIPCMsg = 28 // /proc/sysvipc/msg: ipc.msg.*
	clusterIPCSem = 29 // /proc/sysvipc/sem: ipc.sem.*
	clusterIPCShm = 30 // /proc/sysvipc/shm: ipc.shm.*
	clusterLogin  = 31 // utmp: kernel.all.nusers, nroots, nsessions
	clusterCPUSys = 32 // /sys/devices/system/cpu: hinv.cpu.online, thermal_throttle, hinv.map.cpu_num
	// /proc/interrupts and /proc/softirqs, as pmdalinux's clusters 4, 63, 82.
	clusterInterrupts   = 33 // kernel.all.interrupts.*, kernel.percpu.interrupts, intr
	clusterSoftirqs     = 34 // kernel.percpu.softirqs, sirq
	clusterSoftirqTotal = 35 // kernel.all.softirqs.total
	clusterNUMA         = 36 // /sys/devices/system/node: mem.numa.*, pmdalinux's 36
	clusterKSM          = 38 // /sys/kernel/mm/ksm: mem.ksm.*, pmdalinux's 69
	clusterBuddy        = 39 // /proc/buddyinfo: mem.buddyinfo.*, pmdalinux's 67
	clusterZoneinfo     = 40 // /proc/zoneinfo: mem.zoneinfo.*, pmdalinux's 68
	clusterZoneProt     = 41 // /proc/zoneinfo: mem.zoneinfo.protection, pmdalinux's 70
	clusterMD           = 42 // /proc/diskstats: disk.md.*, pmdalinux's 59
	clusterCPUFreq      = 43 // /sys/devices/system/cpu/cpu*/cpufreq: frequency_scaling.*, pmdalinux's 55 items 6-9
	// 45 is retired: reserved for the NFS server, which shares 44 as
	// pmdalinux's client and server share its cluster 7.
	clusterIPCSemLim = 47 // semctl(IPC_INFO): ipc.sem limits, pmdalinux's 21
	clusterIPCMsgLim = 48 // msgctl(IPC_INFO): ipc.msg limits, pmdalinux's 22
	clusterIPCShmLim = 49 // shmctl(IPC_INFO): ipc.shm limits, pmdalinux's 23
	clusterWWID      = 50 // /proc/diskstats by /sys/block/*/device/wwid: disk.wwid.*, pmdalinux's 92
	clusterMDStatus  = 51 // /sys/block/md*/md: disk.md.status, pmdalinux's 60
	clusterZram      = 55 // /proc/diskstats rows of zram devices: zram.*
	clusterZramSys   = 56 // /sys/block/zram*/{io,mm,bd}_stat: zram.io_stat, mm_stat, bd_stat
	clusterSlab      = 57 // /proc/slabinfo: mem.slabinfo.*
	clusterTmpfs     = 58 // /proc/mounts tmpfs + statfs: tmpfs.*
	clusterTTY       = 59 // /proc/tty/driver/serial: tty.serial.*
	clusterFCHost    = 60 // /sys/class/fc_host: fchost.*, hinv.nfchost
	clusterTape      = 61 // /sys/class/scsi_tape: tape.dev.*, hinv.ntape
	clusterAgent     = 62 // the agent and sysfs: pmda.uname, pmda.version, sysfs.kernel.*, hinv.map.*
	clusterSCSI      = 63 // /sys/bus/scsi/devices: hinv.map.scsi, pmdalinux's 15
	clusterExtfrag   = 64 // debugfs extfrag/unusable_index: sysfs.kernel.debug.extfrag_unusable, pmdalinux's 35
	// 65 and 768-1023 are the MMV files' (collector/mmvfiles, ids.go).
)

// Instance domain serials, an ABI like the clusters. The network
// collectors' are in collector/network/ids.go (6, 19, 21, 26-30).
const (
	// 0 is the engine's: one instance per collector (engine.InDomCollectors).
	indomCPU        cache.InDomID = 1 // per-CPU, "cpuN" with id N as pmdalinux
	indomLoadavg    cache.InDomID = 2 // "1 minute", "5 minute", "15 minute"
	indomDisk       cache.InDomID = 3 // whole disks, pmdalinux's 60.1
	indomPartitions cache.InDomID = 4 // partitions, 60.10
	indomDM         cache.InDomID = 5 // device-mapper devices by mapped name, 60.24
	indomFilesys    cache.InDomID = 7 // mounted filesystems by device, 60.5
	indomSwapdev    cache.InDomID = 8 // swap devices, 60.6
	indomPressure   cache.InDomID = 9 // PSI averaging windows, 60.37
	// The CPUs again, as /proc/cpuinfo lists them ("cpuN", id N, as
	// pmdalinux's 60.0): a collector owns its instance domains, and
	// hinv.cpu.* is read far less often than the CPU times.
	indomCPUInfo cache.InDomID = 10
	indomNode    cache.InDomID = 11 // NUMA nodes, "nodeN" with id N, pmdalinux's 60.19
	// The CPUs sysfs lists as present, "cpuN" with id N as pmdalinux's 60.0.
	indomCPUSys cache.InDomID = 12
	// Interrupt sources by label ("24", "LOC", "NMI"), pmdalinux's 60.4,
	// and per source and CPU ("LOC::cpu0"), 60.40; soft interrupts by
	// name ("TIMER"), 60.36, and per CPU ("TIMER::cpu0"), 60.41; the CPUs
	// of both tables, "cpuN" with id N as 60.0.
	indomIRQ        cache.InDomID = 13
	indomIRQCPU     cache.InDomID = 14
	indomSoftirq    cache.InDomID = 15
	indomSoftirqCPU cache.InDomID = 16
	indomIRQCPUs    cache.InDomID = 17
	indomNUMA       cache.InDomID = 18 // the online NUMA nodes, "nodeN", id N, as 60.19
	indomBuddy      cache.InDomID = 20 // zone, order, node: "Normal::order3::node0", 60.31
	indomZone       cache.InDomID = 22 // populated zones "Normal::node0" and nodes "node0", 60.32
	indomZoneProt   cache.InDomID = 23 // "Normal::node0::lowmem_reserved2", 60.33
	indomMD         cache.InDomID = 24 // software RAID arrays by /dev/md name or kernel name, 60.25
	// 25 is retired: reserved for cpufreq's CPUs, which use indomCPUSys.
	indomWWID    cache.InDomID = 31 // disks by world-wide id ("3600508b..."), as 60.42
	indomZram    cache.InDomID = 32 // zram devices, "zram0", as 60.38
	indomSlab    cache.InDomID = 33 // slab caches by name, as 60.12
	indomTmpfs   cache.InDomID = 34 // tmpfs mounts by mount point, as 60.18
	indomTTY     cache.InDomID = 35 // serial ports, as 60.35
	indomFCHost  cache.InDomID = 36 // fibre channel hosts, as 60.39
	indomTape    cache.InDomID = 37 // tape devices, as 60.34
	indomIPCShm  cache.InDomID = 38 // shared memory segments by shmid, as 60.28
	indomIPCMsg  cache.InDomID = 39 // message queues by msqid, as 60.29
	indomIPCSem  cache.InDomID = 40 // semaphore sets by semid, as 60.30
	indomSCSI    cache.InDomID = 41 // SCSI devices "scsi0:0:0:0_Direct", as 60.11
	indomExtfrag cache.InDomID = 42 // NUMA nodes of debugfs's extfrag index, "nodeN", id N, as 60.19
	// 4096 on are the MMV files' (collector/mmvfiles, ids.go).
)
