package collector

import (
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A device name that resolved to itself (a device node, or a name that
// does not exist) can only come to resolve elsewhere if an entry changes
// in a directory on its way: a component made a link, removed, renamed or
// created. Each of those sets the directory's ctime and mtime. So rather
// than resolve every such name once a minute (several lstats each, a
// large share of the background on a host with thousands of mounts), the
// table keeps a stamp of each directory on their way and compares them: a
// few stats. Names that are real links are still resolved each minute (a
// link's target directory can change without touching these).

// dirStamp is what stat(2) said of a directory on the way to a device
// name, following links, as ancestors are followed by a lookup.
type dirStamp struct {
	path         string
	ok           bool // it existed
	dev, ino     uint64
	mtime, ctime int64 // ns since the epoch
}

// stampSettle is how old a directory's last change must be for its stamp
// to be trusted: a file system's clock is coarse (a jiffy, or more), and
// a change within the same tick as the stamp could leave it unchanged.
const stampSettle = 2 * time.Second

// stampOf stats path.
func stampOf(path string) dirStamp {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return dirStamp{path: path}
	}
	return dirStamp{path: path, ok: true, dev: st.Dev, ino: st.Ino,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

// stampSet gathers the stamps of the directories on the way to device
// names, each once, taken before the name is resolved so that a change
// after the stamp shows in it.
type stampSet struct {
	root    string
	wall    func() time.Time
	seen    map[string]bool
	stamps  []dirStamp
	trusted bool // no stamped directory changed within stampSettle
}

func newStampSet(root string, wall func() time.Time) *stampSet {
	return &stampSet{root: filepath.Clean(root), wall: wall, seen: map[string]bool{}, trusted: true}
}

// add stamps the directories from the one holding device up to root, as
// the resolver looks the name up below root. Names outside /dev are never
// looked up, so they have none.
func (s *stampSet) add(device string) {
	if !strings.HasPrefix(device, "/dev/") {
		return
	}
	settled := s.wall().Add(-stampSettle).UnixNano()
	for dir := filepath.Dir(filepath.Join(s.root, device)); !s.seen[dir]; dir = filepath.Dir(dir) {
		s.seen[dir] = true
		st := stampOf(dir)
		s.stamps = append(s.stamps, st)
		if st.ok && max(st.mtime, st.ctime) > settled {
			s.trusted = false
		}
		if dir == s.root {
			break
		}
	}
}

// stampsHold reports whether every directory still stats as stamped.
func stampsHold(stamps []dirStamp) bool {
	for _, st := range stamps {
		if stampOf(st.path) != st {
			return false
		}
	}
	return true
}
