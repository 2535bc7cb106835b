package pcpenc

import "fmt"

// Label types (PM_LABEL_*): the kind of ident a label set belongs to,
// also the low bits of each of its labels' flags.
const (
	LabelContext   = 0x01
	LabelDomain    = 0x02
	LabelInDom     = 0x04
	LabelCluster   = 0x08
	LabelItem      = 0x10
	LabelInstances = 0x20
	// LabelOptional is the flag bit (PM_LABEL_OPTIONAL) of a label that
	// describes rather than identifies.
	LabelOptional = 0x80
)

// Limits of a label set's index fields: a name's length has 8 bits, a
// value's length and every offset 16. PCP keeps a name under 255 bytes.
const (
	maxNameLen = 0xff
	maxJSONLen = 0xffff
)

// IndexEntryLen is the size of one label's index entry.
const IndexEntryLen = 8

// Label is one label: a name, its raw JSON value text (a string keeps its
// quotes), and whether it is optional.
type Label struct {
	Name, Value string
	Optional    bool
}

// LabelJSON builds a label set's JSON object, {"a":1,"b":"x"}, and each
// label's index entry: name offset (16 bits) and length (8), flags (8),
// value offset and length (16 each), offsets into the JSON. Each flags
// byte is typ (the set's PM_LABEL_* type), plus LabelOptional where the
// label is optional. Labels must be sorted by name with no duplicates, as
// PCP merges label sets by walking them in order. No labels give no JSON.
func LabelJSON(labels []Label, typ int32) (json, index []byte, err error) {
	if len(labels) == 0 {
		return nil, nil, nil
	}
	json = append(json, '{')
	for i, l := range labels {
		if err := checkLabel(labels, i); err != nil {
			return nil, nil, err
		}
		if i > 0 {
			json = append(json, ',')
		}
		json, index = appendLabel(json, index, l, labelFlags(l, typ))
	}
	json = append(json, '}')
	if len(json) >= maxJSONLen {
		return nil, nil, fmt.Errorf("label set of %d bytes too long", len(json))
	}
	return json, index, nil
}

// checkLabel checks label i's lengths and its place after label i-1.
func checkLabel(labels []Label, i int) error {
	l := labels[i]
	if len(l.Name) >= maxNameLen || len(l.Value) >= maxJSONLen {
		return fmt.Errorf("label %q too long", l.Name)
	}
	if i == 0 {
		return nil
	}
	switch prev := labels[i-1].Name; {
	case l.Name == prev:
		return fmt.Errorf("label %q appears twice", l.Name)
	case l.Name < prev:
		return fmt.Errorf("label %q comes after %q: labels must be sorted by name", l.Name, prev)
	}
	return nil
}

func labelFlags(l Label, typ int32) byte {
	if l.Optional {
		return byte(typ) | LabelOptional
	}
	return byte(typ)
}

// appendLabel appends "name":value to json and the label's index entry to
// index. The caller checks the set's total length, which bounds every
// offset to 16 bits.
func appendLabel(json, index []byte, l Label, flags byte) ([]byte, []byte) {
	nameOff := len(json) + 1
	json = append(json, '"')
	json = append(json, l.Name...)
	json = append(json, '"', ':')
	valueOff := len(json)
	json = append(json, l.Value...)
	index = append(index, byte(nameOff>>8), byte(nameOff), byte(len(l.Name)), flags,
		byte(valueOff>>8), byte(valueOff), byte(len(l.Value)>>8), byte(len(l.Value)))
	return json, index
}
