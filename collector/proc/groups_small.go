package proc

import (
	"errors"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// wchanGroup is pmdaproc's psinfo.wchan_s, /proc/PID/wchan: the kernel
// function a sleeping process waits in. The kernel names it to the
// process's owner alone (others read "0"): the twin gives others no
// value. An empty file has no value, as in pmdaproc.
type wchanGroup struct {
	kept *texts
	buf  []byte
}

var wchanDesc = owned(psinfoRow("hostcache.proc.psinfo.wchan_s", 40, cache.TypeString, cache.SemInstant,
	cache.UnitsNone))

func newWchanGroup() group { return &wchanGroup{kept: newTexts()} }

func (g *wchanGroup) metrics() []cache.Desc { return []cache.Desc{wchanDesc} }

func (g *wchanGroup) sample(rd *reader, pids []int32, b *cache.Builder) {
	g.kept.begin()
	for _, pid := range pids {
		text, ok := readShort(rd, pid, "wchan", &g.buf)
		if ok && len(text) > 0 {
			b.SetString(wchanDesc.ID, uint32(pid), g.kept.of(pid, text))
		}
	}
	g.kept.sweep()
}

// readShort reads a one-line file of the process; false when it cannot
// be read or is longer than maxShortText.
func readShort(rd *reader, pid int32, name string, buf *[]byte) ([]byte, bool) {
	text, whole, err := kernel.ReadFilePrefix(rd.pathOf(pid, name), *buf, maxShortText)
	*buf = text
	return text, err == nil && whole
}

// cgroupGroup is pmdaproc's psinfo.cgroups and id.container, from
// /proc/PID/cgroup, which every user may read.
type cgroupGroup struct {
	cgroups, containers *texts
	buf, out            []byte
}

var (
	cgroupsDesc = processRow("hostcache.proc.psinfo.cgroups", clusterCgroup, 0, cache.TypeString,
		cache.SemInstant, cache.UnitsNone)
	containerDesc = processRow("hostcache.proc.id.container", clusterCgroup, 1, cache.TypeString,
		cache.SemDiscrete, cache.UnitsNone)
)

func newCgroupGroup() group { return &cgroupGroup{cgroups: newTexts(), containers: newTexts()} }

func (g *cgroupGroup) metrics() []cache.Desc { return []cache.Desc{cgroupsDesc, containerDesc} }

func (g *cgroupGroup) sample(rd *reader, pids []int32, b *cache.Builder) {
	g.cgroups.begin()
	g.containers.begin()
	for _, pid := range pids {
		text, ok := readShort(rd, pid, "cgroup", &g.buf)
		if !ok {
			continue
		}
		if g.out, ok = kernel.AppendCgroups(g.out[:0], text); !ok {
			continue
		}
		b.SetString(cgroupsDesc.ID, uint32(pid), g.cgroups.of(pid, g.out))
		id := kernel.ContainerID(kernel.CpusetPath(text))
		b.SetString(containerDesc.ID, uint32(pid), g.containers.of(pid, id))
	}
	g.cgroups.sweep()
	g.containers.sweep()
}

// filesGroup is the rest of pmdaproc's per-process files, one or two
// small reads each: oom_score, exe and cwd (links the owner alone may
// read), the security label (attr/current) and the autogroup.
type filesGroup struct {
	exes, cwds, labels *texts
	buf                []byte
	link               []byte
}

var (
	oomDesc = processRow("hostcache.proc.psinfo.oom_score", clusterOOM, 0, cache.TypeU32, cache.SemInstant,
		cache.UnitsNone)
	exeDesc = owned(processRow("hostcache.proc.psinfo.exe", clusterExe, 0, cache.TypeString, cache.SemDiscrete,
		cache.UnitsNone))
	cwdDesc = owned(processRow("hostcache.proc.psinfo.cwd", clusterCwd, 0, cache.TypeString, cache.SemDiscrete,
		cache.UnitsNone))
	labelsDesc = processRow("hostcache.proc.psinfo.labels", clusterLabels, 0, cache.TypeString,
		cache.SemInstant, cache.UnitsNone)
	autogroupEnabled = knownOnly(engine.Row{Name: "hostcache.proc.autogroup.enabled", Cluster: clusterAutogroup,
		Item: 0, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc())
	autogroupID = processRow("hostcache.proc.autogroup.id", clusterAutogroup, 1, cache.TypeU32,
		cache.SemDiscrete, cache.UnitsNone)
	autogroupNice = processRow("hostcache.proc.autogroup.nice", clusterAutogroup, 2, cache.TypeI32,
		cache.SemInstant, cache.UnitsNone)
)

// knownOnly gives a metric to the clients pmcd named a user for, as
// pmdaproc answers autogroup.enabled only to those.
func knownOnly(d cache.Desc) cache.Desc {
	d.Access = known
	return d
}

func newFilesGroup() group {
	return &filesGroup{exes: newTexts(), cwds: newTexts(), labels: newTexts()}
}

func (g *filesGroup) metrics() []cache.Desc {
	return []cache.Desc{oomDesc, exeDesc, cwdDesc, labelsDesc, autogroupEnabled, autogroupID, autogroupNice}
}

func (g *filesGroup) sample(rd *reader, pids []int32, b *cache.Builder) {
	for _, t := range []*texts{g.exes, g.cwds, g.labels} {
		t.begin()
	}
	autogroups := g.autogroupsOn(rd, b)
	for _, pid := range pids {
		inst := uint32(pid)
		if text, ok := readShort(rd, pid, "oom_score", &g.buf); ok {
			if v, err := kernel.ParseOneDecimal(text); err == nil {
				b.SetU64(oomDesc.ID, inst, v)
			}
		}
		g.readLink(rd, pid, "exe", exeDesc.ID, g.exes, b)
		g.readLink(rd, pid, "cwd", cwdDesc.ID, g.cwds, b)
		if text, ok := readShort(rd, pid, "attr/current", &g.buf); ok && len(text) > 0 {
			// The label without its last byte (the newline), as pmdaproc.
			b.SetString(labelsDesc.ID, inst, g.labels.of(pid, text[:len(text)-1]))
		}
		if autogroups {
			g.readAutogroup(rd, pid, b)
		}
	}
	for _, t := range []*texts{g.exes, g.cwds, g.labels} {
		t.sweep()
	}
}

// autogroupsOn sets autogroup.enabled from the sysctl, and reports
// whether the processes' autogroups are read: not while the scheduler
// has them off (pmdaproc then gives no value).
func (g *filesGroup) autogroupsOn(rd *reader, b *cache.Builder) bool {
	var err error
	if g.buf, err = kernel.ReadFileInto(rd.root+"/sys/kernel/sched_autogroup_enabled", g.buf); err != nil {
		return false
	}
	v, err := kernel.ParseOneDecimal(g.buf)
	if err != nil {
		return false
	}
	on := uint64(0)
	if v == 1 {
		on = 1
	}
	b.SetU64(autogroupEnabled.ID, cache.InstNone, on)
	return on == 1
}

func (g *filesGroup) readAutogroup(rd *reader, pid int32, b *cache.Builder) {
	text, ok := readShort(rd, pid, "autogroup", &g.buf)
	if !ok {
		return
	}
	if len(text) == 0 {
		// A process in no autogroup (a kernel thread, a task the kernel
		// groups otherwise) has an empty file: pmdaproc gives it 0 and 0.
		b.SetU64(autogroupID.ID, uint32(pid), 0)
		b.SetI64(autogroupNice.ID, uint32(pid), 0)
		return
	}
	if id, nice, err := kernel.ParsePidAutogroup(text); err == nil {
		b.SetU64(autogroupID.ID, uint32(pid), id)
		b.SetI64(autogroupNice.ID, uint32(pid), nice)
	}
}

// readLink sets a link of the process (exe, cwd). A kernel thread has
// none (ENOENT), and gets "" as pmdaproc gives it (refusedAsEmpty tells
// the other cases).
func (g *filesGroup) readLink(rd *reader, pid int32, name string, id cache.MetricID, kept *texts,
	b *cache.Builder) {
	if cap(g.link) < syscall.PathMax {
		g.link = make([]byte, syscall.PathMax)
	}
	g.link = g.link[:syscall.PathMax]
	n, err := syscall.Readlink(rd.pathOf(pid, name), g.link)
	switch {
	case errors.Is(err, syscall.ENOENT) || refusedAsEmpty(err):
		n = 0
	case err != nil || n < 0:
		return
	}
	b.SetString(id, uint32(pid), kept.of(pid, g.link[:n]))
}

// refusedAsEmpty reports whether a read the kernel refused reads "", as
// pmdaproc reads it for root: when the agent runs as root, root's own
// answer is "" (a process even root may not inspect, such as another
// container's init). An agent running as another user cannot tell what
// root would read, and gives no value.
func refusedAsEmpty(err error) bool {
	return (errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM)) && syscall.Geteuid() == 0
}
