package collector

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// mmvLimits bound what the directory can cost: files in use (at most one
// a cluster) and what one file may hold.
type mmvLimits struct {
	files int
	file  mmv.Limits
}

// defaultMMVLimits takes as many files as there are clusters.
func defaultMMVLimits() mmvLimits {
	return mmvLimits{files: mmvClusters, file: mmv.DefaultLimits()}
}

// mmvFiles is the catalog: every regular file of the directory it looks
// at, the clusters of those in use, and what the files in use publish.
type mmvFiles struct {
	dir      string
	lim      mmvLimits
	files    map[string]*mmvFile // by file name
	refused  map[string]string   // names not opened, and why (reported once)
	arrivals uint64              // the next file's arrival number
	clusters mmvClusterTable
	listFail string // the directory's last listing problem, reported once
	cat      mmvCatalog
	strBuf   []byte // the string values' buffer, reused by publish
}

// newMMVFiles catalogs dir. A files limit outside 1 to the number of
// clusters is the number of clusters.
func newMMVFiles(dir string, lim mmvLimits) *mmvFiles {
	if lim.files <= 0 || lim.files > mmvClusters {
		lim.files = mmvClusters
	}
	return &mmvFiles{dir: dir, lim: lim, files: map[string]*mmvFile{}, refused: map[string]string{}}
}

// scan looks at the directory once: new files are opened, removed and
// replaced ones dropped, changed ones re-parsed, files of processes that
// are gone dropped. changed says whether the metrics, their names or
// descriptors differ from the last scan's. Each problem names its file
// and is reported once, when it arises.
func (m *mmvFiles) scan(now time.Time) (changed bool, problems []error) {
	names, problems := m.list(problems)
	listed := make(map[string]bool, len(names))
	for _, name := range names {
		listed[name] = true
	}
	m.dropUnlisted(listed)
	for _, name := range names {
		f, problem := m.file(name)
		if problem == nil && f != nil {
			problem = f.refresh(m.lim.file)
		}
		if problem != nil {
			problems = append(problems, problem)
		}
	}
	problems = m.admit(problems)
	return m.cat.assemble(m.inUse(), &problems), problems
}

// list reads the directory's names, at most the files limit and the spare
// entries, without a stat of each (the entry's type comes with it):
// regular files not hidden (writers and editors use dot names for files
// in the making), in name order, as pmdammv takes them. Other entries are
// refused once each.
func (m *mmvFiles) list(problems []error) ([]string, []error) {
	entries, err := readDirBounded(m.dir, m.lim.files+mmvSpareEntries)
	text := ""
	if err != nil {
		text = fmt.Sprintf("mmv directory %s: %v", m.dir, err)
	} else if len(entries) == m.lim.files+mmvSpareEntries {
		text = fmt.Sprintf("mmv directory %s: more than %d entries, the rest not looked at", m.dir, len(entries))
	}
	if text != "" && text != m.listFail {
		problems = append(problems, fmt.Errorf("%s", text))
	}
	m.listFail = text
	var names []string
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		seen[name] = true
		why := mmvRefusal(name, e.Type())
		if why == "" {
			names = append(names, name)
			delete(m.refused, name)
			continue
		}
		if m.refused[name] != why {
			problems = append(problems, fmt.Errorf("mmv file %s: %s, ignored", name, why))
		}
		m.refused[name] = why
	}
	for name := range m.refused {
		if !seen[name] {
			delete(m.refused, name)
		}
	}
	sort.Strings(names)
	return names, problems
}

// readDirBounded reads at most n entries of dir.
func readDirBounded(dir string, n int) ([]os.DirEntry, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(n)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return entries, nil
}

// mmvRefusal says why an entry is not opened, or "" when it may be.
func mmvRefusal(name string, mode os.FileMode) string {
	if !mode.IsRegular() {
		return "not a regular file"
	}
	if !validPMNSComponent(name) {
		return "its name is no PMNS name (a letter, then letters, digits and _)"
	}
	return ""
}

// validPMNSComponent is one level of a PMNS name: a letter, then letters,
// digits and '_'. A file name with a dot would make levels of its own.
func validPMNSComponent(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// dropUnlisted closes the files no longer in the directory.
func (m *mmvFiles) dropUnlisted(listed map[string]bool) {
	for name, f := range m.files {
		if !listed[name] {
			m.release(f)
			f.close()
			delete(m.files, name)
		}
	}
}

// file is the entry of a listed name, opened when new or replaced. A file
// that cannot be opened is retried at each scan and reported once.
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
	}
	if f.reader != nil {
		return f, nil
	}
	r, err := mmv.Open(filepath.Join(m.dir, name), m.lim.file)
	if err != nil {
		return nil, f.refuse(-1, 0, fmt.Sprintf("cannot be opened: %v", err))
	}
	f.reader, f.fault = r, mmvFault{}
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
	inUse := 0
	for _, f := range m.files {
		switch {
		case !f.usable():
			m.release(f)
		case f.cluster != 0:
			inUse++
		default:
			waiting = append(waiting, f)
		}
	}
	sort.Slice(waiting, func(a, b int) bool { return waiting[a].arrival < waiting[b].arrival })
	for _, f := range waiting {
		if inUse >= m.lim.files {
			if !f.waiting {
				problems = append(problems, fmt.Errorf("mmv file %s: waits, %d files are in use, the limit", f.name, inUse))
			}
			f.waiting = true
			continue
		}
		cluster, problem := m.clusters.assign(f.name, f.layout.Cluster)
		f.cluster, f.waiting = cluster, false
		inUse++
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
