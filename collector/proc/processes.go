package proc

import (
	"fmt"
	"os"
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
	rec    record
	insts  *cache.Instances
	pageKB uint64
	board  *board // where the groups' collectors find the processes listed
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
	return &processCollector{
		board:  b,
		lister: kernel.PIDLister{Root: env.Proc},
		reader: reader{root: env.Proc},
		table:  newTable(),
		names:  newNames(),
		ttys:   newTTYNames(env.Proc),
		pageKB: uint64(os.Getpagesize()) / 1024,
	}, nil
}

func (c *processCollector) Name() string { return "proc" }

func (c *processCollector) Source() cache.Source {
	return cache.Source{
		Name:    c.Name(),
		Metrics: append(processMetrics(), controls[:]...),
		// Each process is labelled with its PID, as pmdaproc labels them.
		InDoms: []cache.InDomDesc{{ID: indomProcess, Name: "processes", IDLabel: "pid", Access: known,
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
func (c *processCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.pids, err = c.lister.List(c.pids); err != nil {
		return err
	}
	slices.Sort(c.pids)
	c.table.begin()
	var runq [runqStates]int64
	listed := c.pids[:0]
	for _, pid := range c.pids {
		r := &c.rec
		*r = record{pageKB: c.pageKB, names: c.names, ttys: c.ttys}
		if c.reader.read(pid, r) != nil {
			continue
		}
		listed = append(listed, pid)
		p, renewed := c.table.note(&c.reader, r)
		r.proc = p
		if renewed {
			b.Renew(uint32(pid))
		}
		runq[runqState(r)]++
		setValues(b, r, 0)
	}
	c.pids = listed
	c.board.post(c.pids)
	c.table.sweep()
	if c.table.changed || c.insts == nil {
		c.insts = c.table.instances(c.pids)
	}
	b.SetInDom(indomProcess, c.insts)
	b.SetU64(nprocs.ID, cache.InstNone, uint64(len(c.pids)))
	for state, n := range runq {
		b.SetI64(runqRows[state].ID, cache.InstNone, n)
	}
	return nil
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
