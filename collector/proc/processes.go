package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// processCollector twins pmdaproc's proc.* metrics: once a sample it lists
// /proc and reads each process's stat, status, statm, io and schedstat,
// whoever asks and however often. The costlier files are the groups'
// collectors' (group.go), which read the processes it lists.
type processCollector struct {
	lister kernel.PIDLister
	reader reader
	table  *table
	names  *names
	ttys   *ttyNames
	pids   []int32
	listed []int32    // the processes read whole, the next sample's pids
	ahead  *readAhead // nil: the sample reads each process itself
	slowed bool       // no client reads the processes: read in turn
	rec    record
	insts  *cache.Instances
	pageKB uint64
	board  *board // where the groups' collectors find the processes listed
	// hotproc (hotproc.go): the configuration, the last evaluation, and
	// the hot twins of the process metrics.
	hot       *hotConfig
	hotEval   hotEval
	hotTotals hotTotals
	hotDescs  []cache.Desc
	hotIDs    map[cache.MetricID]cache.MetricID
	hotPIDs   []int32          // the hot processes of the last sample
	hotInsts  *cache.Instances // their table
	statBuf   []byte
}

// NewProcessCollector checks the /proc root below env.Proc.
func NewProcessCollector(env engine.Env) (engine.Collector, error) {
	return newProcessCollector(env, &board{})
}

// newProcessCollector makes the process collector, which tells b the
// processes each sample lists.
func newProcessCollector(env engine.Env, b *board) (engine.Collector, error) {
	if st, err := os.Stat(env.Proc); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("proc: the /proc root %q is not a directory", env.Proc)
	}
	b.markBuilt()
	hot := &hotConfig{refresh: hotRefresh, warn: env.Warn}
	if hot.warn == nil {
		hot.warn = func(error) {}
	}
	if env.PMDAsDir != "" {
		hot.file = filepath.Join(env.PMDAsDir, "proc", "hotproc.conf")
	}
	hot.load()
	hotDescs, hotIDs := hotTwinsOf(processMetrics())
	return &processCollector{
		hot:      hot,
		hotDescs: hotDescs,
		hotIDs:   hotIDs,
		board:    b,
		lister:   kernel.PIDLister{Root: env.Proc},
		reader:   reader{root: env.Proc},
		ahead:    newReadAhead(env.Proc),
		table:    newTable(),
		names:    newNames(),
		ttys:     newTTYNames(env.Proc),
		pageKB:   uint64(os.Getpagesize()) / 1024,
	}, nil
}

func (c *processCollector) Name() string { return "proc" }

func (c *processCollector) Source() cache.Source {
	return cache.Source{
		Name:    c.Name(),
		Metrics: slices.Concat(processMetrics(), controls[:], c.hotDescs, hotOwnMetrics()),
		// Each process is labelled with its PID, as pmdaproc labels them.
		InDoms: []cache.InDomDesc{{ID: indomProcess, Name: "processes", IDLabel: "pid", Access: known,
			Alias: sixDigits}, {ID: indomHot, Name: "hot processes", IDLabel: "pid", Access: known,
			Alias: sixDigits}},
		// The rates need the counters' history; sizes, states and ids
		// are served from the newest sample (docs/design.md).
		CountersOnly: true,
	}
}

// processMetrics are the metrics a sample of the processes sets: the
// thread collector sets their threads views.
func processMetrics() []cache.Desc {
	metrics := []cache.Desc{nprocs}
	for _, rows := range [][]numRow{statRows, statSignedRows, statusRows, statmRows, ioRows, schedstatRows} {
		for _, r := range rows {
			metrics = append(metrics, r.desc)
		}
	}
	for _, rows := range [][]strRow{statStrRows, statusStrRows} {
		for _, r := range rows {
			metrics = append(metrics, r.desc)
		}
	}
	return append(metrics, runqRows[:]...)
}

// Sample lists the processes and reads each one's files. A process that
// exits while it is read is left out; one whose PID now names another
// process is renewed, so no rate runs across the two.
func (c *processCollector) Sample(b *cache.Builder, at time.Time) error {
	var err error
	if c.pids, err = c.lister.List(c.pids); err != nil {
		return err
	}
	slices.Sort(c.pids)
	c.table.begin()
	hs := c.hot.settings()
	ev := c.beginHot(hs, at)
	var hot map[uint32]bool // nil while hotproc is off: no process is hot
	if hs.pred != nil {
		hot = map[uint32]bool{}
		b.Mirror(hot, c.hotIDs)
	}
	var runq [runqStates]int64
	c.listed = c.listed[:0]
	c.readEach(func(r *record, rd *reader, err error) {
		if err != nil {
			return
		}
		pid := r.pid
		c.listed = append(c.listed, pid)
		p, renewed := c.table.note(rd, r)
		r.proc = p
		if renewed {
			b.Renew(uint32(pid))
		}
		runq[runqState(r)]++
		isHot := c.isHot(hs, ev, r, p)
		if isHot {
			hot[uint32(pid)] = true
		}
		setValues(b, r, 0)
		if isHot {
			setPreds(b, pid, p.hot.preds)
		}
	})
	b.Mirror(nil, nil)
	c.pids, c.listed = c.listed, c.pids
	c.board.post(c.pids, hot)
	c.table.sweep()
	if c.table.changed || c.insts == nil {
		c.insts = c.table.instances(c.pids)
	}
	b.SetInDom(indomProcess, c.insts)
	b.SetU64(nprocs.ID, cache.InstNone, uint64(len(c.pids)))
	for state, n := range runq {
		b.SetI64(runqRows[state].ID, cache.InstNone, n)
	}
	c.endHot(b, hs, ev, hot)
	return nil
}

