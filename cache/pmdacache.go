package cache

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// An IDMap can keep its ids in the file libpcp_pmda's instance cache keeps
// for an instance domain (pmdaCacheOp with PMDA_CACHE_LOAD and
// PMDA_CACHE_SAVE), so hostcache answering as pmdalinux continues
// pmdalinux's ids, and pmdalinux back in its place reads hostcache's:
//
//	2 0 2147483647 hostcache-next=N
//	ID STAMP NAME
//	...
//
// The header holds the format's version, the allocation mode (0: a new
// name gets the highest id plus one; 1: the lowest free id) and the
// highest id allowed. libpcp_pmda reads those three numbers and ignores
// the rest of the line, which carries hostcache's high-water mark. STAMP
// is when the line was saved with its instance present, in seconds; an
// optional key in brackets may follow it. NAME is the rest of the line.
//
// What libpcp_pmda does with such a file (load_cache, insert_cache and
// save_cache in src/libpcp_pmda/src/cache.c), and how the rules of IDMap
// hold with it:
//   - Its load stops at the first line it cannot read (a blank line, a
//     line without a name, a key without its bracket) and keeps the lines
//     before it; a header it cannot read costs the whole file. A line is
//     read into 1024 bytes, so a longer one splits into two records. Every
//     line written here is one it reads whole; a name that cannot be
//     written so (too long, a newline, a leading space or '[') gets an id
//     from the upper range and stays out of the file.
//   - After a load it gives a new name the highest id it holds plus one
//     (mode 0). pmdalinux never culls the instance domains it saves, and a
//     save writes every line loaded, so pmdalinux reuses no id whose line
//     is in the file. It ignores the mark: an id hostcache gave from a
//     block marked taken, and lost with a save that failed, can be given
//     again by pmdalinux, never by hostcache.
//   - A repeated id or name keeps its first line, as here. It matches
//     names up to their first space, so two names alike up to a space
//     keep only the first for pmdalinux.
//
// The header written is always mode 0 with the largest maximum: pmdalinux
// never changes either (no pmdaCacheResize, pmdaCacheStoreKey or
// PMDA_CACHE_REUSE), and mode 1 would hand out the ids of lost lines.
// Lines read keep their stamp (0 when they had none, which libpcp_pmda
// also reads); a new line gets the time it is first written.
// Keys are read past and not written back: pmdalinux stores none, and
// storing an instance clears its key.
type pmdaCacheFormat struct {
	stamps map[string]int64
	now    func() time.Time
}

const (
	pmdaCacheHeader = "2 0 2147483647"
	pmdaCacheMark   = "hostcache-next="
	// pmdaCacheLineMax is the longest line load_cache reads whole: its
	// buffer holds this, the newline and the terminating NUL.
	pmdaCacheLineMax = 1022
	// pmdaCacheNameMax is the longest new name written, leaving room
	// for the widest id and stamp.
	pmdaCacheNameMax = pmdaCacheLineMax - len("2147483647 ") - len("9223372036854775807 ")
)

// PMDACachePath names the file libpcp_pmda keeps instance domain
// domain.serial's ids in, below dir ($PCP_VAR_DIR/config/pmda); "" when
// dir is "" (ids kept in memory only).
func PMDACachePath(dir string, domain, serial uint32) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, fmt.Sprintf("%d.%d", domain, serial))
}

// LoadPMDACache reads instance domain domain.serial's ids from
// libpcp_pmda's file in dir, saving each new name at once.
func LoadPMDACache(dir string, domain, serial uint32, warn func(error)) *IDMap {
	return loadIDMap(PMDACachePath(dir, domain, serial), warn, newPMDACacheFormat())
}

// LoadPMDACache reads instance domain domain.serial's ids from
// libpcp_pmda's file in dir, leaving saving to SaveAll.
func (r *IDMaps) LoadPMDACache(dir string, domain, serial uint32, warn func(error)) *IDMap {
	return r.load(PMDACachePath(dir, domain, serial), warn, newPMDACacheFormat())
}

func newPMDACacheFormat() *pmdaCacheFormat {
	return &pmdaCacheFormat{stamps: map[string]int64{}, now: time.Now}
}

// parse reads the header and every line; a line's damage costs only that
// line, and the lines after it are read on, unlike libpcp_pmda's load.
func (f *pmdaCacheFormat) parse(m *IDMap, data string) []string {
	var problems []string
	lines := strings.Split(data, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		if i == 0 {
			if mark, ok := parsePMDACacheHeader(line); ok {
				m.next = max(m.next, mark)
				continue
			}
			problems = append(problems,
				"1: not a libpcp_pmda cache header (pmdalinux reads none of such a file), read on")
		}
		if p := f.parseLine(m, line); p != "" {
			problems = append(problems, fmt.Sprintf("%d: %s", i+1, p))
		}
	}
	return problems
}

