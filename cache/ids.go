package cache

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// IDMap gives instance names ids that never change: a name keeps its id
// across samples and PMDA restarts, and an id once given is never given to
// another name, even after its device vanished. It is persisted as a text
// file when a path is set:
//
//	hostcache-instance-ids 2 next=N
//	ID NAME
//	...
//
// The rules, whatever happens to the file:
//   - A damaged line costs only itself: every well-formed "ID NAME" line
//     keeps its id, and an id that can be read from a line otherwise
//     damaged is still never given away. A repeated name keeps its first
//     id; an id claimed by two names stays with the first, and the second
//     name is treated as new. Damage is reported, with file and line.
//   - New ids are handed out above every id the file shows and above the
//     high-water mark "next=N" of its header (never lowered), so ids of
//     vanished devices, even those whose lines were lost, are not reused.
//   - While the file cannot be written (a read-only directory), a new name
//     gets an id from the upper range, made from a hash of its name: the
//     same name gets the same id after a restart, and saved ids never fall
//     in that range. It is saved with the rest once the file can be.
//   - A file deleted while the agent runs is written again at the next save.
//   - Warnings are rate-limited: the first, then at most one a minute with
//     the number left unsaid.
type IDMap struct {
	mu    sync.Mutex
	path  string
	ids   map[string]uint32
	used  map[uint32]bool   // every id known: given, or read from the file
	owner map[uint32]string // the name holding each id
	next  uint32            // the next sequential id
	warn  *rateLimited
	// unsaved is set while the file cannot be written: new names then get
	// ids from the hash range, which survive a restart without the file.
	unsaved bool
	dirty   bool
	// deferSave leaves writing to Save (called once per sample by whoever
	// owns an IDMaps), so a host that brings thousands of new devices at
	// once costs one write, not one per device.
	deferSave bool
	// checked is when SaveAll last looked for a deleted file: a look is a
	// stat, and SaveAll runs after every collector's sample.
	checked time.Time
}

// idFileCheck is how often SaveAll looks whether an unchanged map's file
// has gone (someone cleaned the directory) and writes it again.
const idFileCheck = time.Minute

const (
	idFileMagic   = "hostcache-instance-ids"
	idFileVersion = 2
	// hashIDBase starts the range of ids made from names, for names that
	// could not be saved; sequential ids stay below it.
	hashIDBase = 1 << 30
	maxID      = 1<<31 - 1
)

// LoadIDMap reads the map saved at path ("" keeps it in memory only). A
// missing file starts empty; damage is repaired line by line and reported
// to warn: losing a remembered id is never fatal, reusing one never done.
func LoadIDMap(path string, warn func(error)) *IDMap {
	m := &IDMap{path: path, ids: map[string]uint32{}, used: map[uint32]bool{}, owner: map[uint32]string{},
		warn: newRateLimited(warn)}
	if path == "" {
		return m
	}
	data, err := readIDFile(path)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		m.warn.say(fmt.Errorf("instance ids: %w", err))
	default:
		if problems := m.parse(string(data)); len(problems) > 0 {
			if len(problems) > 5 {
				problems = append(problems[:5], fmt.Sprintf("and %d more damaged lines", len(problems)-5))
			}
			m.warn.say(fmt.Errorf("instance ids in %s repaired: line %s", path, strings.Join(problems, "; line ")))
		}
	}
	m.unsaved = !writable(path)
	return m
}

// maxIDFileSize bounds what is read of an id file.
const maxIDFileSize = 64 << 20

// readIDFile reads the id file, refusing anything but a regular file (a
// FIFO would block start-up) and anything absurdly large.
func readIDFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > maxIDFileSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxIDFileSize)
	}
	data := make([]byte, st.Size())
	n, err := f.ReadAt(data, 0)
	if n == len(data) {
		err = nil
	}
	return data[:n], err
}

// parse reads the file's lines and returns its problems as "LINE: what".
func (m *IDMap) parse(data string) []string {
	var problems []string
	lines := strings.Split(data, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		n := i + 1
		if i == 0 {
			if mark, ok := parseIDHeader(line); ok {
				m.next = max(m.next, mark)
				continue
			}
			problems = append(problems, fmt.Sprintf("%d: not an id file header, read on", n))
		}
		if p := m.parseLine(line); p != "" {
			problems = append(problems, fmt.Sprintf("%d: %s", n, p))
		}
	}
	return problems
}

// parseIDHeader reads "hostcache-instance-ids 1" or
// "hostcache-instance-ids 2 next=N".
func parseIDHeader(line string) (uint32, bool) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != idFileMagic {
		return 0, false
	}
	v, err := strconv.Atoi(f[1])
	if err != nil || v < 1 || v > idFileVersion {
		return 0, false
	}
	var mark uint32
	for _, kv := range f[2:] {
		if s, ok := strings.CutPrefix(kv, "next="); ok {
			if n, err := strconv.ParseUint(s, 10, 31); err == nil {
				mark = uint32(n)
			}
		}
	}
	return mark, true
}

