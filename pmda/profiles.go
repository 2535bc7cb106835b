package pmda

// profileKey names a client context: pmcd's client index and the context
// number inside that client.
type profileKey struct {
	from int32
	ctx  int32
}

// profiles keeps the last PROFILE of each client context. pmcd resends a
// profile only when another context talks to us, so a fetch uses its own
// context's profile, or failing that the last one received.
type profiles struct {
	byKey map[profileKey]*Profile
	last  *Profile
	all   Profile // the default: every instance
	spare []*Profile
}

func newProfiles() profiles {
	return profiles{byKey: map[profileKey]*Profile{}}
}

// decode reads a PROFILE into the context's profile, reusing its storage.
func (ps *profiles) decode(from int32, pdu []byte) error {
	var p *Profile
	if n := len(ps.spare); n > 0 {
		p, ps.spare = ps.spare[n-1], ps.spare[:n-1]
	} else {
		p = &Profile{}
	}
	if err := p.Decode(pdu); err != nil {
		ps.spare = append(ps.spare, p)
		return err
	}
	k := profileKey{from, p.Ctx}
	if old, ok := ps.byKey[k]; ok {
		ps.spare = append(ps.spare, old)
	}
	ps.byKey[k] = p
	ps.last = p
	return nil
}

// lookup returns the profile for a fetch from context (from, ctx).
func (ps *profiles) lookup(from, ctx int32) *Profile {
	if p, ok := ps.byKey[profileKey{from, ctx}]; ok {
		return p
	}
	if ps.last != nil {
		return ps.last
	}
	return &ps.all
}

// drop forgets every context of a client that disconnected.
func (ps *profiles) drop(from int32) {
	for k, p := range ps.byKey {
		if k.from == from {
			delete(ps.byKey, k)
			if ps.last == p {
				ps.last = nil
			}
			ps.spare = append(ps.spare, p)
		}
	}
}
