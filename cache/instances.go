package cache

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Instance is one member of an instance domain.
type Instance struct {
	ID     uint32
	Name   string
	Labels []Label // sorted by name; metadata such as a disk's rotational flag
	// Owner owns the thing measured (a process), for AccessOwner metrics;
	// the zero value is root's.
	Owner Owner
}

// Label is a PCP label: a name and its JSON value text ("true", "\"ixgbe\"").
// Optional marks a label that describes the thing measured rather than
// identifies it (PCP's optional, extrinsic labels).
type Label struct {
	Name     string
	Value    string
	Optional bool
}

// StringLabel makes a label whose value is a JSON string.
func StringLabel(name, value string) Label {
	text, _ := json.Marshal(value) // a string always marshals
	return Label{Name: name, Value: string(text)}
}

// Instances is an immutable instance domain table with lookups both ways.
type Instances struct {
	list []Instance
	// byID finds an id's place when the list is not in id order; a list
	// in id order (the processes, by PID) is searched instead, so a table
	// of 10,000 processes holds no 2.5 MB map.
	byID   map[uint32]int // holds no pointers: not scanned by the collector
	byName nameIndex
	// byWord holds the first word of each name that has a space, -1 when
	// two names share it. Names without a space need no entry: Lookup
	// tries the whole name first, and that finds them. It is built at the
	// first lookup that needs it: few tables are ever looked up by a
	// short name.
	byWord     map[string]int
	byWordOnce sync.Once
}

// NewInstances builds a table; list order is the order clients see.
// Names are made printable here, for every collector: a control byte read
// from /proc (a NUL or newline in a mount point or a device name) is shown
// escaped, and two names that end up equal are told apart by their ids.
func NewInstances(list []Instance) *Instances {
	list = printableNames(list)
	in := &Instances{list: list, byName: newNameIndex(list)}
	if !idOrdered(list) {
		in.byID = make(map[uint32]int, len(list))
		for i, x := range list {
			in.byID[x.ID] = i
		}
	}
	return in
}

// idOrdered reports whether the ids rise strictly through list.
func idOrdered(list []Instance) bool {
	for i := 1; i < len(list); i++ {
		if list[i].ID <= list[i-1].ID {
			return false
		}
	}
	return true
}

// index is where instance id is in the list.
func (in *Instances) index(id uint32) (int, bool) {
	if in.byID != nil {
		i, ok := in.byID[id]
		return i, ok
	}
	lo, hi := 0, len(in.list)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if in.list[mid].ID < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < len(in.list) && in.list[lo].ID == id
}

// words builds byWord, once.
func (in *Instances) words() map[string]int {
	in.byWordOnce.Do(func() {
		in.byWord = map[string]int{}
		for i, x := range in.list {
			word, _, spaced := strings.Cut(x.Name, " ")
			if !spaced {
				continue
			}
			if _, dup := in.byWord[word]; dup {
				in.byWord[word] = -1
			} else {
				in.byWord[word] = i
			}
		}
	})
	return in.byWord
}

// All returns the instances in order. Callers must not modify it.
func (in *Instances) All() []Instance { return in.list }

// Len returns the number of instances.
func (in *Instances) Len() int { return len(in.list) }

// Name returns the name of instance id.
func (in *Instances) Name(id uint32) (string, bool) {
	i, ok := in.index(id)
	if !ok {
		return "", false
	}
	return in.list[i].Name, true
}

// Owner returns who owns instance id: root's zero Owner for an instance
// it does not hold, or for a nil table.
func (in *Instances) Owner(id uint32) Owner {
	if in == nil {
		return Owner{}
	}
	if i, ok := in.index(id); ok {
		return in.list[i].Owner
	}
	return Owner{}
}

// Lookup finds an instance id by name. As PCP's pmdaInstance does, a name
// without a space also matches an instance whose name starts with that word
// ("1" finds "1 minute"), so users may type the short form.
func (in *Instances) Lookup(name string) (uint32, bool) {
	if i, ok := in.byName.find(in.list, name); ok {
		return in.list[i].ID, true
	}
	if strings.Contains(name, " ") {
		return 0, false
	}
	if i, ok := in.words()[name]; ok && i >= 0 {
		return in.list[i].ID, true
	}
	return 0, false
}

// printableNames returns list with every control byte of a name escaped
// (\x00, \n, ...) and names made unique, copying list only when a name
// changes: instance names go to clients, logs and archives as text.
func printableNames(list []Instance) []Instance {
	changed := false
	seen := make(map[string]bool, len(list))
	for i := range list {
		name := list[i].Name
		if hasControl(name) {
			name = escapeControl(name)
		}
		if seen[name] {
			name = fmt.Sprintf("%s (id %d)", name, list[i].ID)
		}
		seen[name] = true
		if name != list[i].Name {
			if !changed {
				list, changed = slices.Clone(list), true
			}
			list[i].Name = name
		}
	}
	return list
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// escapeControl writes each control byte as Go and C do (\n, \t, \x00).
func escapeControl(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