// parsePMDACacheHeader reads "1 MODE" or "2 MODE MAX" with load_cache's
// bounds, and hostcache's mark if the line has one.
func parsePMDACacheHeader(line string) (uint32, bool) {
	f := strings.Fields(line)
	want := map[string]int{"1": 2, "2": 3}[firstOf(f)]
	if want == 0 || len(f) < want || (f[1] != "0" && f[1] != "1") {
		return 0, false
	}
	if want == 3 {
		if n, err := strconv.ParseInt(f[2], 10, 32); err != nil || n < 0 {
			return 0, false
		}
	}
	var mark uint32
	for _, field := range f[want:] {
		if s, ok := strings.CutPrefix(field, pmdaCacheMark); ok {
			if n, err := strconv.ParseUint(s, 10, 31); err == nil {
				mark = uint32(n)
			}
		}
	}
	return mark, true
}

func firstOf(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

// parseLine takes one "ID STAMP [KEY] NAME" line, and says what is wrong
// with it.
func (f *pmdaCacheFormat) parseLine(m *IDMap, line string) string {
	e, problem := readPMDACacheLine(line)
	if problem != "" {
		if e.hasID {
			m.reserve(e.id) // whatever else is wrong, this id is taken
		}
		return problem
	}
	if e.name != "" && !pmdaCacheWritable(e.id, e.stamp, e.name) {
		m.reserve(e.id)
		return fmt.Sprintf("name %.60q cannot be written back as libpcp_pmda reads it", e.name)
	}
	if p := m.claim(e.id, e.name); p != "" {
		return p
	}
	f.stamps[e.name] = e.stamp
	return ""
}

// pmdaCacheEntry is one line as load_cache reads it.
type pmdaCacheEntry struct {
	id    uint32
	hasID bool
	stamp int64
	name  string
}

// readPMDACacheLine splits a line where load_cache does: blanks, the id's
// digits, blanks, the stamp's digits (there may be none), blanks, a key
// in brackets if one starts there, blanks, and the name to the end. A
// line without digits at the start is damage here, where load_cache
// would read it as id 0.
func readPMDACacheLine(line string) (pmdaCacheEntry, string) {
	var e pmdaCacheEntry
	p := skipCSpace(line, 0)
	if p == len(line) {
		return e, "blank (libpcp_pmda stops reading the file here)"
	}
	q := skipDigits(line, p)
	id, err := strconv.ParseUint(line[p:q], 10, 31)
	if err != nil {
		return e, fmt.Sprintf("no id in %.60q", line)
	}
	e.id, e.hasID = uint32(id), true
	if len(line) > pmdaCacheLineMax {
		return e, fmt.Sprintf("longer than the %d bytes libpcp_pmda reads as one line", pmdaCacheLineMax)
	}
	p = skipCSpace(line, q)
	q = skipDigits(line, p)
	e.stamp, _ = strconv.ParseInt(line[p:q], 10, 64) // none or too long reads as unknown
	p = skipCSpace(line, q)
	if p < len(line) && line[p] == '[' {
		end := strings.IndexByte(line[p:], ']')
		if end < 0 {
			return e, "a key without its ']' (libpcp_pmda stops reading the file here)"
		}
		p = skipCSpace(line, p+end+1)
	}
	e.name = line[p:]
	return e, ""
}

// isCSpace is C's isspace over ASCII, which load_cache skips.
func isCSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func skipCSpace(s string, i int) int {
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	return i
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// keeps says whether a new name can be written as a line load_cache
// reads back whole, whatever its id and stamp.
func (f *pmdaCacheFormat) keeps(name string) bool {
	return len(name) <= pmdaCacheNameMax && pmdaCacheWritable(0, 0, name)
}

// pmdaCacheWritable says whether "ID STAMP NAME" is a line load_cache
// reads back whole, as that id, stamp and name.
func pmdaCacheWritable(id uint32, stamp int64, name string) bool {
	width := len(strconv.FormatUint(uint64(id), 10)) + len(strconv.FormatInt(stamp, 10)) + len(name) + 2
	return name != "" && width <= pmdaCacheLineMax && !strings.ContainsAny(name, "\n\x00") &&
		!isCSpace(name[0]) && name[0] != '['
}

// text writes the header with the mark, then a line for every name that
// can be written, in id order.
func (f *pmdaCacheFormat) text(ids map[string]uint32, names []string, mark uint32) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s%d\n", pmdaCacheHeader, pmdaCacheMark, mark)
	now := f.now().Unix()
	for _, name := range names {
		stamp, read := f.stamps[name]
		if !read {
			stamp = now
		}
		if !pmdaCacheWritable(ids[name], stamp, name) {
			continue // a name given an id from the upper range instead
		}
		f.stamps[name] = stamp
		fmt.Fprintf(&b, "%d %d %s\n", ids[name], stamp, name)
	}
	return b.String()
}
