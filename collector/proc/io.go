package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// ioRows are pmdaproc's proc.io counters from /proc/PID/io. The kernel
// shows that file to the process's owner only (its ptrace check), so a
// client gets them for the processes its user owns, and root for all.
var ioRows = []numRow{
	{ioRow("hostcache.proc.io.rchar", 0, cache.UnitsByte), ioField(func(r *record) uint64 { return r.io.RChar })},
	{ioRow("hostcache.proc.io.wchar", 1, cache.UnitsByte), ioField(func(r *record) uint64 { return r.io.WChar })},
	{ioRow("hostcache.proc.io.syscr", 2, cache.UnitsCount), ioField(func(r *record) uint64 { return r.io.SyscR })},
	{ioRow("hostcache.proc.io.syscw", 3, cache.UnitsCount), ioField(func(r *record) uint64 { return r.io.SyscW })},
	{ioRow("hostcache.proc.io.read_bytes", 4, cache.UnitsByte),
		ioField(func(r *record) uint64 { return r.io.ReadBytes })},
	{ioRow("hostcache.proc.io.write_bytes", 5, cache.UnitsByte),
		ioField(func(r *record) uint64 { return r.io.WriteBytes })},
	{ioRow("hostcache.proc.io.cancelled_write_bytes", 6, cache.UnitsByte),
		ioField(func(r *record) uint64 { return r.io.CancelledWriteBytes })},
}

// schedstatRows are pmdaproc's proc.schedstat counters, from
// /proc/PID/schedstat: time on a CPU, time waiting for one, timeslices.
var schedstatRows = []numRow{
	{schedRow("hostcache.proc.schedstat.cpu_time", 0, nsec),
		sched(func(s *kernel.PidSchedstat) uint64 { return s.CPUTime })},
	{schedRow("hostcache.proc.schedstat.run_delay", 1, nsec),
		sched(func(s *kernel.PidSchedstat) uint64 { return s.RunDelay })},
	{schedRow("hostcache.proc.schedstat.pcount", 2, cache.UnitsCount),
		sched(func(s *kernel.PidSchedstat) uint64 { return s.Timeslices })},
}

var nsec = cache.MakeUnits(0, 1, 0, 0, cache.TimeNSec, 0)

func ioRow(name string, item uint32, u cache.Units) cache.Desc {
	return owned(processRow(name, clusterIO, item, cache.TypeU64, cache.SemCounter, u))
}

func ioField(field func(r *record) uint64) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return field(r), r.hasIO }
}

func schedRow(name string, item uint32, u cache.Units) cache.Desc {
	return processRow(name, clusterSchedstat, item, cache.TypeU64, cache.SemCounter, u)
}

func sched(field func(s *kernel.PidSchedstat) uint64) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return field(&r.sched), r.hasSched }
}
