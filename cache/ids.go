package cache

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/regularfile"
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
//     high-water mark "next=N" of its header, so ids of vanished devices,
//     even those whose lines were lost, are not reused. The mark written
//     is never below an id given; it comes down only from a block marked
//     taken (below) to the next id, once every id given is in the file.
//   - A sequential id is handed out only once a written file keeps it
//     from reuse: a new name that the file's mark does not cover writes
//     the file first, as the user the agent runs as at that moment, with
//     the name and a mark above its id (with deferred saving, above a
//     block the rest of the sample may hand out without a write). A save
//     that fails afterwards can cost those names their ids at a restart,
//     never give their ids to other names: a restart starts at the mark.
//   - While the file cannot be written (a read-only directory, a user that
//     may not write it), a new name gets an id from the upper range, made
//     from a hash of its name: the same name gets the same id after a
//     restart while the file still cannot be written, and sequential ids
//     never fall in that range. It is saved with the rest once the file
//     can be. With deferred saving, a failed write is tried again by the
//     sample's save, so the first new name of the next sample is the first
//     to learn whether the file can now be written.
//   - A file that exists but cannot be read (not a regular file, too large,
//     unreadable) is never overwritten, and every new name gets an id from
//     the upper range: the ids it holds are unknown.
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
	// onDisk is the mark a restart would start sequential ids from, as the
	// file was last read or written: ids below it are safe from reuse.
	onDisk uint32
	// unreadable is set when the file exists but could not be read.
	unreadable bool
	// held is set when a write failed during a sample: the sample's other
	// new names get ids from the hash range without another try.
	held  bool
	dirty bool
	// deferSave leaves writing to Save (called once per sample by whoever
	// owns an IDMaps), so a host that brings thousands of new devices at
	// once costs a few writes, not one per device.
	deferSave bool
	// checked is when SaveAll last looked for a deleted file: a look is a
	// stat, and SaveAll runs after every collector's sample.
	checked time.Time
	// format reads and writes the file; nil is hostcache's own format.
	format idFormat
}

// idFormat is an id file format other than hostcache's own (pmdacache.go
// has libpcp_pmda's). The rules above hold whatever the format.
type idFormat interface {
	// parse reads a file's text into m through m.reserve and m.claim, and
	// returns its problems as "LINE: what".
	parse(m *IDMap, data string) []string
	// text is the file holding names (sorted by id) with the mark given.
	text(ids map[string]uint32, names []string, mark uint32) string
	// keeps says whether name can be written to the file; a name that
	// cannot gets an id from the upper range, like a name that cannot be
	// saved.
	keeps(name string) bool
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
	// idReserveBlock is how many sequential ids past the first new one a
	// deferred map's write marks taken, so a sample that brings thousands
	// of devices costs a few writes.
	idReserveBlock = 1024
)

// LoadIDMap reads the map saved at path ("" keeps it in memory only). A
// missing file starts empty; damage is repaired line by line and reported
// to warn: losing a remembered id is never fatal, reusing one never done.
func LoadIDMap(path string, warn func(error)) *IDMap {
	return loadIDMap(path, warn, nil)
}

// loadIDMap reads the map saved at path in the format given.
func loadIDMap(path string, warn func(error), format idFormat) *IDMap {
	m := &IDMap{path: path, ids: map[string]uint32{}, used: map[uint32]bool{}, owner: map[uint32]string{},
		warn: newRateLimited(warn), format: format}
	if path == "" {
		return m
	}
	data, err := regularfile.Read(path, maxIDFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
	case err != nil:
		m.unreadable = true
		m.warn.say(fmt.Errorf(
			"instance ids: %w; it is left as it is, and new names get ids made from their names", err))
	default:
		if problems := m.parseFile(string(data)); len(problems) > 0 {
			if len(problems) > 5 {
				problems = append(problems[:5],
					fmt.Sprintf("and %d more damaged lines", len(problems)-5))
			}
			m.warn.say(fmt.Errorf("instance ids in %s repaired: line %s", path,
				strings.Join(problems, "; line ")))
		}
	}
	m.onDisk = m.next
	return m
}

// maxIDFileSize bounds what is read of an id file.
const maxIDFileSize = 64 << 20

// parseFile reads the file in its format.
func (m *IDMap) parseFile(data string) []string {
	if m.format != nil {
		return m.format.parse(m, data)
	}
	return m.parse(data)
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
	idText, name, _ := strings.Cut(line, " ")
	id, err := strconv.ParseUint(idText, 10, 31)
	if err != nil {
		return fmt.Sprintf("no id in %.60q", line)
	}
	return m.claim(uint32(id), name)
}

