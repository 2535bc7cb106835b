package pcpenc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const typItem = LabelItem

func TestLabelJSONEncodes(t *testing.T) {
	for _, c := range []struct {
		name      string
		labels    []Label
		wantJSON  string
		wantIndex []byte
	}{
		{"no labels", nil, "", nil},
		{"one string", []Label{{Name: "agent", Value: `"sample"`}}, `{"agent":"sample"}`,
			[]byte{0, 2, 5, typItem, 0, 9, 0, 8}},
		{"optional and number", []Label{{Name: "a", Value: "1"}, {Name: "b", Value: `"x"`, Optional: true}},
			`{"a":1,"b":"x"}`,
			[]byte{0, 2, 1, typItem, 0, 5, 0, 1, 0, 8, 1, typItem | LabelOptional, 0, 11, 0, 3}},
		{"prefix sorts first", []Label{{Name: "cpu", Value: "0"}, {Name: "cpus", Value: "[0,1]"}},
			`{"cpu":0,"cpus":[0,1]}`,
			[]byte{0, 2, 3, typItem, 0, 7, 0, 1, 0, 10, 4, typItem, 0, 16, 0, 5}},
	} {
		gotJSON, gotIndex, err := LabelJSON(c.labels, typItem)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(gotJSON) != c.wantJSON || !bytes.Equal(gotIndex, c.wantIndex) {
			t.Errorf("%s: %s % x, want %s % x", c.name, gotJSON, gotIndex, c.wantJSON, c.wantIndex)
		}
	}
}

// Every index entry finds its label in the JSON again, the JSON parses,
// and only the optional labels carry the optional bit.
func TestLabelJSONIndexFindsEachLabel(t *testing.T) {
	labels := []Label{
		{Name: "device_name", Value: `"sda"`},
		{Name: "device_type", Value: `["block"]`, Optional: true},
		{Name: "numa_node", Value: "0"},
		{Name: strings.Repeat("z", maxNameLen-1), Value: `{"k":null}`, Optional: true},
	}
	const typ = LabelInstances
	js, index, err := LabelJSON(labels, typ)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, new(map[string]any)); err != nil {
		t.Errorf("%s is not JSON: %v", js, err)
	}
	if len(index) != IndexEntryLen*len(labels) {
		t.Fatalf("index of %d bytes for %d labels", len(index), len(labels))
	}
	for i, want := range labels {
		if got := decodeEntry(js, index[i*IndexEntryLen:], typ); got != want {
			t.Errorf("entry %d decodes to %+v, want %+v", i, got, want)
		}
	}
}

// decodeEntry reads one index entry back, as PCP's readers do.
func decodeEntry(js, e []byte, typ byte) Label {
	nameOff, nameLen := int(e[0])<<8|int(e[1]), int(e[2])
	valueOff, valueLen := int(e[4])<<8|int(e[5]), int(e[6])<<8|int(e[7])
	if e[3]&^LabelOptional != typ {
		return Label{Name: "flags lost the set's type"}
	}
	return Label{Name: string(js[nameOff : nameOff+nameLen]), Value: string(js[valueOff : valueOff+valueLen]),
		Optional: e[3]&LabelOptional != 0}
}

func TestLabelJSONRefuses(t *testing.T) {
	half := `"` + strings.Repeat("v", maxJSONLen/2) + `"`
	for _, c := range []struct {
		name   string
		labels []Label
		want   string
	}{
		{"unsorted", []Label{{Name: "b", Value: "1"}, {Name: "a", Value: "2"}}, `"a" comes after "b"`},
		{"longer name first", []Label{{Name: "cpus", Value: "1"}, {Name: "cpu", Value: "2"}}, "must be sorted"},
		{"duplicate", []Label{{Name: "a", Value: "1"}, {Name: "a", Value: "1"}}, `"a" appears twice`},
		{"name over 8 bits", []Label{{Name: strings.Repeat("n", maxNameLen), Value: "1"}}, `label "nnn`},
		{"value over 16 bits", []Label{{Name: "v", Value: strings.Repeat("1", maxJSONLen)}}, `"v" too long`},
		{"set over 16 bits", []Label{{Name: "a", Value: half}, {Name: "b", Value: half}}, "label set of"},
	} {
		js, index, err := LabelJSON(c.labels, typItem)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if js != nil || index != nil {
			t.Errorf("%s: %d JSON and %d index bytes returned with the error", c.name, len(js), len(index))
		}
	}
}
