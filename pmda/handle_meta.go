package pmda

import "github.com/pmdahostcache/pmdahostcache/cache"

func (s *Server) handleDesc(h Header, pdu []byte) ([]byte, error) {
	var q DescReq
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	d, ok := s.metricOf(q.PMID)
	if !ok {
		return nil, ErrPMID
	}
	reply := Desc{PMID: q.PMID, Type: int32(d.Type), InDom: s.wireInDom(d.InDom),
		Sem: int32(d.Sem), Units: uint32(d.Units)}
	return reply.Append(s.out[:0]), nil
}

// handleInstance lists an instance domain, names one instance, or finds
// one name's id, from the current snapshot.
func (s *Server) handleInstance(h Header, pdu []byte) ([]byte, error) {
	var q InstanceReq
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	if err := s.refuseContainer(h); err != nil {
		return nil, err
	}
	id, ok := s.indomOf(q.InDom)
	if !ok {
		return nil, ErrInDom
	}
	// pmdaproc lists its processes only to a client pmcd named a user for.
	desc, _ := s.cfg.Front.Schema().InDom(id)
	if desc.Access != cache.AccessAll && !s.creds.credentials(h.From).Known {
		return nil, ErrPermission
	}
	members := s.membersOf(id, h.From)
	// The members as of now, as a fetch's values: a process started a
	// moment ago is found, one exited is not (pmdaproc lists /proc at
	// each request too).
	var present *cache.Present
	if src, ok := s.cfg.Front.Schema().SourceOfInDom(members); ok {
		present = s.cfg.Front.Freshen([]int{src}, s.cfg.Now())
	}
	in, _ := s.cfg.Front.Load().InDom(members)
	switch {
	case q.Name != "":
		inst, ok := in.Lookup(q.Name)
		if alias, typed := aliasOf(desc, q.Name); !ok && typed {
			inst, ok = in.Lookup(alias)
		}
		if !ok || !present.Has(members, inst) {
			return nil, ErrInst
		}
		return AppendInstance(s.out[:0], q.InDom, []InstanceEntry{{Inst: inst}}), nil
	case q.Inst != InstNull:
		name, ok := in.Name(q.Inst)
		if !ok || !present.Has(members, q.Inst) {
			return nil, ErrInst
		}
		return AppendInstance(s.out[:0], q.InDom, []InstanceEntry{{Inst: InstNull, Name: name}}), nil
	}
	all := in.All()
	entries := make([]InstanceEntry, 0, len(all))
	for _, x := range all {
		if present.Has(members, x.ID) {
			entries = append(entries, InstanceEntry{Inst: x.ID, Name: x.Name})
		}
	}
	return AppendInstance(s.out[:0], q.InDom, entries), nil
}

// membersOf is the domain whose members client from lists as domain id:
// a client that sees threads lists the threads in the processes' place.
func (s *Server) membersOf(id cache.InDomID, from int32) cache.InDomID {
	if s.cfg.Controls.Threads(from) {
		if view, ok := s.cfg.Front.Schema().ThreadInDom(id); ok {
			return view
		}
	}
	return id
}

// aliasOf is the name the instance domain's alias gives name, if any.
func aliasOf(desc *cache.InDomDesc, name string) (string, bool) {
	if desc == nil || desc.Alias == nil {
		return "", false
	}
	return desc.Alias(name)
}

func (s *Server) handleText(h Header, pdu []byte) ([]byte, error) {
	var q TextReq
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	text, ok := s.textOf(q.Ident, q.Type&TextInDom != 0, q.Type&TextHelp != 0)
	if !ok {
		return nil, ErrText
	}
	return AppendText(s.out[:0], q.Ident, text), nil
}

