package recorder

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// ownFile matches the names archiveName gives: hostcache-YYYYMMDD.HH.MM.SS,
// a "-N" suffix for a second archive within a second, then the file's
// extension (.meta, .index or a volume number).
var ownFile = regexp.MustCompile(`^(hostcache-\d{8}\.\d{2}\.\d{2}\.\d{2})(?:-(\d{1,9}))?\.(?:meta|index|\d{1,9})$`)

// keptArchive is one archive of ours in the directory: its files and
// their bytes together.
type keptArchive struct {
	base   string // the archive's path without extension
	stamp  string // the time in its name
	suffix int    // its "-N", 0 when none
	files  []string
	bytes  int64
}

// ownArchives lists the archives in dir that the recorder wrote, oldest
// first: only regular files, named as it names them, owned by owner and
// with no other link. A symlink, a file another user placed, or one of
// our names hard-linked elsewhere is never counted nor removed.
func ownArchives(dir string, owner uint32) ([]keptArchive, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byBase := map[string]*keptArchive{}
	for _, e := range entries {
		m := ownFile.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info() // lstat: a symlink is never followed
		st, ok := statOf(info, err)
		if !ok || st.Uid != owner || st.Nlink != 1 {
			continue
		}
		base := m[1]
		if m[2] != "" {
			base += "-" + m[2]
		}
		a := byBase[base]
		if a == nil {
			n, _ := strconv.Atoi(m[2])
			a = &keptArchive{base: filepath.Join(dir, base), stamp: m[1], suffix: n}
			byBase[base] = a
		}
		a.files = append(a.files, filepath.Join(dir, e.Name()))
		a.bytes += info.Size()
	}
	out := make([]keptArchive, 0, len(byBase))
	for _, a := range byBase {
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b keptArchive) int {
		if c := strings.Compare(a.stamp, b.stamp); c != 0 {
			return c
		}
		return a.suffix - b.suffix
	})
	return out, nil
}

func statOf(info os.FileInfo, err error) (*syscall.Stat_t, bool) {
	if err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return st, ok
}

// retain removes the oldest of our archives in dir, never newest, until
// those left take at most limit bytes. It returns the bytes they take.
// Removing a name never follows a symlink; a file swapped for another
// between the check and the removal could only be by those who may write
// the directory (pmlogger's: the agent's user, its group and root).
func retain(dir string, owner uint32, newest string, limit int64) (int64, []string, error) {
	kept, err := ownArchives(dir, owner)
	if err != nil {
		return 0, nil, err
	}
	var total int64
	for _, a := range kept {
		total += a.bytes
	}
	var removed []string
	for _, a := range kept {
		if total <= limit {
			break
		}
		if a.base == newest {
			continue
		}
		for _, f := range a.files {
			if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
				return total, removed, err
			}
		}
		total -= a.bytes
		removed = append(removed, a.base)
	}
	return total, removed, nil
}

// ownerUID is the user the recorder's files belong to: the one it gives
// them to when it runs as root, else its own.
func (r *Recorder) ownerUID() uint32 {
	if r.cfg.UID >= 0 && os.Geteuid() == 0 {
		return uint32(r.cfg.UID)
	}
	return uint32(os.Geteuid())
}
