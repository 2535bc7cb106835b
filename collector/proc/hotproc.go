package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// hotproc twins pmdaproc's hot processes: a predicate (hotpred.go) chosen
// in pmdaproc's hotproc.conf or stored into hostcache.hotproc.control.config
// picks, at each refresh, the processes whose values hostcache.hotproc.*
// gives. The process sample does the work: at the first sample at least
// refresh seconds after the last evaluation, it figures each process's
// rates since then (cpuburn, context switches, I/O) and evaluates the
// predicate; between refreshes the hot set is the processes chosen, less
// those that exited. Their values are the process sample's, set again as
// the hot twins (cache.Builder.Mirror), so hotproc.X and proc.X agree.

// Ids of the hot metrics: pmdaproc's clusters plus 100, as for proc.*.
const (
	clusterHotControl = 160 // pmdaproc 60: hotproc.control.*, hotproc.total.*
	clusterHotPred    = 161 // pmdaproc 61: hotproc.predicate.*
	// indomHot is the hot processes' domain, pmdaproc's 3.39.
	indomHot cache.InDomID = 52
)

// hotCluster is the cluster of a proc cluster's hot twins, pmdaproc's.
func hotCluster(c uint32) (uint32, bool) {
	to, ok := map[uint32]uint32{clusterPsinfo: 152, clusterMemory: 153, clusterCgroup: 154,
		clusterLabels: 155, clusterStatus: 156, clusterSchedstat: 157, clusterIO: 158,
		clusterSmaps: 134, clusterFD: 159, clusterOOM: 163, clusterExe: 171, clusterCwd: 173,
		clusterAutogroup: 175}[c]
	return to, ok
}

// hotTwinsOf gives the hot twins of those of descs that hotTwins names,
// and the map from each proc metric's id to its twin's.
func hotTwinsOf(descs []cache.Desc) ([]cache.Desc, map[cache.MetricID]cache.MetricID) {
	byProc := make(map[string]string, len(hotTwins))
	for _, hot := range hotTwins {
		byProc[engine.Prefix+"proc."+strings.TrimPrefix(hot, engine.Prefix+"hotproc.")] = hot
	}
	var out []cache.Desc
	ids := map[cache.MetricID]cache.MetricID{}
	for _, d := range descs {
		name, ok := byProc[d.Name]
		c, ok2 := hotCluster(d.ID.Cluster())
		if !ok || !ok2 {
			continue
		}
		h := d
		h.Name, h.ID = name, cache.NewMetricID(c, d.ID.Item())
		if d.InDom == indomProcess {
			h.InDom = indomHot
		}
		out = append(out, h)
		ids[d.ID] = h.ID
	}
	return out, ids
}

// hotRefresh is pmdaproc's default refresh, in seconds.
const hotRefresh = 10

// maxHotRefresh bounds a stored refresh: an hour, as the intervals.
const maxHotRefresh = 3600

// hotConfig is the predicate and its refresh, which stores change while
// the collector samples.
type hotConfig struct {
	mu      sync.Mutex
	pred    predicate // nil: hotproc is off
	text    string    // pred as hotproc.control.config gives it
	gen     uint32    // configurations applied; 0 while off
	refresh uint32    // seconds
	file    string    // pmdaproc's hotproc.conf
	warn    func(error)
}

// hotSettings is a copy of the configuration for one sample.
type hotSettings struct {
	pred    predicate
	text    string
	gen     uint32
	refresh uint32
}

func (h *hotConfig) settings() hotSettings {
	h.mu.Lock()
	defer h.mu.Unlock()
	return hotSettings{pred: h.pred, text: h.text, gen: h.gen, refresh: h.refresh}
}

// set applies a parsed predicate: nil turns hotproc off, as pmdaproc
// does with an empty configuration.
func (h *hotConfig) set(p predicate) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p == nil {
		h.pred, h.text, h.gen = nil, "", 0
		return
	}
	h.pred, h.text = p, dumpPredicate(p)
	h.gen++
}

// load reads the configuration file, as pmdaproc does at start and at a
// store into reload_config: a file that is missing, writable by others or
// wrong leaves the configuration as it was.
func (h *hotConfig) load() {
	if h.file == "" {
		return
	}
	st, err := os.Stat(h.file)
	if err != nil {
		return // no file: hotproc stays as it is, as pmdaproc's does
	}
	if st.Mode().Perm()&0o002 != 0 {
		h.warn(fmt.Errorf("%s: writable by every user, not read (pmdaproc ignores it too)", h.file))
		return
	}
	data, err := os.ReadFile(h.file)
	if err == nil && len(data) > maxPredicateText {
		err = fmt.Errorf("%d bytes, more than %d", len(data), maxPredicateText)
	}
	if err != nil {
		h.warn(fmt.Errorf("%s: %v", h.file, err))
		return
	}
	p, err := parsePredicate(string(data))
	if err != nil {
		h.warn(fmt.Errorf("%s: %v", h.file, err))
		return
	}
	if p != nil {
		h.set(p)
	}
}

// hotState is what a process had at its last evaluation.
type hotState struct {
	at       time.Time
	cpu      uint64 // utime + stime, clock ticks
	ctx      uint64 // voluntary and involuntary switches
	ioBytes  uint64 // read_bytes + write_bytes
	blkio    uint64 // delayacct_blkio_ticks
	runDelay uint64 // schedstat's run delay, ns
	hot      bool
	preds    hotPreds
}

