package cache

// Access says which clients may read a metric's values. pmdaproc answers
// each client as that client's user, so the kernel's own checks decide
// what it sees of another user's process; a cache read once by the agent
// has to make the same decision itself, at every read.
type Access uint8

const (
	// AccessAll: every client, as for the host's metrics.
	AccessAll Access = iota
	// AccessKnown: clients whose user pmcd named (local clients). pmdaproc
	// refuses per-process values to a client without credentials.
	AccessKnown
	// AccessOwner: root, and a client whose user and group own the
	// instance (Instance.Owner). These are the files the kernel guards with
	// its ptrace check: io, fd, environ, exe, cwd, maps, smaps.
	AccessOwner
)

// Owner is who owns an instance, for AccessOwner metrics. The zero value
// (root's) admits root alone.
type Owner struct {
	UID, GID uint32
}

// mayRead reports whether who may read the values of a metric with access
// a on an instance owned by owner.
func (a Access) mayRead(who Credentials, owner Owner) bool {
	switch a {
	case AccessAll:
		return true
	case AccessKnown:
		return who.Known
	}
	if !who.Known {
		return false
	}
	return who.UID == 0 || who.UID == owner.UID && who.GID == owner.GID && owner.UID != 0
}

// withhold drops from dst[start:] the values who may not read.
func (r *Request) withhold(dst []Value, start int, d *Desc) []Value {
	if d.Access == AccessAll || len(dst) == start {
		return dst
	}
	if d.Access == AccessKnown {
		if r.Who.Known {
			return dst
		}
		return dst[:start]
	}
	if r.Who.Known && r.Who.UID == 0 {
		return dst
	}
	insts, _ := r.Snap.InDom(d.InDom)
	kept := start
	for _, v := range dst[start:] {
		if d.Access.mayRead(r.Who, insts.Owner(v.Inst)) {
			dst[kept] = v
			kept++
		}
	}
	return dst[:kept]
}
