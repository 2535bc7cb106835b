package pmda

import "strings"

// answerPMNS answers pmcd's namespace requests from the Namespace: a name
// lookup with PMNS_IDS, the other three with PMNS_NAMES.
func (s *Server) answerPMNS(h Header, pdu []byte) ([]byte, error) {
	switch h.Type {
	case TypePMNSNames:
		return s.pmnsLookup(pdu)
	case TypePMNSIDs:
		return s.pmnsNamesOf(pdu)
	case TypePMNSChild:
		return s.pmnsChildren(pdu)
	}
	return s.pmnsTraverse(pdu)
}

// pmnsLookup finds one name's PMID. pmcd sends one name at a time and
// reads exactly one PMID back, so any other count is refused (PM_ERR_IPC).
func (s *Server) pmnsLookup(pdu []byte) ([]byte, error) {
	var q PMNSNames
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	if len(q.Names) != 1 {
		return nil, ErrIPC
	}
	pmid, ok := s.cfg.Namespace.PMID(q.Names[0])
	if !ok {
		return nil, ErrName
	}
	return (&PMNSIDs{PMIDs: []uint32{pmid}}).Append(s.out[:0]), nil
}

// pmnsNamesOf names one PMID; pmcd asks for exactly one.
func (s *Server) pmnsNamesOf(pdu []byte) ([]byte, error) {
	var q PMNSIDs
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	if len(q.PMIDs) != 1 {
		return nil, ErrIPC
	}
	names, ok := s.cfg.Namespace.Names(q.PMIDs[0])
	reply := s.fitNames("names of a PMID", names, nil, false)
	if !ok || len(reply.Names) == 0 {
		return nil, ErrPMID
	}
	return reply.Append(s.out[:0]), nil
}

// pmnsChildren lists a node's children, with a status each unless pmcd
// asks for names only (subtype 0).
func (s *Server) pmnsChildren(pdu []byte) ([]byte, error) {
	var q PMNSChild
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	kids, ok := s.cfg.Namespace.Children(q.Name)
	if !ok {
		return nil, ErrName
	}
	names := make([]string, len(kids))
	var status []int32
	if q.Subtype != ChildNames {
		status = make([]int32, len(kids))
	}
	for i, k := range kids {
		names[i] = k.Name
		if status != nil && !k.Leaf {
			status[i] = StatusNonLeaf
		}
	}
	reply := s.fitNames("children", names, status, true)
	return reply.Append(s.out[:0]), nil
}

// pmnsTraverse lists every leaf at or below a name. A node with no leaves
// gets an empty list, never an error: pmcd 6.0.3 then lists the root's own
// name either way, but newer pmcd fails a whole traversal on one error.
func (s *Server) pmnsTraverse(pdu []byte) ([]byte, error) {
	var q PMNSTraverse
	if err := q.Decode(pdu); err != nil {
		return nil, err
	}
	names, ok := s.cfg.Namespace.Traverse(q.Name)
	if !ok {
		return nil, ErrName
	}
	reply := s.fitNames("traversal", names, nil, false)
	return reply.Append(s.out[:0]), nil
}

// fitNames keeps, in order, the names pmcd can take: not empty (pmcd's
// count check assumes two words a name), no NUL, at most maxNameLen bytes,
// a child's without a dot; and no more than fit in MaxLen. pmcd reads an
// agent's reply of any size, but a list too long is cut short with a
// warning rather than refused, since newer pmcd fails a whole traversal
// on one error; the names past the cut still resolve one by one. status
// is nil or one word per name.
func (s *Server) fitNames(what string, names []string, status []int32, component bool) PMNSNames {
	var out PMNSNames
	if status != nil {
		out.Status = []int32{}
	}
	size, dropped, cut := pmnsNamesHeader, 0, 0
	for i, name := range names {
		if !validPMNSName(name, component) {
			dropped++
			continue
		}
		size += pmnsEntryLen(name, status != nil)
		if size > s.cfg.MaxLen {
			cut = len(names) - i
			break
		}
		out.Names = append(out.Names, name)
		if status != nil {
			out.Status = append(out.Status, status[i])
		}
	}
	if dropped > 0 || cut > 0 {
		s.cfg.Log.Warn().Str("reply", what).Int("invalid", dropped).Int("past_limit", cut).
			Int("sent", len(out.Names)).Int("max_len", s.cfg.MaxLen).Msg("namespace reply trimmed")
	}
	return out
}

func validPMNSName(name string, component bool) bool {
	switch {
	case name == "", len(name) > maxNameLen, strings.IndexByte(name, 0) >= 0:
		return false
	case component && strings.IndexByte(name, '.') >= 0:
		return false
	}
	return true
}