// hotPreds are the predicate's figures of one process at its last
// evaluation, which hostcache.hotproc.predicate.* give.
type hotPreds struct {
	cpuburn, ctxswitch, iodemand, iowait, schedwait float64
	vsizeKB, rssKB                                  uint64
}

// hotTotals are hotproc.total.*: CPUs' worth of time over the last refresh.
type hotTotals struct {
	idle, active, inactive, transient float64
	valid                             bool
}

// hotEval is one evaluation's running sums.
type hotEval struct {
	at        time.Time
	cpu       float64   // seconds of CPU of every process over its interval
	active    float64   // of the hot ones
	inactive  float64   // of the others
	lastAt    time.Time // the evaluation before
	lastIdle  uint64
	haveTotal bool
}

// evaluate figures a process's rates since its last evaluation and the
// predicate on them. A process not evaluated before has rates of 0, as in
// pmdaproc.
func (ev *hotEval) evaluate(pred predicate, r *record, p *process, vars *hotVars) {
	now := hotState{at: ev.at, cpu: r.stat.UTime + r.stat.STime,
		ctx: r.status.VoluntaryCtxt + r.status.NonvoluntaryCtxt, ioBytes: r.io.ReadBytes + r.io.WriteBytes,
		blkio: r.stat.Rest[kernel.PidStatBlkioTicks], runDelay: r.sched.RunDelay}
	now.preds.vsizeKB = r.stat.VSize / 1024
	now.preds.rssKB = uint64(max(r.stat.RSS, 0)) * r.pageKB
	cpuSecs := 0.0
	if old := p.hot; old != nil {
		if dt := ev.at.Sub(old.at).Seconds(); dt > 0 {
			cpuSecs = grew(now.cpu, old.cpu) / userHZ
			now.preds.cpuburn = cpuSecs / dt
			now.preds.ctxswitch = grew(now.ctx, old.ctx) / dt
			now.preds.iodemand = grew(now.ioBytes, old.ioBytes) / 1024 / dt
			now.preds.iowait = grew(now.blkio, old.blkio) / userHZ / dt
			now.preds.schedwait = grew(now.runDelay, old.runDelay) / 1e9 / dt
		}
	}
	vars.num = [numVars]float64{varUID: float64(r.status.UID[0]), varGID: float64(r.status.GID[0]),
		varCPUBurn: now.preds.cpuburn, varCtxSwitch: now.preds.ctxswitch,
		varVirtualSize: float64(now.preds.vsizeKB), varResidentSize: float64(now.preds.rssKB),
		varIODemand: now.preds.iodemand, varIOWait: now.preds.iowait, varSchedWait: now.preds.schedwait}
	vars.str = [strVars]string{varUname: nameOr(r.names.user(uint32(r.status.UID[0]))),
		varGname: nameOr(r.names.group(uint32(r.status.GID[0]))), varFname: p.comm, varPsargs: psargsVar(p.psargs)}
	now.hot = pred.eval(vars)
	ev.cpu += cpuSecs
	if now.hot {
		ev.active += cpuSecs
	} else {
		ev.inactive += cpuSecs
	}
	if p.hot == nil {
		p.hot = new(hotState)
	}
	*p.hot = now
}

// grew is how much a counter grew, 0 if it went back.
func grew(now, old uint64) float64 {
	if now < old {
		return 0
	}
	return float64(now - old)
}

// nameOr is a user's or group's name, "UNKNOWN" when it has none.
func nameOr(name string) string {
	if name == "" {
		return "UNKNOWN"
	}
	return name
}

// psargsVar is the command line as pmdaproc's predicate sees it: at most
// 255 bytes.
func psargsVar(s string) string { return s[:min(len(s), 255)] }

// totals ends an evaluation: the whole host's CPU time over the interval
// since the last one, from /proc/stat's idle time and CPU count.
func (ev *hotEval) totals(stat []byte) hotTotals {
	idle, cpus, ok := idleTicks(stat)
	defer func() { ev.lastAt, ev.lastIdle, ev.haveTotal = ev.at, idle, ok }()
	dt := ev.at.Sub(ev.lastAt).Seconds()
	if !ok || !ev.haveTotal || dt <= 0 {
		return hotTotals{}
	}
	idleSecs := float64(idle-ev.lastIdle) / userHZ
	transient := max(float64(cpus)*dt-(ev.cpu+idleSecs), 0)
	return hotTotals{idle: idleSecs / dt, active: ev.active / dt, inactive: ev.inactive / dt,
		transient: transient / dt, valid: true}
}

// idleTicks reads the idle time of the "cpu" line of /proc/stat and
// counts the "cpuN" lines (the CPUs online).
func idleTicks(stat []byte) (idle uint64, cpus int, ok bool) {
	for _, line := range bytes.Split(stat, []byte{'\n'}) {
		f := bytes.Fields(line)
		if len(f) == 0 || !bytes.HasPrefix(f[0], []byte("cpu")) {
			continue
		}
		if len(f[0]) > 3 {
			cpus++
			continue
		}
		if len(f) > 4 {
			v, err := strconv.ParseUint(string(f[4]), 10, 64)
			idle, ok = v, err == nil
		}
	}
	return idle, cpus, ok && cpus > 0
}
