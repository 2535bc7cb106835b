package collector

import (
	"fmt"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The System V IPC limits, from semctl, msgctl and shmctl (IPC_INFO), with
// pmdalinux's items of its clusters 21 (sem), 22 (msg) and 23 (shm), and
// the shared-memory swap counts of SHM_INFO (its 56.4 and 56.5, which our
// cluster 30 mirrors). pmdalinux's types are 32 bits: the 64-bit shm
// limits are published truncated, as it publishes them.
var (
	ipcSemMaxSemmap  = engine.Metric("hostcache.ipc.sem.max_semmap", clusterIPCSemLim, 0, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxSemid   = engine.Metric("hostcache.ipc.sem.max_semid", clusterIPCSemLim, 1, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxSem     = engine.Metric("hostcache.ipc.sem.max_sem", clusterIPCSemLim, 2, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemNumUndo    = engine.Metric("hostcache.ipc.sem.num_undo", clusterIPCSemLim, 3, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxPerid   = engine.Metric("hostcache.ipc.sem.max_perid", clusterIPCSemLim, 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxOps     = engine.Metric("hostcache.ipc.sem.max_ops", clusterIPCSemLim, 5, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxUndoent = engine.Metric("hostcache.ipc.sem.max_undoent", clusterIPCSemLim, 6, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemSzSemundo  = engine.Metric("hostcache.ipc.sem.sz_semundo", clusterIPCSemLim, 7, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxSemval  = engine.Metric("hostcache.ipc.sem.max_semval", clusterIPCSemLim, 8, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcSemMaxExit    = engine.Metric("hostcache.ipc.sem.max_exit", clusterIPCSemLim, 9, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)

	ipcMsgSzPool     = engine.Metric("hostcache.ipc.msg.sz_pool", clusterIPCMsgLim, 0, cache.TypeU32, cache.SemDiscrete, cache.UnitsKByte, cache.InDomNone)
	ipcMsgMapent     = engine.Metric("hostcache.ipc.msg.mapent", clusterIPCMsgLim, 1, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcMsgMaxMsgsz   = engine.Metric("hostcache.ipc.msg.max_msgsz", clusterIPCMsgLim, 2, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcMsgMaxDefmsgq = engine.Metric("hostcache.ipc.msg.max_defmsgq", clusterIPCMsgLim, 3, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcMsgMaxMsgqid  = engine.Metric("hostcache.ipc.msg.max_msgqid", clusterIPCMsgLim, 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcMsgMaxMsgseg  = engine.Metric("hostcache.ipc.msg.max_msgseg", clusterIPCMsgLim, 5, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcMsgNumSmsghdr = engine.Metric("hostcache.ipc.msg.num_smsghdr", clusterIPCMsgLim, 6, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcMsgMaxSeg     = engine.Metric("hostcache.ipc.msg.max_seg", clusterIPCMsgLim, 7, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)

	ipcShmMaxSegsz   = engine.Metric("hostcache.ipc.shm.max_segsz", clusterIPCShmLim, 0, cache.TypeU32, cache.SemDiscrete, cache.UnitsByte, cache.InDomNone)
	ipcShmMinSegsz   = engine.Metric("hostcache.ipc.shm.min_segsz", clusterIPCShmLim, 1, cache.TypeU32, cache.SemDiscrete, cache.UnitsByte, cache.InDomNone)
	ipcShmMaxSeg     = engine.Metric("hostcache.ipc.shm.max_seg", clusterIPCShmLim, 2, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcShmMaxSegproc = engine.Metric("hostcache.ipc.shm.max_segproc", clusterIPCShmLim, 3, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	ipcShmMaxShmsys  = engine.Metric("hostcache.ipc.shm.max_shmsys", clusterIPCShmLim, 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)

	ipcShmSwapAttempts  = engine.Metric("hostcache.ipc.shm.swap_attempts", clusterIPCShm, 4, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	ipcShmSwapSuccesses = engine.Metric("hostcache.ipc.shm.swap_successes", clusterIPCShm, 5, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
)

// ipcLimitsCollector asks the kernel for the limits through read, which
// tests replace.
type ipcLimitsCollector struct {
	read func() kernel.IPCLimits
}

// NewIPCLimitsCollector asks the agent's own IPC namespace: /proc and /sys
// play no part.
func NewIPCLimitsCollector(engine.Env) (engine.Collector, error) {
	return &ipcLimitsCollector{read: kernel.ReadIPCLimits}, nil
}

func (c *ipcLimitsCollector) Name() string { return "ipclimits" }

func (c *ipcLimitsCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{
		ipcSemMaxSemmap, ipcSemMaxSemid, ipcSemMaxSem, ipcSemNumUndo, ipcSemMaxPerid, ipcSemMaxOps,
		ipcSemMaxUndoent, ipcSemSzSemundo, ipcSemMaxSemval, ipcSemMaxExit,
		ipcMsgSzPool, ipcMsgMapent, ipcMsgMaxMsgsz, ipcMsgMaxDefmsgq, ipcMsgMaxMsgqid, ipcMsgMaxMsgseg,
		ipcMsgNumSmsghdr, ipcMsgMaxSeg,
		ipcShmMaxSegsz, ipcShmMinSegsz, ipcShmMaxSeg, ipcShmMaxSegproc, ipcShmMaxShmsys,
		ipcShmSwapAttempts, ipcShmSwapSuccesses,
	}}
}

// Sample publishes what the calls answered. A kind of IPC the kernel
// lacks leaves only its own limits without values.
func (c *ipcLimitsCollector) Sample(b *cache.Builder, _ time.Time) error {
	l := c.read()
	var errs []error
	for _, k := range []struct {
		call string
		err  error
	}{{"semctl", l.SemErr}, {"msgctl", l.MsgErr}, {"shmctl", l.ShmErr}} {
		if k.err != nil {
			errs = append(errs, fmt.Errorf("%s(IPC_INFO): %w", k.call, k.err))
		}
	}
	if l.SemErr == nil {
		s := l.Sem
		for _, v := range []struct {
			d cache.Desc
			n int32
		}{{ipcSemMaxSemmap, s.Map}, {ipcSemMaxSemid, s.Mni}, {ipcSemMaxSem, s.Mns}, {ipcSemNumUndo, s.Mnu},
			{ipcSemMaxPerid, s.Msl}, {ipcSemMaxOps, s.Opm}, {ipcSemMaxUndoent, s.Ume}, {ipcSemSzSemundo, s.Usz},
			{ipcSemMaxSemval, s.Vmx}, {ipcSemMaxExit, s.Aem}} {
			b.SetU64(v.d.ID, cache.InstNone, uint64(uint32(v.n)))
		}
	}
	if l.MsgErr == nil {
		m := l.Msg
		for _, v := range []struct {
			d cache.Desc
			n int32
		}{{ipcMsgSzPool, m.Pool}, {ipcMsgMapent, m.Map}, {ipcMsgMaxMsgsz, m.Max}, {ipcMsgMaxDefmsgq, m.Mnb},
			{ipcMsgMaxMsgqid, m.Mni}, {ipcMsgMaxMsgseg, m.Ssz}, {ipcMsgNumSmsghdr, m.Tql}, {ipcMsgMaxSeg, int32(m.Seg)}} {
			b.SetU64(v.d.ID, cache.InstNone, uint64(uint32(v.n)))
		}
	}
	if l.ShmErr == nil {
		// 32-bit metrics, as pmdalinux's: SetU64 keeps the low 32 bits.
		for _, v := range []struct {
			d cache.Desc
			n uint64
		}{{ipcShmMaxSegsz, l.Shm.Max}, {ipcShmMinSegsz, l.Shm.Min}, {ipcShmMaxSeg, l.Shm.Mni},
			{ipcShmMaxSegproc, l.Shm.Seg}, {ipcShmMaxShmsys, l.Shm.All}} {
			b.SetU64(v.d.ID, cache.InstNone, v.n)
		}
		b.SetU64(ipcShmSwapAttempts.ID, cache.InstNone, l.SwapAttempts)
		b.SetU64(ipcShmSwapSuccesses.ID, cache.InstNone, l.SwapSuccesses)
	}
	return engine.PartialOf(errs, 3)
}
