package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// numRow is a per-process number and where it comes from in a record.
type numRow struct {
	desc  cache.Desc
	value func(r *record) (uint64, bool)
}

// strRow is a per-process string and where it comes from.
type strRow struct {
	desc  cache.Desc
	value func(r *record) (string, bool)
}

// known is the access of every per-process metric: pmdaproc answers a
// client without credentials with no per-process value at all.
const known = cache.AccessKnown

// ms converts clock ticks to milliseconds, as pmdaproc does.
func ms(ticks uint64) uint64 { return ticks * 1000 / userHZ }

// userHZ is the kernel's USER_HZ, the unit of /proc's times: 100 on
// every architecture Linux runs on today (sysconf(_SC_CLK_TCK)).
const userHZ = 100

// statRows are pmdaproc's proc.psinfo metrics from /proc/PID/stat, with
// pmdaproc's items. The scheduling fields are read where proc(5) puts
// them (pmdaproc 6.0.3 reads each one field late).
var statRows = []numRow{
	{psinfoRow("hostcache.proc.psinfo.pid", 0, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.pid), true }},
	{psinfoRow("hostcache.proc.psinfo.ppid", 3, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.PPID), true }},
	{psinfoRow("hostcache.proc.psinfo.pgrp", 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.PGrp), true }},
	{psinfoRow("hostcache.proc.psinfo.session", 5, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.Session), true }},
	{psinfoRow("hostcache.proc.psinfo.tty", 6, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.TTY), true }},
	{psinfoRow("hostcache.proc.psinfo.tty_pgrp", 7, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.TPGid), r.stat.TPGid >= 0 }},
	{psinfoRow("hostcache.proc.psinfo.flags", 8, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return r.stat.Flags, true }},
	{psinfoRow("hostcache.proc.psinfo.minflt", 9, cache.TypeU32, cache.SemCounter, cache.UnitsCount),
		func(r *record) (uint64, bool) { return r.stat.MinFlt, true }},
	{psinfoRow("hostcache.proc.psinfo.cmin_flt", 10, cache.TypeU32, cache.SemCounter, cache.UnitsCount),
		func(r *record) (uint64, bool) { return r.stat.CMinFlt, true }},
	{psinfoRow("hostcache.proc.psinfo.maj_flt", 11, cache.TypeU32, cache.SemCounter, cache.UnitsCount),
		func(r *record) (uint64, bool) { return r.stat.MajFlt, true }},
	{psinfoRow("hostcache.proc.psinfo.cmaj_flt", 12, cache.TypeU32, cache.SemCounter, cache.UnitsCount),
		func(r *record) (uint64, bool) { return r.stat.CMajFlt, true }},
	{psinfoRow("hostcache.proc.psinfo.utime", 13, cache.TypeU64, cache.SemCounter, cache.UnitsMSec),
		func(r *record) (uint64, bool) { return ms(r.stat.UTime), true }},
	{psinfoRow("hostcache.proc.psinfo.stime", 14, cache.TypeU64, cache.SemCounter, cache.UnitsMSec),
		func(r *record) (uint64, bool) { return ms(r.stat.STime), true }},
	{psinfoRow("hostcache.proc.psinfo.cutime", 15, cache.TypeU64, cache.SemCounter, cache.UnitsMSec),
		func(r *record) (uint64, bool) { return ms(uint64(r.stat.CUTime)), r.stat.CUTime >= 0 }},
	{psinfoRow("hostcache.proc.psinfo.cstime", 16, cache.TypeU64, cache.SemCounter, cache.UnitsMSec),
		func(r *record) (uint64, bool) { return ms(uint64(r.stat.CSTime)), r.stat.CSTime >= 0 }},
	{psinfoRow("hostcache.proc.psinfo.it_real_value", 20, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.ITRealValue), true }},
	{psinfoRow("hostcache.proc.psinfo.start_time", 21, cache.TypeU64, cache.SemDiscrete, cache.UnitsMSec),
		func(r *record) (uint64, bool) { return ms(r.stat.StartTime), true }},
	{psinfoRow("hostcache.proc.psinfo.vsize", 22, cache.TypeU64, cache.SemInstant, cache.UnitsKByte),
		func(r *record) (uint64, bool) { return r.stat.VSize / 1024, true }},
	{psinfoRow("hostcache.proc.psinfo.rss", 23, cache.TypeU64, cache.SemInstant, cache.UnitsKByte),
		func(r *record) (uint64, bool) { return uint64(max(r.stat.RSS, 0)) * r.pageKB, true }},
	{psinfoRow("hostcache.proc.psinfo.rss_rlim", 24, cache.TypeU64, cache.SemInstant, cache.UnitsKByte),
		func(r *record) (uint64, bool) { return r.stat.RSSLim / 1024, true }},
	// The kernel shows the addresses and wchan to the process's owner
	// alone (others read 0 or 1): so does the twin. pmdaproc's type is
	// u32, so a 64-bit address keeps its low 32 bits.
	{owned(psinfoRow("hostcache.proc.psinfo.start_code", 25, cache.TypeU32, cache.SemDiscrete,
		cache.UnitsNone)), restField(kernel.PidStatStartCode)},
	{owned(psinfoRow("hostcache.proc.psinfo.end_code", 26, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)),
		restField(kernel.PidStatStartCode + 1)},
	{owned(psinfoRow("hostcache.proc.psinfo.start_stack", 27, cache.TypeU32, cache.SemDiscrete,
		cache.UnitsNone)), restField(kernel.PidStatStartCode + 2)},
	{owned(psinfoRow("hostcache.proc.psinfo.esp", 28, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)),
		restField(kernel.PidStatStartCode + 3)},
	{owned(psinfoRow("hostcache.proc.psinfo.eip", 29, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)),
		restField(kernel.PidStatStartCode + 4)},
	{owned(psinfoRow("hostcache.proc.psinfo.wchan", 34, cache.TypeU64, cache.SemDiscrete, cache.UnitsNone)),
		restField(kernel.PidStatWChan)},
	{psinfoRow("hostcache.proc.psinfo.signal", 30, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		restField(5)},
	{psinfoRow("hostcache.proc.psinfo.blocked", 31, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		restField(6)},
	{psinfoRow("hostcache.proc.psinfo.sigignore", 32, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		restField(7)},
	{psinfoRow("hostcache.proc.psinfo.sigcatch", 33, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		restField(8)},
	{psinfoRow("hostcache.proc.psinfo.nswap", 35, cache.TypeU32, cache.SemCounter, cache.UnitsCount),
		restField(10)},
	{psinfoRow("hostcache.proc.psinfo.cnswap", 36, cache.TypeU32, cache.SemCounter, cache.UnitsCount),
		restField(11)},
	{psinfoRow("hostcache.proc.psinfo.exit_signal", 37, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone),
		restField(kernel.PidStatExitSignal)},
	{psinfoRow("hostcache.proc.psinfo.processor", 38, cache.TypeU32, cache.SemInstant, cache.UnitsNone),
		restField(kernel.PidStatProcessor)},
	{psinfoRow("hostcache.proc.psinfo.rt_priority", 42, cache.TypeU32, cache.SemInstant, cache.UnitsNone),
		restField(kernel.PidStatRTPriority)},
	{psinfoRow("hostcache.proc.psinfo.policy", 43, cache.TypeU32, cache.SemInstant, cache.UnitsNone),
		restField(kernel.PidStatPolicy)},
	{psinfoRow("hostcache.proc.psinfo.delayacct_blkio_time", 44, cache.TypeU64, cache.SemCounter,
		cache.UnitsMSec), restTicks(kernel.PidStatBlkioTicks)},
	{psinfoRow("hostcache.proc.psinfo.guest_time", 45, cache.TypeU64, cache.SemCounter, cache.UnitsMSec),
		restTicks(kernel.PidStatGuestTime)},
	{psinfoRow("hostcache.proc.psinfo.cguest_time", 46, cache.TypeU64, cache.SemCounter, cache.UnitsMSec),
		restTicks(kernel.PidStatCGuestTime)},
}

// statSignedRows are the signed numbers of /proc/PID/stat.
var statSignedRows = []numRow{
	{psinfoRow("hostcache.proc.psinfo.priority", 17, cache.TypeI32, cache.SemInstant, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.Priority), true }},
	{psinfoRow("hostcache.proc.psinfo.nice", 18, cache.TypeI32, cache.SemInstant, cache.UnitsNone),
		func(r *record) (uint64, bool) { return uint64(r.stat.Nice), true }},
}

// statStrRows are the strings of cluster psinfo.
var statStrRows = []strRow{
	{psinfoRow("hostcache.proc.psinfo.cmd", 1, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (string, bool) { return r.proc.comm, true }},
	{psinfoRow("hostcache.proc.psinfo.sname", 2, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		func(r *record) (string, bool) { return stateName(r.stat.State), true }},
	{psinfoRow("hostcache.proc.psinfo.psargs", 41, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (string, bool) { return r.proc.psargs, true }},
	{psinfoRow("hostcache.proc.psinfo.ttyname", 39, cache.TypeString, cache.SemDiscrete, cache.UnitsNone),
		func(r *record) (string, bool) { return r.ttys.name(uint64(r.stat.TTY)), true }},
	{psinfoRow("hostcache.proc.psinfo.policy_s", 48, cache.TypeString, cache.SemInstant, cache.UnitsNone),
		func(r *record) (string, bool) { return policyName(restOf(r, kernel.PidStatPolicy)) }},
}

// nprocs counts the processes, as proc.nprocs: every client may read it.
var nprocs = engine.Row{Name: "hostcache.proc.nprocs", Cluster: clusterPsinfo, Item: 99,
	Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()

// processRow declares a per-process metric: in the process instance
// domain, read by the clients pmcd named a user for.
func processRow(name string, cluster, item uint32, t cache.Type, sem cache.Sem, u cache.Units) cache.Desc {
	d := engine.Row{Name: name, Cluster: cluster, Item: item, Type: t, Sem: sem, Units: u,
		InDom: indomProcess}.Desc()
	d.Access = known
	return d
}

// owned marks a per-process metric as the owner's and root's alone: the
// kernel checks a reader as it checks a debugger (ptrace) before it
// shows these values, and pmdaproc reads them as its client.
func owned(d cache.Desc) cache.Desc {
	d.Access = cache.AccessOwner
	return d
}

func psinfoRow(name string, item uint32, t cache.Type, sem cache.Sem, u cache.Units) cache.Desc {
	return processRow(name, clusterPsinfo, item, t, sem, u)
}

// restField reads field 26+i of the stat file, when the kernel printed it.
func restField(i int) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return restOf(r, i), i < r.stat.RestN }
}

// restTicks reads field 26+i as clock ticks, in milliseconds.
func restTicks(i int) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return ms(restOf(r, i)), i < r.stat.RestN }
}

func restOf(r *record, i int) uint64 {
	if i >= r.stat.RestN {
		return 0
	}
	return r.stat.Rest[i]
}

// stateNames holds each state letter as a string, so a sample does not
// make one per process.
var stateNames = func() (names [256]string) {
	for c := range names {
		names[c] = string(rune(c))
	}
	return names
}()

func stateName(c byte) string { return stateNames[c] }

// policyName names a scheduling policy as pmdaproc's policy_s does.
func policyName(policy uint64) (string, bool) {
	switch policy {
	case 0:
		return "NORMAL", true
	case 1:
		return "FIFO", true
	case 2:
		return "RR", true
	case 3:
		return "BATCH", true
	case 5:
		return "IDLE", true
	case 6:
		return "DEADLN", true
	}
	return "?", true
}
