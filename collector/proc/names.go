package proc

import (
	"os/user"
	"strconv"
)

// maxNames bounds the user and group names kept: a host has a few dozen
// users; past the bound a name is looked up again each time.
const maxNames = 4096

// names gives users' and groups' names, as pmdaproc's *_nm metrics, from
// the system's user database (/etc/passwd and /etc/group). An id with no
// name gets "", as in pmdaproc.
type names struct {
	users, groups map[uint32]string
}

func newNames() *names {
	return &names{users: map[uint32]string{}, groups: map[uint32]string{}}
}

func (n *names) user(id uint32) string {
	if s, ok := n.users[id]; ok {
		return s
	}
	s := ""
	if u, err := user.LookupId(strconv.FormatUint(uint64(id), 10)); err == nil {
		s = u.Username
	}
	if len(n.users) < maxNames {
		n.users[id] = s
	}
	return s
}

func (n *names) group(id uint32) string {
	if s, ok := n.groups[id]; ok {
		return s
	}
	s := ""
	if g, err := user.LookupGroupId(strconv.FormatUint(uint64(id), 10)); err == nil {
		s = g.Name
	}
	if len(n.groups) < maxNames {
		n.groups[id] = s
	}
	return s
}
