package mmv

import (
	"bytes"
	"encoding/json"
	"io"
)

// labelKey is what a label attaches to and its name, to refuse a repeat.
type labelKey struct {
	kind     LabelKind
	identity uint32
	inst     int32
	name     string
}

func (p *parser) labels() error {
	s := &p.secs[secLabels]
	seen := make(map[labelKey]int64, s.count)
	for k := int64(0); k < s.count; k++ {
		rec := s.off + k*labelSize
		l, err := p.label(rec)
		if err != nil {
			return err
		}
		key := labelKey{l.Kind, l.Identity, l.Instance, l.Name}
		if first, dup := seen[key]; dup {
			return formatErr(rec, "label %q repeats the label at %d", l.Name, first)
		}
		seen[key] = rec
		p.f.Labels = append(p.f.Labels, l)
	}
	return nil
}

// label reads the label record at rec: flags, identity, instance and a
// 244-byte JSON payload {"name":value}, as libpcp_mmv writes it.
func (p *parser) label(rec int64) (Label, error) {
	flags, _ := u32(p.data, rec)
	ident, _ := u32(p.data, rec+4)
	inst, _ := u32(p.data, rec+8)
	l := Label{Kind: LabelKind(flags &^ labelOptional), Optional: flags&labelOptional != 0,
		Identity: ident, Instance: int32(inst)}
	if err := p.labelTarget(&l, rec); err != nil {
		return l, err
	}
	text, ok := cstring(p.data[rec+12 : rec+12+labelMax])
	if !ok {
		return l, formatErr(rec+12, "label has no NUL in its %d bytes", labelMax)
	}
	name, value, err := labelPair(text)
	if err != nil {
		return l, formatErr(rec+12, "label %q: %v", text, err)
	}
	l.Name, l.Value = name, value
	return l, nil
}

// labelTarget checks that the label names something the file defines.
func (p *parser) labelTarget(l *Label, rec int64) error {
	if l.Kind != LabelInstances && l.Instance != NoInstance {
		return formatErr(rec+8, "label of kind %#x names instance %d", uint32(l.Kind), l.Instance)
	}
	switch l.Kind {
	case LabelCluster:
		if l.Identity != p.f.Cluster {
			return formatErr(rec+4, "cluster label for cluster %d, file's is %d", l.Identity, p.f.Cluster)
		}
		return nil
	case LabelItem:
		for _, m := range p.f.Metrics {
			if m.Item == l.Identity {
				return nil
			}
		}
		return formatErr(rec+4, "label for item %d, which no metric has", l.Identity)
	case LabelIndom, LabelInstances:
		return p.labelIndom(l, rec)
	}
	return formatErr(rec, "label flags %#x: want one of indom, cluster, item, instances", uint32(l.Kind))
}

func (p *parser) labelIndom(l *Label, rec int64) error {
	for _, d := range p.f.Indoms {
		if d.Serial != l.Identity {
			continue
		}
		if l.Kind == LabelIndom {
			return nil
		}
		for _, in := range d.Instances {
			if in.ID == l.Instance {
				return nil
			}
		}
		return formatErr(rec+8, "label for instance %d, which indom %d lacks", l.Instance, d.Serial)
	}
	return formatErr(rec+4, "label for indom %d, which the file does not define", l.Identity)
}

// labelPair reads {"name":value}: one name, of a letter then letters,
// digits and '_' as libpcp_mmv requires, and a JSON value.
func labelPair(text []byte) (name, value string, err error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		return "", "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", "", errText("text after the JSON object")
	}
	if len(obj) != 1 {
		return "", "", errText("want exactly one name in the object")
	}
	for name, raw := range obj {
		if !validLabelName(name) {
			return "", "", errText("name: want a letter, then letters, digits and _")
		}
		return name, string(raw), nil
	}
	return "", "", nil
}

func validLabelName(name string) bool {
	if name == "" || !isLetter(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

type errText string

func (e errText) Error() string { return string(e) }
