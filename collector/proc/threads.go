package proc

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// threadShift is added to a process metric's cluster to make its threads
// view's (clusters 408 to 474), clear of the host's, the processes' and
// the MMV files' clusters.
const threadShift = 300

// indomThreads is the threads view of the process domain: one instance
// per thread, named as the process domain names its thread-group leader.
const indomThreads cache.InDomID = 51

// threadCollector samples every thread of every process, from
// /proc/PID/task/TID, into the threads views of the process collector's
// metrics: pmdaproc shows a client that stored proc.control.*.threads 1
// each thread as an instance of its own, with the thread's own values
// (the leader's too, not the process's sums), and counts threads in
// proc.nprocs and proc.runq.*. It samples only while such a client reads
// (engine.OnDemand), so threads cost nothing while nobody asks for them.
type threadCollector struct {
	proc   string
	lister kernel.PIDLister
	tasks  kernel.PIDLister
	reader reader
	table  *table
	names  *names
	ttys   *ttyNames
	pids   []int32
	tids   []int32
	listed []int32
	rec    record
	insts  *cache.Instances
	pageKB uint64
	pace   int
}

// newThreadCollector checks the /proc root below env.Proc.
func newThreadCollector(env engine.Env) (engine.Collector, error) {
	if st, err := os.Stat(env.Proc); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("proc_threads: the /proc root %q is not a directory", env.Proc)
	}
	return &threadCollector{
		proc:   env.Proc,
		lister: kernel.PIDLister{Root: env.Proc},
		table:  newTable(),
		names:  newNames(),
		ttys:   newTTYNames(env.Proc),
		pageKB: uint64(os.Getpagesize()) / 1024,
		pace:   1,
	}, nil
}

func (c *threadCollector) Name() string { return "proc_threads" }

// Source lists the threads views of the process collector's metrics and
// of its domain. They have no names a client can look up: a client in
// the threads view reads them in the processes' place.
func (c *threadCollector) Source() cache.Source {
	var metrics []cache.Desc
	for _, d := range processMetrics() {
		metrics = append(metrics, threadView(d))
	}
	return cache.Source{
		Name:    c.Name(),
		Metrics: metrics,
		InDoms: []cache.InDomDesc{{ID: indomThreads, Name: "threads", IDLabel: "pid", Access: known,
			Alias: sixDigits, Threads: true, ThreadsOf: indomProcess}},
		CountersOnly: true,
	}
}

// The threads view of hostcache.proc.X is named hostcache.proc.threads.X
// in logs; the name is in no namespace.
const (
	processPrefix = engine.Prefix + "proc."
	threadsPrefix = processPrefix + "threads."
)

// threadView is the descriptor of process metric d's threads view.
func threadView(d cache.Desc) cache.Desc {
	t := d
	t.Name = threadsPrefix + strings.TrimPrefix(d.Name, processPrefix)
	t.ID = shifted(d.ID, threadShift)
	if d.InDom == indomProcess {
		t.InDom = indomThreads
	}
	t.Threads, t.ThreadsOf = true, d.ID
	return t
}

// Pace hears the engine's factor: above 1 while no client reads the
// threads, and the collector then reads nothing.
func (c *threadCollector) Pace(factor int) { c.pace = factor }

// OnDemand: the threads are sampled only for the clients that read them.
func (c *threadCollector) OnDemand() bool { return true }

// Sample lists every process's threads and reads each thread's files;
// while no client reads the threads, nothing (they then have no value).
func (c *threadCollector) Sample(b *cache.Builder, _ time.Time) error {
	if c.pace > 1 {
		return nil
	}
	var err error
	if c.pids, err = c.lister.List(c.pids); err != nil {
		return err
	}
	slices.Sort(c.pids)
	c.table.begin()
	var runq [runqStates]int64
	c.listed = c.listed[:0]
	for _, pid := range c.pids {
		c.sampleProcess(b, pid, &runq)
	}
	slices.Sort(c.listed)
	c.table.sweep()
	if c.table.changed || c.insts == nil {
		c.insts = c.table.instances(c.listed)
	}
	b.SetInDom(indomThreads, c.insts)
	b.SetU64(shifted(nprocs.ID, threadShift), cache.InstNone, uint64(len(c.listed)))
	for state, n := range runq {
		b.SetI64(shifted(runqRows[state].ID, threadShift), cache.InstNone, n)
	}
	return nil
}

// sampleProcess reads the threads of one process, from its task
// directory; a process that exits meanwhile is left out.
func (c *threadCollector) sampleProcess(b *cache.Builder, pid int32, runq *[runqStates]int64) {
	root := c.proc + "/" + strconv.Itoa(int(pid)) + "/task"
	c.tasks.Root = root
	var err error
	if c.tids, err = c.tasks.List(c.tids); err != nil {
		return
	}
	c.reader.root = root
	for _, tid := range c.tids {
		r := &c.rec
		*r = record{pageKB: c.pageKB, names: c.names, ttys: c.ttys}
		if c.reader.read(tid, r) != nil {
			continue
		}
		c.listed = append(c.listed, tid)
		p, renewed := c.table.note(&c.reader, r)
		r.proc = p
		if renewed {
			b.Renew(uint32(tid))
		}
		runq[runqState(r)]++
		setValues(b, r, threadShift)
	}
}
