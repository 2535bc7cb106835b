package mmvfiles

import (
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// The MMV files' catalog: the files instrumented programs write in
// $PCP_TMP_DIR/mmv, each sampled as pmdammv serves it, below
// hostcache.mmv. A scan of the directory says what the files hold now; a
// publish sets their values.

// mmvClusters is how many files can be in use: one cluster each.
const mmvClusters = clusterMMVLast - clusterMMVFirst + 1

// mmvSpareEntries is how many directory entries beyond the files limit a
// scan looks at: room for temporary, foreign and refused entries.
const mmvSpareEntries = 64

// mmvLimits bound what the directory can cost: entries looked at, files
// in use (at most one a cluster) and what one file may hold.
type mmvLimits struct {
	entries int
	files   int
	file    mmv.Limits
}

// mmvTotalBytes bounds the bytes of the files in use together: each is
// read every sample, and a sparse file of a valid header costs its size.
const mmvTotalBytes = 64 << 20

// mmvFileBytes bounds one file by what its metrics and values can take:
// a metric and its help strings, a value and its string slot, and room.
func mmvFileBytes(lim mmv.Limits) int64 {
	return 64<<10 + int64(lim.MaxMetrics)*1024 + int64(lim.MaxValues)*(32+256)
}

// defaultMMVLimits takes as many files as there are clusters.
func defaultMMVLimits() mmvLimits {
	return mmvLimits{entries: mmvMaxEntries, files: mmvClusters, file: mmv.DefaultLimits()}
}

// mmvFiles is the catalog: every regular file of the directory it looks
// at, the clusters of those in use, and what the files in use publish.
// scan and publish are the collector's, called from one goroutine;
// source, text and indomText read the last scan's immutable view and may
// be called from any.
type mmvFiles struct {
	dir      string
	lim      mmvLimits
	files    map[string]*mmvFile   // by file name
	refused  map[string]mmvRefusal // entries not opened, and why (reported once)
	listings uint64                // the listings so far
	arrivals uint64                // the next file's arrival number
	clusters mmvClusterTable
	listFail string // the directory's last listing problem, reported once
	unnamed  bool   // more entries are refused than are named, reported once
	crowded  bool   // more files than a scan looks at, reported once
	turn     string // the last name a crowded scan looked at (choose)
	cat      mmvCatalog
	strBuf   []byte // the string values' buffer, reused by publish
}

// newMMVFiles catalogs dir. A files limit outside 1 to the number of
// clusters is the number of clusters; an entries limit of 0 or less,
// mmvMaxEntries.
func newMMVFiles(dir string, lim mmvLimits) *mmvFiles {
	if lim.files <= 0 || lim.files > mmvClusters {
		lim.files = mmvClusters
	}
	if lim.entries <= 0 {
		lim.entries = mmvMaxEntries
	}
	return &mmvFiles{dir: dir, lim: lim, files: map[string]*mmvFile{}, refused: map[string]mmvRefusal{}}
}

// scan looks at the directory once: new files are opened, removed and
// replaced ones dropped, changed ones re-parsed, files of processes that
// are gone dropped. changed says whether the metrics, their names or
// descriptors differ from the last scan's. Each problem names its file
// and is reported once, when it arises.
func (m *mmvFiles) scan(now time.Time) (changed bool, problems []error) {
	l, problems := m.list(problems)
	m.setAside(&l)
	for _, name := range l.chosen {
		f, problem := m.file(name)
		if problem == nil && f != nil {
			problem = f.refresh(m.lim.file)
		}
		if problem != nil {
			problems = append(problems, problem)
		}
	}
	problems = m.admit(problems)
	changed = m.cat.assemble(m.inUse(), now, &problems)
	return changed, problems
}

// setAside closes the files the scan does not look at. One still in the
// directory that was refused or told it waits keeps what it was told, so
// that it is not told again when it is looked at again; the others are
// forgotten.
func (m *mmvFiles) setAside(l *mmvListing) {
	for name, f := range m.files {
		if l.chose(name) {
			continue
		}
		m.release(f)
		waiting := f.waiting
		f.close()
		if l.has(name) && (f.fault.text != "" || waiting) {
			f.waiting = waiting
		} else {
			delete(m.files, name)
		}
	}
}

// file is the entry of a listed name, opened when new or replaced. A file
// that cannot be opened is retried at each scan and reported once. A
// file set aside and looked at again keeps its refusal (mmvFault), so it
// is read again only once its size or generation changed.
func (m *mmvFiles) file(name string) (*mmvFile, error) {
	f := m.files[name]
	if f == nil {
		f = &mmvFile{name: name, arrival: m.arrivals}
		m.arrivals++
		m.files[name] = f
	}
	if f.reader != nil && f.reader.Replaced() {
		m.release(f)
		f.close()
		f.fault = mmvFault{} // another file: its refusals are its own
	}
	if f.reader != nil {
		return f, nil
	}
	r, err := mmv.Open(filepath.Join(m.dir, name), m.lim.file)
	if err != nil {
		return nil, f.refuse(-1, 0, fmt.Sprintf("cannot be opened: %v", err))
	}
	f.reader = r
	if f.fault.size < 0 {
		f.fault = mmvFault{} // it opens now
	}
	return f, nil
}

// release takes a file out of use; its cluster is remembered for its
// name, which gets it back if it is still free when the name returns.
func (m *mmvFiles) release(f *mmvFile) {
	if f.cluster != 0 {
		m.clusters.release(f.cluster)
		f.cluster = 0
	}
}

// admit gives each usable file not in use a cluster, earliest arrival
// first, and takes out of use the files no longer usable.
func (m *mmvFiles) admit(problems []error) []error {
	waiting := make([]*mmvFile, 0, len(m.files))
	inUse, bytes := 0, int64(0)
	for _, f := range m.files {
		switch {
		case !f.usable():
			m.release(f)
		case f.cluster != 0:
			inUse, bytes = inUse+1, bytes+f.size
		default:
			waiting = append(waiting, f)
		}
	}
	sort.Slice(waiting, func(a, b int) bool { return waiting[a].arrival < waiting[b].arrival })
	for _, f := range waiting {
		if inUse >= m.lim.files || bytes+f.size > mmvTotalBytes {
			if !f.waiting {
				problems = append(problems,
					fmt.Errorf("mmv file %s: waits: %d files of %d bytes in "+
						"all are in use, the limits %d files and %d bytes",
						f.name, inUse, bytes, m.lim.files, int64(mmvTotalBytes)))
			}
			f.waiting = true
			continue
		}
		cluster, problem := m.clusters.assign(f.name, f.layout.Cluster)
		f.cluster, f.waiting = cluster, false
		inUse, bytes = inUse+1, bytes+f.size
		if problem != "" {
			problems = append(problems, fmt.Errorf("mmv file %s: %s", f.name, problem))
		}
	}
	return problems
}

// inUse lists the files in use by cluster.
func (m *mmvFiles) inUse() []*mmvFile {
	var out []*mmvFile
	for _, f := range m.files {
		if f.cluster != 0 {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].cluster < out[b].cluster })
	return out
}