// claim gives name the id read from a file's line, and says what is wrong
// with the line; name is "" when the line has an id only.
func (m *IDMap) claim(id uint32, name string) string {
	m.reserve(id) // whatever else is wrong, this id is taken
	switch old, dup := m.ids[name]; {
	case name == "":
		return fmt.Sprintf("no name for id %d", id)
	case dup:
		return fmt.Sprintf("%q repeated: it keeps id %d", name, old)
	}
	if other, taken := m.owner[id]; taken {
		return fmt.Sprintf("id %d also given to %q: %q will get a new one", id, other, name)
	}
	m.ids[name], m.owner[id] = id, name
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
	if m.format == nil || m.format.keeps(name) {
		if id, ok := m.giveSequential(name); ok {
			return id
		}
	}
	id := m.hashID(name)
	m.give(name, id)
	return id
}

// Forget drops name from the map, for domains whose names never return
// (an IPC object's id is made anew at every create): its line leaves the
// file at the next save, and its id is never given again, since the
// sequential ids only grow and the mark the file keeps says so. The map
// and its file then hold the names that exist, not every name ever seen.
func (m *IDMap) Forget(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id, ok := m.ids[name]
	if !ok {
		return
	}
	delete(m.ids, name)
	delete(m.owner, id)
	if id < hashIDBase && id < m.next {
		delete(m.used, id) // below next: never handed out again
	}
	m.dirty = true
}

// give records id as name's, to be saved.
func (m *IDMap) give(name string, id uint32) {
	m.ids[name], m.owner[id] = id, name
	m.reserve(id)
	m.dirty = true
}

// giveSequential gives name the next sequential id if the file keeps it
// from reuse, writing the file first when its mark does not cover the id
// yet (see the rules above). It gives nothing when the file cannot be
// written.
func (m *IDMap) giveSequential(name string) (uint32, bool) {
	for m.used[m.next] {
		m.next++
	}
	id := m.next
	switch {
	case m.path == "":
		m.give(name, id)
		return id, true
	case id >= hashIDBase || m.unreadable || m.held:
		return 0, false
	case id < m.onDisk:
		m.give(name, id)
		if !m.deferSave {
			m.saveLocked()
		}
		return id, true
	}
	wasDirty := m.dirty
	m.give(name, id)
	mark := id + 1
	if m.deferSave {
		mark = min(mark+idReserveBlock, hashIDBase)
	}
	if err := m.write(mark); err != nil {
		delete(m.ids, name)
		delete(m.owner, id)
		delete(m.used, id)
		m.next, m.dirty = id, wasDirty
		m.held = m.deferSave
		m.warnSave(err)
		return 0, false
	}
	return id, true
}

// hashID makes an id of the upper range from name, the first free one
// from its hash on.
func (m *IDMap) hashID(name string) uint32 {
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
	m.held = false
	if m.path == "" || m.unreadable {
		return
	}
	if !m.dirty {
		if _, err := os.Stat(m.path); err == nil || len(m.ids) == 0 {
			return
		}
	}
	if err := m.write(m.next); err != nil {
		m.warnSave(err)
	}
}

func (m *IDMap) warnSave(err error) {
	m.warn.say(fmt.Errorf(
		"saving instance ids: %w; new names get ids made from their names until it can be written", err))
}

// write rewrites the file atomically with the header mark given: a crash
// leaves the old file or the new one, and the new one is on disk before
// its name is.
func (m *IDMap) write(mark uint32) error {
	names := make([]string, 0, len(m.ids))
	for name := range m.ids {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return m.ids[names[i]] < m.ids[names[j]] })
	text := m.fileText(names, mark)
	dir := filepath.Dir(m.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := m.path + ".tmp"
	if err := writeSynced(tmp, text); err != nil {
		return err
	}
	if err := os.Rename(tmp, m.path); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(dir)
	m.onDisk, m.dirty = mark, false
	return nil
}

// fileText is the file holding names (sorted by id) with the mark given,
// in the map's format.
func (m *IDMap) fileText(names []string, mark uint32) string {
	if m.format != nil {
		return m.format.text(m.ids, names, mark)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d next=%d\n", idFileMagic, idFileVersion, mark)
	for _, name := range names {
		fmt.Fprintf(&b, "%d %s\n", m.ids[name], name)
	}
	return b.String()
}

// writeSynced writes a new file at path and flushes it to disk. A file
// left there before (by a crash, perhaps with other permissions) is
// removed first, so it cannot make the write fail.
func writeSynced(path, text string) error {
	os.Remove(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// syncDir flushes a directory's entries, so a rename in it survives a
// crash. It is best effort: the rename is done whatever this says.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// IDMaps keeps the id maps of one agent so they can be saved together,
// after each sample, instead of on every new instance.
type IDMaps struct {
	mu   sync.Mutex
	maps []*IDMap
}

// Load loads a map whose saving is deferred to SaveAll.
func (r *IDMaps) Load(path string, warn func(error)) *IDMap {
	return r.load(path, warn, nil)
}

// load loads a deferred map in the format given.
func (r *IDMaps) load(path string, warn func(error), format idFormat) *IDMap {
	m := loadIDMap(path, warn, format)
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
	m.held = false
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
