package main

import (
	"io/fs"
	"path/filepath"
	"sort"
	"syscall"
	"unsafe"
)

// openWatch notes the files opened or read below a synthetic tree,
// through inotify: whether a collector opens a file each time or keeps
// it open (keep_files), each sample that reads it shows. procfs and sysfs
// send no inotify events; there the kept fds tell (plan.go).
type openWatch struct {
	fd   int
	dirs map[int32]string
	buf  []byte
}

// watchOpens watches every directory below roots.
func watchOpens(roots ...string) (*openWatch, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	w := &openWatch{fd: fd, dirs: map[int32]string{}, buf: make([]byte, 1<<16)}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			wd, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN|syscall.IN_ACCESS)
			if err == nil {
				w.dirs[int32(wd)] = path
			}
			return nil
		})
		if err != nil {
			w.Close()
			return nil, err
		}
	}
	return w, nil
}

// drain returns the files (not directories) opened or read since the
// last drain.
func (w *openWatch) drain() []string {
	seen := map[string]bool{}
	for {
		n, err := syscall.Read(w.fd, w.buf)
		if n <= 0 || err != nil {
			break
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			nameAt := off + syscall.SizeofInotifyEvent
			name := w.buf[nameAt : nameAt+int(ev.Len)]
			off = nameAt + int(ev.Len)
			if ev.Mask&syscall.IN_ISDIR != 0 || len(name) == 0 {
				continue
			}
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			seen[filepath.Join(w.dirs[ev.Wd], string(name))] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (w *openWatch) Close() { syscall.Close(w.fd) }