// Pace is told whether clients read the processes (engine.Paced): while
// none does, the samples are read in turn, at less CPU.
func (c *processCollector) Pace(factor int) { c.slowed = factor > 1 }

// readEach reads each listed process and calls take with its record, in
// PID order: read ahead by workers while clients read the processes and
// there are many.
func (c *processCollector) readEach(take func(r *record, rd *reader, err error)) {
	base := record{pageKB: c.pageKB, names: c.names, ttys: c.ttys}
	if !c.slowed && c.ahead != nil && len(c.pids) >= readAheadMin {
		c.ahead.each(c.pids, base, take)
		return
	}
	for _, pid := range c.pids {
		r := &c.rec
		*r = base
		take(r, &c.reader, c.reader.read(pid, r))
	}
}

// beginHot starts an evaluation of the hotproc predicate when one is due
// at this sample; nil when none is.
func (c *processCollector) beginHot(hs hotSettings, at time.Time) *hotEval {
	if at.IsZero() {
		at = time.Now()
	}
	if hs.pred == nil || !hotDue(c.hotEval.lastAt, at, hs.refresh) {
		return nil
	}
	ev := &c.hotEval
	ev.at, ev.cpu, ev.active, ev.inactive = at, 0, 0, 0
	return ev
}

// isHot evaluates a process when an evaluation is under way, and says
// whether it is hot: chosen at the last evaluation.
func (c *processCollector) isHot(hs hotSettings, ev *hotEval, r *record, p *process) bool {
	if hs.pred == nil {
		return false
	}
	if ev != nil {
		if r.hasStatus {
			var vars hotVars
			ev.evaluate(hs.pred, r, p, &vars)
		} else if p.hot != nil {
			p.hot.hot = false // pmdaproc leaves out a process without status
		}
	}
	return p.hot != nil && p.hot.hot
}

// endHot ends the sample's hotproc part: the totals of an evaluation, the
// hot processes' domain, the controls.
func (c *processCollector) endHot(b *cache.Builder, hs hotSettings, ev *hotEval, hot map[uint32]bool) {
	switch {
	case hs.pred == nil:
		c.hotTotals = hotTotals{}
	case ev != nil:
		var err error
		c.statBuf, err = kernel.ReadFileInto(c.reader.root+"/stat", c.statBuf)
		if err != nil {
			c.statBuf = c.statBuf[:0]
		}
		c.hotTotals = ev.totals(c.statBuf)
	}
	pids := make([]int32, 0, len(hot))
	for _, pid := range c.pids {
		if hot[uint32(pid)] {
			pids = append(pids, pid)
		}
	}
	// The same table while the hot processes stay the same, as the
	// process domain's.
	if c.hotInsts == nil || c.table.changed || !slices.Equal(pids, c.hotPIDs) {
		c.hotPIDs, c.hotInsts = pids, c.table.instances(pids)
	}
	b.SetInDom(indomHot, c.hotInsts)
	b.SetU64(hotNprocs.ID, cache.InstNone, uint64(len(pids)))
	setHotGlobals(b, hs, c.hotTotals)
}

// setValues sets every per-process metric of one process (or thread),
// each in its cluster plus shift: 0 for the processes, threadShift for
// their threads views.
func setValues(b *cache.Builder, r *record, shift uint32) {
	inst := uint32(r.pid)
	for _, rows := range [][]numRow{statRows, statusRows, statmRows, ioRows, schedstatRows} {
		for i := range rows {
			if v, ok := rows[i].value(r); ok {
				b.SetU64(shifted(rows[i].desc.ID, shift), inst, v)
			}
		}
	}
	for i := range statSignedRows {
		v, _ := statSignedRows[i].value(r)
		b.SetI64(shifted(statSignedRows[i].desc.ID, shift), inst, int64(v))
	}
	for _, rows := range [][]strRow{statStrRows, statusStrRows} {
		for i := range rows {
			if s, ok := rows[i].value(r); ok {
				b.SetString(shifted(rows[i].desc.ID, shift), inst, s)
			}
		}
	}
}

// shifted is id moved shift clusters up.
func shifted(id cache.MetricID, shift uint32) cache.MetricID {
	return cache.NewMetricID(id.Cluster()+shift, id.Item())
}

// sixDigits writes a PID typed without pmdaproc's zeros as its instance
// names start ("1234" finds "001234 sshd"), as pmdaproc's lookup does.
func sixDigits(name string) (string, bool) {
	if name == "" || len(name) >= 6 || strings.Trim(name, "0123456789") != "" {
		return "", false
	}
	return strings.Repeat("0", 6-len(name)) + name, true
}
