package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// statusRows are pmdaproc's cluster 24 numbers, from /proc/PID/status:
// the ids (proc.id.gid is the real gid here; pmdaproc 6.0.3 gives the
// uid), the Vm lines in kB, threads and context switches.
var statusRows = []numRow{
	{statusRow("hostcache.proc.id.uid", 0, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), uid(0)},
	{statusRow("hostcache.proc.id.euid", 1, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), uid(1)},
	{statusRow("hostcache.proc.id.suid", 2, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), uid(2)},
	{statusRow("hostcache.proc.id.fsuid", 3, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), uid(3)},
	{statusRow("hostcache.proc.id.gid", 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), gid(0)},
	{statusRow("hostcache.proc.id.egid", 5, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), gid(1)},
	{statusRow("hostcache.proc.id.sgid", 6, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), gid(2)},
	{statusRow("hostcache.proc.id.fsgid", 7, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone), gid(3)},
	{statusRow("hostcache.proc.memory.vmsize", 20, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmSize)},
	{statusRow("hostcache.proc.memory.vmlock", 21, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmLck)},
	{statusRow("hostcache.proc.memory.vmrss", 22, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmRSS)},
	{statusRow("hostcache.proc.memory.vmdata", 23, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmData)},
	{statusRow("hostcache.proc.memory.vmstack", 24, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmStk)},
	{statusRow("hostcache.proc.memory.vmexe", 25, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmExe)},
	{statusRow("hostcache.proc.memory.vmlib", 26, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmLib)},
	{statusRow("hostcache.proc.memory.vmswap", 27, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmSwap)},
	{statusRow("hostcache.proc.psinfo.threads", 28, cache.TypeU32, cache.SemInstant, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.status.Threads, r.hasStatus }},
	{statusRow("hostcache.proc.psinfo.vctxsw", 29, cache.TypeU32, cache.SemInstant, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.status.VoluntaryCtxt, r.hasStatus }},
	{statusRow("hostcache.proc.psinfo.nvctxsw", 30, cache.TypeU32, cache.SemInstant, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.status.NonvoluntaryCtxt, r.hasStatus }},
	{statusRow("hostcache.proc.psinfo.ngid", 32, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.status.Ngid, r.hasStatus }},
	{statusRow("hostcache.proc.memory.vmpeak", 33, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmPeak)},
	{statusRow("hostcache.proc.memory.vmpin", 34, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmPin)},
	{statusRow("hostcache.proc.memory.vmhwm", 35, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmHWM)},
	{statusRow("hostcache.proc.memory.vmpte", 36, cache.TypeU32, cache.SemInstant, cache.UnitsKByte),
		vm(kernel.VmPTE)},
	{statusRow("hostcache.proc.psinfo.tgid", 41, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.status.Tgid, r.hasStatus }},
	{statusRow("hostcache.proc.memory.vmreal", 43, cache.TypeU64, cache.SemInstant, cache.UnitsKByte),
		func(r *record) (uint64, bool) { return vmKB(r, kernel.VmRSS) + vmKB(r, kernel.VmSwap), r.hasStatus }},
	{statusRow("hostcache.proc.memory.vmnonlib", 44, cache.TypeU64, cache.SemInstant, cache.UnitsKByte),
		vmNonLib},
	// OpenVZ's container id: no value on other kernels, as pmdaproc gives none.
	{statusRow("hostcache.proc.namespaces.envid", 42, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.status.EnvID, r.hasStatus && r.status.HasEnvID() }},
}

