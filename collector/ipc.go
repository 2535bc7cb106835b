package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// SysV IPC objects in use, with pmdalinux's items (its clusters 56 shm,
// 61 sem, 62 msg). pmdalinux asks msgctl, semctl and shmctl (MSG_INFO,
// SEM_INFO, SHM_INFO); the same counts are the rows of /proc/sysvipc, for
// the agent's IPC namespace in both cases. pmie's and pmrep's IPC views
// read the "used" counts.
var (
	ipcMsgUsedQueues = engine.Metric("hostcache.ipc.msg.used_queues", clusterIPCMsg, 0, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	ipcMsgTotMsg     = engine.Metric("hostcache.ipc.msg.tot_msg", clusterIPCMsg, 1, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	ipcMsgTotBytes   = engine.Metric("hostcache.ipc.msg.tot_bytes", clusterIPCMsg, 2, cache.TypeU32, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
	ipcSemUsedSem    = engine.Metric("hostcache.ipc.sem.used_sem", clusterIPCSem, 0, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	ipcSemTotSem     = engine.Metric("hostcache.ipc.sem.tot_sem", clusterIPCSem, 1, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	ipcShmTot        = engine.Metric("hostcache.ipc.shm.tot", clusterIPCShm, 0, cache.TypeU32, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
	ipcShmRSS        = engine.Metric("hostcache.ipc.shm.rss", clusterIPCShm, 1, cache.TypeU32, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
	ipcShmSwp        = engine.Metric("hostcache.ipc.shm.swp", clusterIPCShm, 2, cache.TypeU32, cache.SemInstant, cache.UnitsByte, cache.InDomNone)
	ipcShmUsedIDs    = engine.Metric("hostcache.ipc.shm.used_ids", clusterIPCShm, 3, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
)

// ipcTable is one /proc/sysvipc file, the columns it sums and the
// metrics: objects first, then one per column.
type ipcTable struct {
	file    *kernel.File
	table   *kernel.IPCTable
	objects cache.Desc
	sums    []cache.Desc
}

// ipcCollector reads /proc/sysvipc/msg, sem and shm.
type ipcCollector struct {
	tables []ipcTable
	buf    []byte
}

// NewIPCCollector names the files below env.Proc.
func NewIPCCollector(env engine.Env) (engine.Collector, error) {
	dir, err := procFile(env, "sysvipc")
	if err != nil {
		return nil, fmt.Errorf("ipc: %w", err)
	}
	file := func(name string) *kernel.File {
		return kernel.NewFileKept(env.Proc, filepath.Join(dir, name), env.KeepFiles)
	}
	// A segment holds whole pages: shmctl's total counts them.
	page := uint64(os.Getpagesize())
	return &ipcCollector{tables: []ipcTable{
		{file("msg"), kernel.NewIPCTable("qnum", "cbytes"), ipcMsgUsedQueues, []cache.Desc{ipcMsgTotMsg, ipcMsgTotBytes}},
		{file("sem"), kernel.NewIPCTable("nsems"), ipcSemUsedSem, []cache.Desc{ipcSemTotSem}},
		{file("shm"), kernel.NewIPCTable("size", "rss", "swap").RoundUp(0, page), ipcShmUsedIDs,
			[]cache.Desc{ipcShmTot, ipcShmRSS, ipcShmSwp}},
	}}, nil
}

func (c *ipcCollector) Name() string { return "ipc" }

func (c *ipcCollector) Source() cache.Source {
	var metrics []cache.Desc
	for _, t := range c.tables {
		metrics = append(append(metrics, t.objects), t.sums...)
	}
	return cache.Source{Name: c.Name(), Metrics: metrics}
}

// Sample reads each file; a kernel without SysV IPC has none of them.
func (c *ipcCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for _, t := range c.tables {
		var err error
		if c.buf, err = t.file.Read(c.buf); err != nil {
			errs = append(errs, err)
			continue
		}
		t.table.Parse(c.buf)
		b.SetU64(t.objects.ID, cache.InstNone, uint64(uint32(t.table.Objects)))
		for i, d := range t.sums {
			// A column this kernel does not print has no value (shm's rss
			// and swap came with 4.x), rather than a false zero.
			if t.table.Has(i) {
				b.SetU64(d.ID, cache.InstNone, uint64(uint32(t.table.Sums[i])))
			}
		}
	}
	return engine.PartialOf(errs, len(c.tables))
}
