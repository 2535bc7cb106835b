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
	ipcSemMaxSemmap = engine.Row{Name: "hostcache.ipc.sem.max_semmap", Cluster: clusterIPCSemLim, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxSemid = engine.Row{Name: "hostcache.ipc.sem.max_semid", Cluster: clusterIPCSemLim, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxSem = engine.Row{Name: "hostcache.ipc.sem.max_sem", Cluster: clusterIPCSemLim, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemNumUndo = engine.Row{Name: "hostcache.ipc.sem.num_undo", Cluster: clusterIPCSemLim, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxPerid = engine.Row{Name: "hostcache.ipc.sem.max_perid", Cluster: clusterIPCSemLim, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxOps = engine.Row{Name: "hostcache.ipc.sem.max_ops", Cluster: clusterIPCSemLim, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxUndoent = engine.Row{Name: "hostcache.ipc.sem.max_undoent", Cluster: clusterIPCSemLim, Item: 6,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemSzSemundo = engine.Row{Name: "hostcache.ipc.sem.sz_semundo", Cluster: clusterIPCSemLim, Item: 7,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxSemval = engine.Row{Name: "hostcache.ipc.sem.max_semval", Cluster: clusterIPCSemLim, Item: 8,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcSemMaxExit = engine.Row{Name: "hostcache.ipc.sem.max_exit", Cluster: clusterIPCSemLim, Item: 9,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()

	ipcMsgSzPool = engine.Row{Name: "hostcache.ipc.msg.sz_pool", Cluster: clusterIPCMsgLim, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc()
	ipcMsgMapent = engine.Row{Name: "hostcache.ipc.msg.mapent", Cluster: clusterIPCMsgLim, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcMsgMaxMsgsz = engine.Row{Name: "hostcache.ipc.msg.max_msgsz", Cluster: clusterIPCMsgLim, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcMsgMaxDefmsgq = engine.Row{Name: "hostcache.ipc.msg.max_defmsgq", Cluster: clusterIPCMsgLim, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcMsgMaxMsgqid = engine.Row{Name: "hostcache.ipc.msg.max_msgqid", Cluster: clusterIPCMsgLim, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcMsgMaxMsgseg = engine.Row{Name: "hostcache.ipc.msg.max_msgseg", Cluster: clusterIPCMsgLim, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcMsgNumSmsghdr = engine.Row{Name: "hostcache.ipc.msg.num_smsghdr", Cluster: clusterIPCMsgLim, Item: 6,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcMsgMaxSeg = engine.Row{Name: "hostcache.ipc.msg.max_seg", Cluster: clusterIPCMsgLim, Item: 7,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()

	ipcShmMaxSegsz = engine.Row{Name: "hostcache.ipc.shm.max_segsz", Cluster: clusterIPCShmLim, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ipcShmMinSegsz = engine.Row{Name: "hostcache.ipc.shm.min_segsz", Cluster: clusterIPCShmLim, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ipcShmMaxSeg = engine.Row{Name: "hostcache.ipc.shm.max_seg", Cluster: clusterIPCShmLim, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcShmMaxSegproc = engine.Row{Name: "hostcache.ipc.shm.max_segproc", Cluster: clusterIPCShmLim, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ipcShmMaxShmsys = engine.Row{Name: "hostcache.ipc.shm.max_shmsys", Cluster: clusterIPCShmLim, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()

	ipcShmSwapAttempts = engine.Row{Name: "hostcache.ipc.shm.swap_attempts", Cluster: clusterIPCShm, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	ipcShmSwapSuccesses = engine.Row{Name: "hostcache.ipc.shm.swap_successes", Cluster: clusterIPCShm, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
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
			{ipcSemMaxPerid, s.Msl}, {ipcSemMaxOps, s.Opm}, {ipcSemMaxUndoent, s.Ume},
			{ipcSemSzSemundo, s.Usz}, {ipcSemMaxSemval, s.Vmx}, {ipcSemMaxExit, s.Aem}} {
			b.SetU64(v.d.ID, cache.InstNone, uint64(uint32(v.n)))
		}
	}
	if l.MsgErr == nil {
		m := l.Msg
		for _, v := range []struct {
			d cache.Desc
			n int32
		}{{ipcMsgSzPool, m.Pool}, {ipcMsgMapent, m.Map}, {ipcMsgMaxMsgsz, m.Max}, {ipcMsgMaxDefmsgq, m.Mnb},
			{ipcMsgMaxMsgqid, m.Mni}, {ipcMsgMaxMsgseg, m.Ssz}, {ipcMsgNumSmsghdr, m.Tql},
			{ipcMsgMaxSeg, int32(m.Seg)}} {
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