// parseLine takes one "ID NAME" line, and says what is wrong with it.
func (m *IDMap) parseLine(line string) string {
	idText, name, ok := strings.Cut(line, " ")
	id, err := strconv.ParseUint(idText, 10, 31)
	if err != nil {
		return fmt.Sprintf("no id in %.60q", line)
	}
	m.reserve(uint32(id)) // whatever else is wrong, this id is taken
	switch old, dup := m.ids[name]; {
	case !ok || name == "":
		return fmt.Sprintf("no name for id %d", id)
	case dup:
		return fmt.Sprintf("%q repeated: it keeps id %d", name, old)
	}
	if other, taken := m.owner[uint32(id)]; taken {
		return fmt.Sprintf("id %d also given to %q: %q will get a new one", id, other, name)
	}
	m.ids[name], m.owner[uint32(id)] = uint32(id), name
	return ""
}

// reserve marks id as known, so it is never handed to another name.
func (m *IDMap) reserve(id uint32) {
	m.used[id] = true
	if id < hashIDBase {
		m.next = max(m.next, id+1)
	}
}

// ID returns the id of name, giving it a new id the first time.
func (m *IDMap) ID(name string) uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.ids[name]; ok {
		return id
	}
	id := m.newID(name)
	m.ids[name], m.owner[id] = id, name
	m.reserve(id)
	m.dirty = true
	if !m.deferSave {
		m.saveLocked()
	}
	return id
}

// newID picks the next sequential id, or, while the file cannot be
// written, one made from the name (see the rules above).
func (m *IDMap) newID(name string) uint32 {
	if !m.unsaved || m.path == "" {
		for m.used[m.next] {
			m.next++
		}
		return m.next
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	id := hashIDBase + h.Sum32()%(maxID-hashIDBase)
	for m.used[id] {
		id = hashIDBase + (id-hashIDBase+1)%(maxID-hashIDBase)
	}
	return id
}

// Save writes the map if it changed since the last write, or if its file
// has gone.
func (m *IDMap) Save() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saveLocked()
}

func (m *IDMap) saveLocked() {
	if m.path == "" {
		return
	}
	if !m.dirty {
		if _, err := os.Stat(m.path); err == nil || len(m.ids) == 0 {
			return
		}
	}
	if err := m.save(); err != nil {
		m.unsaved = true
		m.warn.say(fmt.Errorf("saving instance ids: %w", err))
		return
	}
	m.unsaved, m.dirty = false, false
}

// save rewrites the file atomically: a crash leaves the old or the new one.
func (m *IDMap) save() error {
	names := make([]string, 0, len(m.ids))
	for name := range m.ids {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return m.ids[names[i]] < m.ids[names[j]] })
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d next=%d\n", idFileMagic, idFileVersion, m.next)
	for _, name := range names {
		fmt.Fprintf(&b, "%d %s\n", m.ids[name], name)
	}
	if err := os.MkdirAll(filepath.Dir(m.path), 0o755); err != nil {
		return err
	}
	tmp := m.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, m.path)
}

// writable reports whether the id file's directory takes a new file.
func writable(path string) bool {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// IDMaps keeps the id maps of one agent so they can be saved together,
// after each sample, instead of on every new instance.
type IDMaps struct {
	mu   sync.Mutex
	maps []*IDMap
}

// Load loads a map whose saving is deferred to SaveAll.
func (r *IDMaps) Load(path string, warn func(error)) *IDMap {
	m := LoadIDMap(path, warn)
	m.deferSave = true
	r.mu.Lock()
	r.maps = append(r.maps, m)
	r.mu.Unlock()
	return m
}

// SaveAll writes every map that changed, and once every idFileCheck
// every map whose file has gone.
func (r *IDMaps) SaveAll(now time.Time) {
	r.mu.Lock()
	maps := r.maps
	r.mu.Unlock()
	for _, m := range maps {
		m.saveDue(now)
	}
}

// saveDue saves a changed map, and an unchanged one when its file is due
// a look.
func (m *IDMap) saveDue(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.dirty && now.Sub(m.checked) < idFileCheck && !now.Before(m.checked) {
		return
	}
	m.checked = now
	m.saveLocked()
}

// rateLimited passes on the first warning, then at most one a minute,
// saying how many were left unsaid.
type rateLimited struct {
	mu      sync.Mutex
	warn    func(error)
	last    time.Time
	dropped int
	now     func() time.Time
}

func newRateLimited(warn func(error)) *rateLimited {
	return &rateLimited{warn: warn, now: time.Now}
}

func (r *rateLimited) say(err error) {
	if r == nil || r.warn == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if !r.last.IsZero() && now.Sub(r.last) < time.Minute {
		r.dropped++
		return
	}
	if r.dropped > 0 {
		err = fmt.Errorf("%w (and %d more since the last warning)", err, r.dropped)
	}
	r.last, r.dropped = now, 0
	r.warn(err)
}
