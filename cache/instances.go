package cache

import (
	"encoding/json"
	"strings"
)

// Instance is one member of an instance domain.
type Instance struct {
	ID     uint32
	Name   string
	Labels []Label // sorted by name; metadata such as a disk's rotational flag
}

// Label is a PCP label: a name and its JSON value text ("true", "\"ixgbe\"").
type Label struct {
	Name  string
	Value string
}

// StringLabel makes a label whose value is a JSON string.
func StringLabel(name, value string) Label {
	text, _ := json.Marshal(value) // a string always marshals
	return Label{Name: name, Value: string(text)}
}

// Instances is an immutable instance domain table with lookups both ways.
type Instances struct {
	list   []Instance
	byID   map[uint32]int
	byName map[string]int
	byWord map[string]int // first space-separated word, when unambiguous
}

// NewInstances builds a table; list order is the order clients see.
func NewInstances(list []Instance) *Instances {
	in := &Instances{
		list:   list,
		byID:   make(map[uint32]int, len(list)),
		byName: make(map[string]int, len(list)),
		byWord: make(map[string]int, len(list)),
	}
	for i, x := range list {
		in.byID[x.ID] = i
		in.byName[x.Name] = i
		word, _, _ := strings.Cut(x.Name, " ")
		if _, dup := in.byWord[word]; dup {
			in.byWord[word] = -1
		} else {
			in.byWord[word] = i
		}
	}
	return in
}

// All returns the instances in order. Callers must not modify it.
func (in *Instances) All() []Instance { return in.list }

// Len returns the number of instances.
func (in *Instances) Len() int { return len(in.list) }

// Name returns the name of instance id.
func (in *Instances) Name(id uint32) (string, bool) {
	i, ok := in.byID[id]
	if !ok {
		return "", false
	}
	return in.list[i].Name, true
}

// Lookup finds an instance id by name. As PCP's pmdaInstance does, a name
// without a space also matches an instance whose name starts with that word
// ("1" finds "1 minute"), so users may type the short form.
func (in *Instances) Lookup(name string) (uint32, bool) {
	if i, ok := in.byName[name]; ok {
		return in.list[i].ID, true
	}
	if strings.Contains(name, " ") {
		return 0, false
	}
	if i, ok := in.byWord[name]; ok && i >= 0 {
		return in.list[i].ID, true
	}
	return 0, false
}
