package mmvfiles

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// mmvMaxEntries is the default entries limit: the directory entries a
// scan looks at, of any kind, so a directory of junk costs at most this
// many a scan.
const mmvMaxEntries = 16384

// mmvDirChunk is how many entries one read of the directory asks for.
const mmvDirChunk = 1024

// mmvNamedRefusals bounds the refused entries told by name: past them,
// one line says there are more.
const mmvNamedRefusals = mmvSpareEntries

// mmvRefusal is why an entry is refused, and the listing that last saw
// it.
type mmvRefusal struct {
	why     string
	listing uint64
}

// mmvListing is the directory as one scan sees it.
type mmvListing struct {
	names  []string // the regular files of PMNS names, sorted
	chosen []string // those the scan looks at, sorted
}

func (l *mmvListing) has(name string) bool {
	_, ok := slices.BinarySearch(l.names, name)
	return ok
}

func (l *mmvListing) chose(name string) bool {
	_, ok := slices.BinarySearch(l.chosen, name)
	return ok
}

// list reads the directory, at most the entries limit, without a stat of
// each (the entry's type comes with it), and chooses the files the scan
// looks at. Files are regular files not hidden (writers and editors use
// dot names for files in the making) of PMNS names; other entries are
// refused once each.
func (m *mmvFiles) list(problems []error) (mmvListing, []error) {
	entries, capped, err := readDirCapped(m.dir, m.lim.entries)
	problems = m.tellListing(err, capped, problems)
	var l mmvListing
	l.names, problems = m.candidates(entries, problems)
	if capped {
		l.names = m.withUnseenInUse(l.names)
	}
	l.chosen, problems = m.choose(l.names, problems)
	return l, problems
}

// tellListing reports a directory that cannot be read or has more
// entries than a scan looks at, once until that changes.
func (m *mmvFiles) tellListing(err error, capped bool, problems []error) []error {
	text := ""
	switch {
	case err != nil:
		text = fmt.Sprintf("mmv directory %s: %v", m.dir, err)
	case capped:
		text = fmt.Sprintf("mmv directory %s: %d entries looked at, the "+
			"limit; any others are not, but for the files in use",
			m.dir, m.lim.entries)
	}
	if text != "" && text != m.listFail {
		problems = append(problems, errors.New(text))
	}
	m.listFail = text
	return problems
}

// candidates are the entries' names that may be files, sorted; the
// others are refused, each told once while it stays, at most
// mmvNamedRefusals by name.
func (m *mmvFiles) candidates(entries []os.DirEntry, problems []error) ([]string, []error) {
	m.listings++
	names := make([]string, 0, len(entries))
	unnamed := false
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if why := mmvRefusalOf(name, e.Type()); why == "" {
			names = append(names, name)
		} else if !m.refuseEntry(name, why, &problems) {
			unnamed = true
		}
	}
	for name, r := range m.refused {
		if r.listing != m.listings {
			delete(m.refused, name)
		}
	}
	if unnamed && !m.unnamed {
		problems = append(problems,
			fmt.Errorf("mmv directory %s: more than %d entries "+
				"are not regular files or have no PMNS name; "+
				"the others are ignored unnamed",
				m.dir, mmvNamedRefusals))
	}
	m.unnamed = unnamed
	sort.Strings(names)
	return names, problems
}

// refuseEntry tells why an entry is refused, once while it stays; false
// when the entries named are already mmvNamedRefusals.
func (m *mmvFiles) refuseEntry(name, why string, problems *[]error) bool {
	r, known := m.refused[name]
	if !known && len(m.refused) >= mmvNamedRefusals {
		return false
	}
	if r.why != why {
		*problems = append(*problems, fmt.Errorf("mmv file %s: %s, ignored", name, why))
	}
	m.refused[name] = mmvRefusal{why, m.listings}
	return true
}

// withUnseenInUse adds to a listing cut at the entries limit the files in
// use it did not reach, while they are regular files, so that no number
// of entries pushes them out.
func (m *mmvFiles) withUnseenInUse(names []string) []string {
	var unseen []string
	for _, f := range m.inUse() {
		if _, seen := slices.BinarySearch(names, f.name); seen {
			continue
		}
		if st, err := os.Lstat(filepath.Join(m.dir, f.name)); err == nil && st.Mode().IsRegular() {
			unseen = append(unseen, f.name)
		}
	}
	if len(unseen) == 0 {
		return names
	}
	names = append(names, unseen...)
	sort.Strings(names)
	return names
}

// choose takes at most the files limit and the spare entries of names:
// the files in use first, so that no number of other names pushes them
// out, then as many others, in name order (pmdammv's) from where the
// last scan stopped, so that files that never become usable cannot keep
// a new one from being looked at. More files than that is told once
// until there are fewer again.
func (m *mmvFiles) choose(names []string, problems []error) ([]string, []error) {
	limit := m.lim.files + mmvSpareEntries
	crowded := len(names) > limit
	if crowded && !m.crowded {
		problems = append(problems,
			fmt.Errorf("mmv directory %s: more than %d files; a scan "+
				"looks at %d: the files in use, and the others in turn",
				m.dir, limit, limit))
	}
	m.crowded = crowded
	if !crowded {
		return names, problems
	}
	chosen := make([]string, 0, limit)
	var others []string
	for _, name := range names {
		if m.inUseAs(name) {
			chosen = append(chosen, name)
		} else {
			others = append(others, name)
		}
	}
	chosen = append(chosen, m.inTurn(others, limit-len(chosen))...)
	sort.Strings(chosen)
	return chosen, problems
}

// inTurn takes n of others (sorted), starting after the name the last
// scan stopped at, round the list.
func (m *mmvFiles) inTurn(others []string, n int) []string {
	n = min(n, len(others))
	start, _ := slices.BinarySearch(others, m.turn)
	if m.turn != "" && start < len(others) && others[start] == m.turn {
		start++
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, others[(start+i)%len(others)])
	}
	if n > 0 {
		m.turn = out[n-1]
	}
	return out
}

// inUseAs says a file of that name is in use.
func (m *mmvFiles) inUseAs(name string) bool {
	f := m.files[name]
	return f != nil && f.cluster != 0
}

// readDirCapped reads the entries of dir in chunks, at most max; capped
// says there may be more.
func readDirCapped(dir string, max int) (entries []os.DirEntry, capped bool, err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	defer d.Close()
	for len(entries) < max {
		chunk, err := d.ReadDir(min(mmvDirChunk, max-len(entries)))
		entries = append(entries, chunk...)
		if errors.Is(err, io.EOF) {
			return entries, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	return entries, true, nil
}

// mmvRefusalOf says why an entry is not opened, or "" when it may be.
func mmvRefusalOf(name string, mode os.FileMode) string {
	if !mode.IsRegular() {
		return "not a regular file"
	}
	if !validPMNSComponent(name) {
		return "its name is no PMNS name (a letter, then letters, digits and _)"
	}
	if name == mmvControlName {
		return "its name is the agent's own (hostcache.mmv.control)"
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