// textOf is the help of a PMID or InDom the agent serves, and whether it
// has one: the source's by the identifier itself where it answers so
// (WireTexts; an empty text there is that agent's answer), else by what
// the identifier names (an empty text there is none).
func (s *Server) textOf(ident uint32, indom, long bool) (string, bool) {
	if s.cfg.Texts == nil {
		return "", false
	}
	var name string
	var id cache.InDomID
	if indom {
		var known bool
		if id, known = s.indomOf(ident); !known {
			return "", false
		}
	} else {
		d, known := s.metricOf(ident)
		if !known {
			return "", false
		}
		name = d.Name
	}
	if w, ok := s.cfg.Texts.(WireTexts); ok {
		if text, ok := w.WireText(ident, indom, long); ok {
			return text, true
		}
	}
	var text string
	var ok bool
	if indom {
		text, ok = s.cfg.Texts.InDomText(id, long)
	} else {
		text, ok = s.cfg.Texts.MetricText(name, long)
	}
	return text, ok && text != ""
}

// handleLabel answers label requests. The domain carries the agent's name;
// an indom its own labels (pmdalinux's where the domain is the same); an
// item the collector that samples it. The collector is an item label, not
// a cluster label, because pmproxy's /metrics keeps item labels only.
// Context labels are pmcd's.
func (s *Server) handleLabel(h Header, pdu []byte) ([]byte, error) {
	var q LabelReq
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	var sets []LabelSet
	switch q.Type {
	case LabelDomain:
		sets = []LabelSet{{Inst: InstNull, Labels: []Label{{Name: "agent", Value: quote(s.cfg.Name)}}}}
	case LabelInDom:
		if in, ok := s.indomDesc(q.Ident); ok {
			if ls := s.labelsOut(in.Labels); len(ls) > 0 {
				sets = []LabelSet{{Inst: InstNull, Labels: ls}}
			}
		}
	case LabelItem:
		if d, ok := s.metricOf(q.Ident); ok {
			sets = []LabelSet{{Inst: InstNull, Labels: s.itemLabels(d)}}
		}
	case LabelCluster:
	case LabelInstances:
		sets = s.instanceLabelSets(q.Ident, h.From)
	default:
		return nil, ErrType
	}
	return AppendLabel(s.out[:0], q.Ident, q.Type, sets)
}

// itemLabels are a metric's own labels and the collector that samples it.
func (s *Server) itemLabels(d *cache.Desc) []Label {
	return s.labelsOut(s.cfg.Front.Schema().ItemLabels(d))
}

// labelsOut converts a metric's or instance domain's labels for the wire,
// without the collector's when the server answers with their own only.
func (s *Server) labelsOut(ls []cache.Label) []Label {
	if !s.cfg.OwnLabelsOnly {
		return wireLabels(ls)
	}
	out := make([]Label, 0, len(ls))
	for _, l := range ls {
		if l.Name != cache.CollectorLabel {
			out = append(out, Label{Name: l.Name, Value: l.Value, Optional: l.Optional})
		}
	}
	return out
}

// indomDesc returns the schema's description of a wire indom.
func (s *Server) indomDesc(indom uint32) (*cache.InDomDesc, bool) {
	id, ok := s.indomOf(indom)
	if !ok {
		return nil, false
	}
	return s.cfg.Front.Schema().InDom(id)
}

// instanceLabelSets returns one set per instance the current profile
// selects, of the members client from lists (see
// cache.InDomDesc.InstanceLabels).
func (s *Server) instanceLabelSets(indom uint32, from int32) []LabelSet {
	desc, ok := s.indomDesc(indom)
	if !ok {
		return nil
	}
	in, _ := s.cfg.Front.Load().InDom(s.membersOf(desc.ID, from))
	prof := s.profiles.last
	var sets []LabelSet
	for _, x := range in.All() {
		if prof != nil && !prof.Includes(indom, x.ID) {
			continue
		}
		sets = append(sets, LabelSet{Inst: x.ID, Labels: wireLabels(desc.InstanceLabels(x))})
	}
	return sets
}

// wireLabels converts labels for the wire.
func wireLabels(ls []cache.Label) []Label {
	out := make([]Label, 0, len(ls))
	for _, l := range ls {
		out = append(out, Label{Name: l.Name, Value: l.Value, Optional: l.Optional})
	}
	return out
}

// quote makes a JSON string of a plain name (no escaping needed for the
// names we use: letters, digits, '-', '_' and '.').
func quote(s string) string { return `"` + s + `"` }