// statusStrRows are cluster 24's strings: the users' and groups' names
// and the signal masks and CPU list as the file prints them.
var statusStrRows = []strRow{
	{statusRow("hostcache.proc.id.uid_nm", 8, cache.TypeString, cache.SemDiscrete, cache.UnitsNone), uidName(0)},
	{statusRow("hostcache.proc.id.euid_nm", 9, cache.TypeString, cache.SemDiscrete, cache.UnitsNone), uidName(1)},
	{statusRow("hostcache.proc.id.suid_nm", 10, cache.TypeString, cache.SemDiscrete, cache.UnitsNone), uidName(2)},
	{statusRow("hostcache.proc.id.fsuid_nm", 11, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		uidName(3)},
	{statusRow("hostcache.proc.id.gid_nm", 12, cache.TypeString, cache.SemDiscrete, cache.UnitsNone), gidName(0)},
	{statusRow("hostcache.proc.id.egid_nm", 13, cache.TypeString, cache.SemDiscrete, cache.UnitsNone), gidName(1)},
	{statusRow("hostcache.proc.id.sgid_nm", 14, cache.TypeString, cache.SemDiscrete, cache.UnitsNone), gidName(2)},
	{statusRow("hostcache.proc.id.fsgid_nm", 15, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		gidName(3)},
	{statusRow("hostcache.proc.psinfo.blocked_s", 17, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		mask(maskBlocked)},
	{statusRow("hostcache.proc.psinfo.sigignore_s", 18, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		mask(maskIgnored)},
	{statusRow("hostcache.proc.psinfo.sigcatch_s", 19, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		mask(maskCaught)},
	{statusRow("hostcache.proc.psinfo.cpusallowed", 31, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		func(r *record) (string, bool) { return r.proc.cpus(r.status.CpusAllowedList), r.hasStatus }},
	{statusRow("hostcache.proc.psinfo.signal_s", 16, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		mask(maskPending)},
	{statusRow("hostcache.proc.namespaces.tgid", 37, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		namespace(kernel.NSTgid)},
	{statusRow("hostcache.proc.namespaces.pid", 38, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		namespace(kernel.NSPid)},
	{statusRow("hostcache.proc.namespaces.pgid", 39, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		namespace(kernel.NSPgid)},
	{statusRow("hostcache.proc.namespaces.sid", 40, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		namespace(kernel.NSSid)},
}

// namespace prints an NS line as pmdaproc does, its ids comma-separated
// (outermost namespace first); no value where the kernel prints no line.
func namespace(line int) func(r *record) (string, bool) {
	return func(r *record) (string, bool) {
		raw := r.status.NS[line]
		if !r.hasStatus || raw == nil {
			return "", false
		}
		return r.proc.nsText(line, raw), true
	}
}

// The signal masks of status that psinfo's *_s metrics print.
const (
	maskBlocked = iota
	maskIgnored
	maskPending // the thread's SigPnd line, not ShdPnd
	maskCaught
	masks
)

// mask prints a signal mask as status does, in 16 hexadecimal digits.
func mask(which int) func(r *record) (string, bool) {
	return func(r *record) (string, bool) {
		m := [masks]uint64{r.status.SigBlocked, r.status.SigIgnored, r.status.SigPnd, r.status.SigCaught}[which]
		return r.proc.maskText(which, m), r.hasStatus
	}
}

func statusRow(name string, item uint32, t cache.Type, sem cache.Sem, u cache.Units) cache.Desc {
	return processRow(name, clusterStatus, item, t, sem, u)
}

func uid(i int) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return r.status.UID[i], r.hasStatus }
}

func gid(i int) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return r.status.GID[i], r.hasStatus }
}

// vm reads a Vm line; a kernel thread has none, and gets 0, as pmdaproc
// gives it.
func vm(line int) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return vmKB(r, line), r.hasStatus }
}

func vmKB(r *record, line int) uint64 {
	if !r.status.HasLine(line) {
		return 0
	}
	return r.status.Vm[line]
}

// vmNonLib is the resident and swapped memory not in shared libraries.
func vmNonLib(r *record) (uint64, bool) {
	real, lib := vmKB(r, kernel.VmRSS)+vmKB(r, kernel.VmSwap), vmKB(r, kernel.VmLib)
	if lib > real {
		return 0, r.hasStatus
	}
	return real - lib, r.hasStatus
}

func uidName(i int) func(r *record) (string, bool) {
	return func(r *record) (string, bool) { return r.names.user(uint32(r.status.UID[i])), r.hasStatus }
}

func gidName(i int) func(r *record) (string, bool) {
	return func(r *record) (string, bool) { return r.names.group(uint32(r.status.GID[i])), r.hasStatus }
}
