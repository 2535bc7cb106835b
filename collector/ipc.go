package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// SysV IPC objects in use, with pmdalinux's items (its clusters 56 shm,
// 61 sem, 62 msg). pmdalinux asks msgctl, semctl and shmctl (MSG_INFO,
// SEM_INFO, SHM_INFO); the same counts are the rows of /proc/sysvipc, for
// the agent's IPC namespace in both cases. pmie's and pmrep's IPC views
// read the "used" counts.
var (
	ipcMsgUsedQueues = engine.Row{Name: "hostcache.ipc.msg.used_queues", Cluster: clusterIPCMsg, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	ipcMsgTotMsg = engine.Row{Name: "hostcache.ipc.msg.tot_msg", Cluster: clusterIPCMsg, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	ipcMsgTotBytes = engine.Row{Name: "hostcache.ipc.msg.tot_bytes", Cluster: clusterIPCMsg, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ipcSemUsedSem = engine.Row{Name: "hostcache.ipc.sem.used_sem", Cluster: clusterIPCSem, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	ipcSemTotSem = engine.Row{Name: "hostcache.ipc.sem.tot_sem", Cluster: clusterIPCSem, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	ipcShmTot = engine.Row{Name: "hostcache.ipc.shm.tot", Cluster: clusterIPCShm, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ipcShmRSS = engine.Row{Name: "hostcache.ipc.shm.rss", Cluster: clusterIPCShm, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ipcShmSwp = engine.Row{Name: "hostcache.ipc.shm.swp", Cluster: clusterIPCShm, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ipcShmUsedIDs = engine.Row{Name: "hostcache.ipc.shm.used_ids", Cluster: clusterIPCShm, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
)

// ipcTable is one /proc/sysvipc file, the columns it sums and the
// metrics: objects first, then one per column; each publishes every
// object (ipc_objects.go).
type ipcTable struct {
	file    *kernel.File
	table   *kernel.IPCTable
	objects cache.Desc
	sums    []cache.Desc
	each    *ipcObjects
	capped  bool // told that the table holds more than ipcObjectLimit
}

// ipcCollector reads /proc/sysvipc/msg, sem and shm.
type ipcCollector struct {
	tables []*ipcTable
	owners *ipcOwners
	warn   func(error)
	buf    []byte
}

// NewIPCCollector names the files below env.Proc.
func NewIPCCollector(env engine.Env) (engine.Collector, error) {
	dir, err := hostkit.ProcFile(env, "sysvipc")
	if err != nil {
		return nil, fmt.Errorf("ipc: %w", err)
	}
	file := func(name string) *kernel.File {
		return kernel.NewFileKept(env.Proc, filepath.Join(dir, name), env.KeepFiles)
	}
	table := func(kind *ipcKind, sums ...string) *kernel.IPCTable {
		return kernel.NewIPCTable(sums...).Keep(ipcObjectLimit, kind.columns()...)
	}
	// A segment holds whole pages: shmctl's total counts them.
	page := uint64(os.Getpagesize())
	return &ipcCollector{owners: newIPCOwners(), warn: env.Warn, tables: []*ipcTable{
		{file: file("msg"), table: table(&ipcMsgKind, "qnum", "cbytes"), objects: ipcMsgUsedQueues,
			sums: []cache.Desc{ipcMsgTotMsg, ipcMsgTotBytes}, each: newIPCObjects(&ipcMsgKind, env)},
		{file: file("sem"), table: table(&ipcSemKind, "nsems"), objects: ipcSemUsedSem,
			sums: []cache.Desc{ipcSemTotSem}, each: newIPCObjects(&ipcSemKind, env)},
		{file: file("shm"), table: table(&ipcShmKind, "size", "rss", "swap").RoundUp(0, page),
			objects: ipcShmUsedIDs, sums: []cache.Desc{ipcShmTot, ipcShmRSS, ipcShmSwp},
			each: newIPCObjects(&ipcShmKind, env)},
	}}, nil
}

func (c *ipcCollector) Name() string { return "ipc" }

func (c *ipcCollector) Source() cache.Source {
	var metrics []cache.Desc
	var indoms []cache.InDomDesc
	for _, t := range c.tables {
		metrics = append(append(metrics, t.objects), t.sums...)
		metrics = append(metrics, t.each.kind.metrics()...)
		indoms = append(indoms, t.each.kind.indom)
	}
	return cache.Source{Name: c.Name(), Metrics: metrics, InDoms: indoms}
}

// Sample reads each file; a kernel without SysV IPC has none of them, and
// a file missing leaves its objects without instances.
func (c *ipcCollector) Sample(b *cache.Builder, now time.Time) error {
	var errs []error
	c.owners.refresh(now)
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
		// The kept cells point into c.buf: published before the next read.
		t.each.publish(b, t.table, c.owners)
		c.tellCapped(t)
	}
	return engine.PartialOf(errs, len(c.tables))
}

// tellCapped says once per table that objects past the limit are left out.
func (c *ipcCollector) tellCapped(t *ipcTable) {
	if t.capped || c.warn == nil || t.table.Objects <= uint64(t.table.Kept()) {
		return
	}
	t.capped = true
	c.warn(fmt.Errorf("%s: %d objects; the first %d are published, the rest have no instances",
		t.file.Path, t.table.Objects, t.table.Kept()))
}
