package pmda

import (
	"fmt"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

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
	id, ok := s.indomOf(q.InDom)
	if !ok {
		return nil, ErrInDom
	}
	in, _ := s.cfg.Front.Load().InDom(id)
	switch {
	case q.Name != "":
		inst, ok := in.Lookup(q.Name)
		if !ok {
			return nil, ErrInst
		}
		return AppendInstance(s.out[:0], q.InDom, []InstanceEntry{{Inst: inst}}), nil
	case q.Inst != InstNull:
		name, ok := in.Name(q.Inst)
		if !ok {
			return nil, ErrInst
		}
		return AppendInstance(s.out[:0], q.InDom, []InstanceEntry{{Inst: InstNull, Name: name}}), nil
	}
	all := in.All()
	entries := make([]InstanceEntry, len(all))
	for i, x := range all {
		entries[i] = InstanceEntry{Inst: x.ID, Name: x.Name}
	}
	return AppendInstance(s.out[:0], q.InDom, entries), nil
}

func (s *Server) handleText(h Header, pdu []byte) ([]byte, error) {
	var q TextReq
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	long := q.Type&TextHelp != 0
	var text string
	var ok bool
	switch {
	case s.cfg.Texts == nil:
	case q.Type&TextInDom != 0:
		if id, known := s.indomOf(q.Ident); known {
			text, ok = s.cfg.Texts.InDomText(id, long)
		}
	default:
		if d, known := s.metricOf(q.Ident); known {
			text, ok = s.cfg.Texts.MetricText(d.Name, long)
		}
	}
	if !ok || text == "" {
		return nil, ErrText
	}
	return AppendText(s.out[:0], q.Ident, text), nil
}

// handleLabel answers label requests. The domain carries the agent's name;
// a cluster names the collector that samples it. Context labels are pmcd's.
func (s *Server) handleLabel(h Header, pdu []byte) ([]byte, error) {
	var q LabelReq
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	var sets []LabelSet
	switch q.Type {
	case LabelDomain:
		sets = []LabelSet{{Inst: InstNull, Labels: []Label{{Name: "agent", Value: quote(s.cfg.Name)}}}}
	case LabelCluster:
		if src, ok := s.cfg.Front.Schema().ClusterSource(q.Ident >> 10 & 0xfff); ok && q.Ident>>22 == s.cfg.Domain {
			sets = []LabelSet{{Inst: InstNull, Labels: []Label{{Name: "collector", Value: quote(src)}}}}
		}
	case LabelInDom, LabelItem:
	case LabelInstances:
		sets = s.instanceLabelSets(q.Ident)
	default:
		return nil, ErrType
	}
	return AppendLabel(s.out[:0], q.Ident, q.Type, sets)
}

// instanceLabelSets returns one set per instance the current profile
// selects, with the labels the collector attached (possibly none).
func (s *Server) instanceLabelSets(indom uint32) []LabelSet {
	id, ok := s.indomOf(indom)
	if !ok {
		return nil
	}
	in, _ := s.cfg.Front.Load().InDom(id)
	prof := s.profiles.last
	var sets []LabelSet
	for _, x := range in.All() {
		if prof != nil && !prof.Includes(indom, x.ID) {
			continue
		}
		set := LabelSet{Inst: x.ID}
		for _, l := range x.Labels {
			// Instance labels describe the thing measured, not its identity:
			// optional, as PCP marks such extrinsic labels.
			set.Labels = append(set.Labels, Label{Name: l.Name, Value: l.Value, Optional: true})
		}
		sets = append(sets, set)
	}
	return sets
}

// quote makes a JSON string of a plain name (no escaping needed for the
// names we use: letters, digits, '-', '_' and '.').
func quote(s string) string { return `"` + s + `"` }

// handleStore applies a pmstore: pmcd sends it as a RESULT. Every value is
// checked against its metric's type before the storer sees any of them.
func (s *Server) handleStore(h Header, pdu []byte) ([]byte, error) {
	var res Result
	if err := res.Decode(pdu); err != nil {
		return nil, err
	}
	var reqs []cache.PMStoreRequest
	for _, set := range res.Sets {
		d, ok := s.metricOf(set.PMID)
		if !ok {
			return nil, ErrPMID
		}
		if set.NumVal <= 0 {
			return nil, ErrBadStore
		}
		for _, v := range set.Values {
			val, err := storeValue(d.Type, set.ValFmt, v)
			if err != nil {
				return nil, err
			}
			val.Inst = v.Inst
			reqs = append(reqs, cache.PMStoreRequest{ID: d.ID, Inst: v.Inst, Value: val})
		}
	}
	if s.cfg.PMStore == nil {
		return nil, ErrPermission
	}
	if err := s.cfg.PMStore.PMStore(reqs); err != nil {
		return nil, fmt.Errorf("%w (%v)", storeErrno(err), err)
	}
	return (&ErrorPDU{Code: 0}).Append(s.out[:0]), nil
}
