package kernel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"syscall"
)

// The small per-process files beside stat: cgroup, autogroup, oom_score,
// the fd directory, and the texts (environ, maps) read only up to a bound.

// AppendCgroups appends /proc/PID/cgroup as pmdaproc's psinfo.cgroups
// prints it: each "hierarchy:controllers:path" line as
// "controllers:path", the lines joined by ';' in the file's order (the v2
// line "0::/" becomes ":/"). It is false when a line has not the three
// parts.
func AppendCgroups(dst, data []byte) ([]byte, bool) {
	first := true
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		if len(line) == 0 {
			continue
		}
		_, tail, ok := bytes.Cut(line, []byte(":"))
		if !ok || bytes.IndexByte(tail, ':') < 0 {
			return dst, false
		}
		if !first {
			dst = append(dst, ';')
		}
		dst, first = append(dst, tail...), false
	}
	return dst, true
}

// CpusetPath is the path of /proc/PID/cgroup's cpuset line (v1), nil when
// there is none.
func CpusetPath(data []byte) []byte {
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		_, tail, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		ctl, path, ok := bytes.Cut(tail, []byte(":"))
		if ok && isController(ctl, "cpuset") {
			return path
		}
	}
	return nil
}

// isController reports whether a comma-separated list of controllers
// ("cpu,cpuacct") names want.
func isController(list []byte, want string) bool {
	for len(list) > 0 {
		var name []byte
		name, list, _ = bytes.Cut(list, []byte(","))
		if string(name) == want {
			return true
		}
	}
	return false
}

// containerIDLen is the length of a container id: a SHA-256 in hex.
const containerIDLen = 64

// ContainerID guesses a container id from a cgroup path, as pmdaproc's
// id.container does: the path's last part when it is 64 characters long
// (docker's "/docker/ID"), or the part between "docker-" or "libpod-" and
// the first '.' when that is ("/system.slice/docker-ID.scope"). nil when
// neither fits.
func ContainerID(path []byte) []byte {
	path = bytes.TrimRight(path, "\n")
	slash := bytes.LastIndexByte(path, '/')
	if slash < 0 {
		return nil
	}
	last := path[slash+1:]
	for _, prefix := range []string{"docker-", "libpod-"} {
		if id, ok := bytes.CutPrefix(last, []byte(prefix)); ok {
			id, _, dot := bytes.Cut(id, []byte("."))
			if dot && len(id) == containerIDLen {
				return id
			}
			return nil
		}
	}
	if len(last) == containerIDLen {
		return last
	}
	return nil
}

// ParsePidAutogroup reads /proc/PID/autogroup, "/autogroup-ID nice N".
func ParsePidAutogroup(data []byte) (id uint64, nice int64, err error) {
	name, rest := NextWord(data)
	num, ok := bytes.CutPrefix(name, []byte("/autogroup-"))
	if !ok {
		return 0, 0, fmt.Errorf("autogroup: no /autogroup-ID in %q", clip(data))
	}
	if id, ok = parseUint(num); !ok {
		return 0, 0, fmt.Errorf("autogroup: bad id %q", clip(num))
	}
	word, rest := NextWord(rest)
	value, _ := NextWord(rest)
	if string(word) != "nice" {
		return 0, 0, fmt.Errorf("autogroup: no nice in %q", clip(data))
	}
	if nice, ok = parseAtoi(value); !ok {
		return 0, 0, fmt.Errorf("autogroup: bad nice %q", clip(value))
	}
	return id, nice, nil
}

// ParseOneDecimal reads a file holding one decimal and a newline
// (oom_score, a sysctl).
func ParseOneDecimal(data []byte) (uint64, error) {
	v, ok := parseUint(bytes.TrimSpace(data))
	if !ok {
		return 0, fmt.Errorf("want one decimal, got %q", clip(data))
	}
	return v, nil
}

// ReadFilePrefix reads at most limit bytes of a file into buf: the texts
// a process may make as long as it likes (maps, environ), of which a
// bounded part is kept. whole is false when the file went on past limit.
func ReadFilePrefix(path string, buf []byte, limit int) (out []byte, whole bool, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf[:0], false, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if cap(buf) < limit+1 {
		buf = make([]byte, 0, limit+1) // one byte more tells a file of limit bytes from a longer one
	}
	buf = buf[:0]
	for len(buf) <= limit {
		n, err := syscall.Read(fd, buf[len(buf):limit+1])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], false, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			return buf, true, nil
		}
		buf = buf[:len(buf)+n]
	}
	return buf[:limit], false, nil
}

// CountDirEntries counts the entries of a directory other than "." and
// "..", reading it with getdents into buf (grown as needed): the open
// files of /proc/PID/fd, with no name made for any of them.
func CountDirEntries(path string, buf []byte) (int, []byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, buf, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if cap(buf) < 8192 {
		buf = make([]byte, 8192)
	}
	buf = buf[:cap(buf)]
	count := 0
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, buf, &fs.PathError{Op: "getdents", Path: path, Err: err}
		}
		if n <= 0 {
			return count, buf, nil
		}
		count += countDirents(buf[:n])
	}
}

// countDirents counts the records of a getdents64 buffer other than "."
// and "..". Each record is ino (8 bytes), off (8), reclen (2), type (1),
// then the name, NUL-terminated.
func countDirents(b []byte) int {
	const nameAt = 19
	count := 0
	for len(b) >= nameAt {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < nameAt || reclen > len(b) {
			break
		}
		name := b[nameAt:reclen]
		if end := bytes.IndexByte(name, 0); end >= 0 {
			name = name[:end]
		}
		if string(name) != "." && string(name) != ".." {
			count++
		}
		b = b[reclen:]
	}
	return count
}
