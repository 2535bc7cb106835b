package cache

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// idFileVersion heads every instance id file; a file with another version
// is rebuilt rather than trusted.
const idFileVersion = "hostcache-instance-ids 1"

// IDMap gives instance names ids that never change: a name keeps its id
// across samples and PMDA restarts, and an id once given is never given to
// another name, even after its device vanished. It is persisted as a text
// file (one "id name" per line) when dir is set.
type IDMap struct {
	mu    sync.Mutex
	path  string
	ids   map[string]uint32
	next  uint32
	warn  func(error)
	dirty bool
	// deferSave leaves writing to Save (called once per sample by whoever
	// owns an IDMaps), so a host that brings thousands of new devices at
	// once costs one write, not one per device.
	deferSave bool
}

// LoadIDMap reads the map saved at path ("" keeps it in memory only). A
// missing file starts empty; a corrupt or old one is rebuilt and warn is
// told why: losing remembered ids is never fatal.
func LoadIDMap(path string, warn func(error)) *IDMap {
	m := &IDMap{path: path, ids: map[string]uint32{}, warn: warn}
	if path == "" {
		return m
	}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return m
	}
	if err == nil {
		err = m.parse(string(data))
	}
	if err != nil {
		m.ids, m.next = map[string]uint32{}, 0
		m.report(fmt.Errorf("instance ids in %s rebuilt: %w", path, err))
	}
	return m
}

func (m *IDMap) parse(data string) error {
	sc := bufio.NewScanner(strings.NewReader(data))
	if !sc.Scan() || sc.Text() != idFileVersion {
		return fmt.Errorf("not a version-1 id file")
	}
	for n := 2; sc.Scan(); n++ {
		idText, name, ok := strings.Cut(sc.Text(), " ")
		id, err := strconv.ParseUint(idText, 10, 31)
		if !ok || err != nil || name == "" {
			return fmt.Errorf("line %d malformed", n)
		}
		if _, dup := m.ids[name]; dup {
			return fmt.Errorf("line %d repeats %q", n, name)
		}
		m.ids[name] = uint32(id)
		m.next = max(m.next, uint32(id)+1)
	}
	return sc.Err()
}

func (m *IDMap) report(err error) {
	if m.warn != nil {
		m.warn(err)
	}
}

// ID returns the id of name, giving it the next unused id the first time.
func (m *IDMap) ID(name string) uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.ids[name]; ok {
		return id
	}
	id := m.next
	m.ids[name] = id
	m.next++
	m.dirty = true
	if !m.deferSave {
		m.saveLocked()
	}
	return id
}

// Save writes the map if it changed since the last write.
func (m *IDMap) Save() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saveLocked()
}

func (m *IDMap) saveLocked() {
	if !m.dirty {
		return
	}
	if err := m.save(); err != nil {
		m.report(fmt.Errorf("saving instance ids: %w", err))
		return
	}
	m.dirty = false
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

// SaveAll writes every map that changed.
func (r *IDMaps) SaveAll() {
	r.mu.Lock()
	maps := r.maps
	r.mu.Unlock()
	for _, m := range maps {
		m.Save()
	}
}

// save rewrites the file atomically: a crash leaves the old or the new one.
func (m *IDMap) save() error {
	if m.path == "" {
		return nil
	}
	names := make([]string, 0, len(m.ids))
	for name := range m.ids {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return m.ids[names[i]] < m.ids[names[j]] })
	var b strings.Builder
	b.WriteString(idFileVersion + "\n")
	for _, name := range names {
		fmt.Fprintf(&b, "%d %s\n", m.ids[name], name)
	}
	tmp := m.path + ".tmp"
	if err := os.MkdirAll(filepath.Dir(m.path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, m.path)
}
