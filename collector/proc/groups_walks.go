package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// smapsGroup is pmdaproc's proc.smaps, from /proc/PID/smaps_rollup: the
// kernel walks every mapping of the process to make the file, the
// costliest per-process read. The kernel shows it to the process's owner
// alone; a kernel thread's is empty, and has no value.
type smapsGroup struct {
	smaps kernel.PidSmaps
	buf   []byte
}

// smapsRows are the rollup's lines in pmdaproc's item order, in kB.
var smapsRows = [kernel.SmapsFields]cache.Desc{
	smapsRow("hostcache.proc.smaps.rss", kernel.SmapsRss),
	smapsRow("hostcache.proc.smaps.pss", kernel.SmapsPss),
	smapsRow("hostcache.proc.smaps.pss_anon", kernel.SmapsPssAnon),
	smapsRow("hostcache.proc.smaps.pss_file", kernel.SmapsPssFile),
	smapsRow("hostcache.proc.smaps.pss_shmem", kernel.SmapsPssShmem),
	smapsRow("hostcache.proc.smaps.shared_clean", kernel.SmapsSharedClean),
	smapsRow("hostcache.proc.smaps.shared_dirty", kernel.SmapsSharedDirty),
	smapsRow("hostcache.proc.smaps.private_clean", kernel.SmapsPrivateClean),
	smapsRow("hostcache.proc.smaps.private_dirty", kernel.SmapsPrivateDirty),
	smapsRow("hostcache.proc.smaps.referenced", kernel.SmapsReferenced),
	smapsRow("hostcache.proc.smaps.anonymous", kernel.SmapsAnonymous),
	smapsRow("hostcache.proc.smaps.lazyfree", kernel.SmapsLazyFree),
	smapsRow("hostcache.proc.smaps.anonhugepages", kernel.SmapsAnonHugePages),
	smapsRow("hostcache.proc.smaps.shmempmdmapped", kernel.SmapsShmemPmdMapped),
	smapsRow("hostcache.proc.smaps.filepmdmapped", kernel.SmapsFilePmdMapped),
	smapsRow("hostcache.proc.smaps.shared_hugetlb", kernel.SmapsSharedHugetlb),
	smapsRow("hostcache.proc.smaps.private_hugetlb", kernel.SmapsPrivateHugetlb),
	smapsRow("hostcache.proc.smaps.swap", kernel.SmapsSwap),
	smapsRow("hostcache.proc.smaps.swappss", kernel.SmapsSwapPss),
	smapsRow("hostcache.proc.smaps.locked", kernel.SmapsLocked),
}

func smapsRow(name string, item uint32) cache.Desc {
	return owned(processRow(name, clusterSmaps, item, cache.TypeU64, cache.SemInstant, cache.UnitsKByte))
}

func (g *smapsGroup) metrics() []cache.Desc { return smapsRows[:] }

func (g *smapsGroup) sample(rd *reader, pids []int32, b *cache.Builder) {
	var slots [kernel.SmapsFields]cache.Slot
	for i := range smapsRows {
		slots[i] = b.U64Slot(smapsRows[i].ID)
	}
	for _, pid := range pids {
		var err error
		if g.buf, err = rd.file(pid, "smaps_rollup", g.buf); err != nil {
			continue
		}
		if kernel.ParsePidSmapsRollup(g.buf, &g.smaps) != nil {
			continue
		}
		for i, kb := range g.smaps.KB {
			b.SetSlot(slots[i], uint32(pid), kb)
		}
	}
}

// fdGroup is pmdaproc's proc.fd.count: the entries of /proc/PID/fd, a
// directory the kernel lets the process's owner alone list.
type fdGroup struct {
	buf []byte
}

var fdCount = owned(processRow("hostcache.proc.fd.count", clusterFD, 0, cache.TypeU32, cache.SemInstant,
	cache.UnitsCount))

func (g *fdGroup) metrics() []cache.Desc { return []cache.Desc{fdCount} }

func (g *fdGroup) sample(rd *reader, pids []int32, b *cache.Builder) {
	slot := b.U64Slot(fdCount.ID)
	for _, pid := range pids {
		var n int
		var err error
		if n, g.buf, err = kernel.CountDirEntries(rd.pathOf(pid, "fd"), g.buf); err == nil {
			b.SetSlot(slot, uint32(pid), uint64(n))
		}
	}
}
