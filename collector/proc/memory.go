package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
)

// statmRows are pmdaproc's proc.memory metrics from /proc/PID/statm, in
// kB (the file counts pages).
var statmRows = []numRow{
	{statmRow("hostcache.proc.memory.size", 0), pages(func(r *record) uint64 { return r.statm.Size })},
	{statmRow("hostcache.proc.memory.rss", 1), pages(func(r *record) uint64 { return r.statm.Resident })},
	{statmRow("hostcache.proc.memory.share", 2), pages(func(r *record) uint64 { return r.statm.Shared })},
	{statmRow("hostcache.proc.memory.textrss", 3), pages(func(r *record) uint64 { return r.statm.Text })},
	{statmRow("hostcache.proc.memory.librss", 4), pages(func(r *record) uint64 { return r.statm.Lib })},
	{statmRow("hostcache.proc.memory.datrss", 5), pages(func(r *record) uint64 { return r.statm.Data })},
	{statmRow("hostcache.proc.memory.dirty", 6), pages(func(r *record) uint64 { return r.statm.Dirty })},
}

func statmRow(name string, item uint32) cache.Desc {
	return processRow(name, clusterMemory, item, cache.TypeU32, cache.SemInstant, cache.UnitsKByte)
}

func pages(field func(r *record) uint64) func(r *record) (uint64, bool) {
	return func(r *record) (uint64, bool) { return field(r) * r.pageKB, r.hasStatm }
}