// The gaps between changes of the metrics served: each change makes
// every pmcd client walk the names again and the engine rebuild the
// schema, so a writer that flaps costs one change a mmvChangeGapMax at
// most.
const (
	mmvChangeGapMin = 2 * time.Second
	mmvChangeGapMax = 64 * time.Second
)

// mmvPace spaces the changes of the metrics served. A change applies at
// once when none applied lately; one that follows the last within twice
// the gap doubles the gap, up to mmvChangeGapMax; a later one takes it
// back to mmvChangeGapMin. The next change waits for the gap.
type mmvPace struct {
	gap     time.Duration // from the last change to the earliest next one
	applied time.Time     // the last change; zero before the first
	told    time.Time     // the end of the last hold reported
}

// hold says whether a change at now waits, and, once a hold, the problem
// that says so.
func (p *mmvPace) hold(now time.Time) (bool, error) {
	if p.applied.IsZero() {
		return false, nil
	}
	due := p.applied.Add(p.gap)
	if !now.Before(due) {
		return false, nil
	}
	if due.Equal(p.told) {
		return true, nil
	}
	p.told = due
	return true,
		fmt.Errorf("mmv: the files' metrics changed again within %d s; the change applies at %s "+
			"(changes are held back while they come fast)",
			p.gap/time.Second, due.Format("15:04:05"))
}

// apply records a change applied at now.
func (p *mmvPace) apply(now time.Time) {
	if !p.applied.IsZero() && now.Sub(p.applied) < 2*p.gap {
		p.gap = min(2*p.gap, mmvChangeGapMax)
	} else {
		p.gap = mmvChangeGapMin
	}
	p.applied = now
}
