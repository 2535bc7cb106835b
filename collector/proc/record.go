package proc

import (
	"errors"
	"strconv"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// record is what one sample read of one process: its files, parsed.
// Files other than stat may be missing or refused (io is the owner's
// alone); their metrics then have no value for the process.
type record struct {
	pid       int32
	stat      kernel.PidStat
	status    kernel.PidStatus
	statm     kernel.PidStatm
	io        kernel.PidIO
	sched     kernel.PidSchedstat
	hasStatus bool
	hasStatm  bool
	hasIO     bool
	hasSched  bool
	owner     ownerIDs
	pageKB    uint64
	proc      *process
	names     *names
	ttys      *ttyNames
}

// ownerIDs is who owns a process for the kernel's ptrace check: its real,
// effective and saved ids all one user and group, and the process
// dumpable (its /proc directory then belongs to that user).
type ownerIDs struct {
	uid, gid uint32
	single   bool
}

// reader reads processes' files with buffers kept between samples.
type reader struct {
	root string
	path []byte
	buf  []byte
	text []byte // the stat file's text, which record.stat.Comm points into
	// status is the status file's text, which record.status's NS lines
	// and CPU list point into: the files read after it use buf.
	status []byte
}

// errGone is a process that exited while it was read.
var errGone = errors.New("process gone")

// read fills r from /proc/PID; errGone when the process has exited.
func (rd *reader) read(pid int32, r *record) error {
	r.pid = pid
	var err error
	if rd.text, err = rd.file(pid, "stat", rd.text); err != nil {
		return errGone
	}
	if kernel.ParsePidStat(rd.text, &r.stat) != nil {
		return errGone
	}
	if rd.status, err = rd.file(pid, "status", rd.status); err == nil {
		r.hasStatus = kernel.ParsePidStatus(rd.status, &r.status) == nil
	}
	r.hasStatm = rd.parse(pid, "statm", func(b []byte) error { return kernel.ParsePidStatm(b, &r.statm) })
	r.hasIO = rd.parse(pid, "io", func(b []byte) error { return kernel.ParsePidIO(b, &r.io) })
	r.hasSched = rd.parse(pid, "schedstat", func(b []byte) error { return kernel.ParsePidSchedstat(b, &r.sched) })
	if (!r.hasStatus || !r.hasStatm) && !rd.exists(pid) {
		// Every process has these two files, readable by all, until it
		// is reaped: this one exited between its reads. Half its values
		// would list a process without its user or size; none do.
		return errGone
	}
	r.owner = rd.owner(pid, r)
	return nil
}

// exists reports whether /proc/PID is still there.
func (rd *reader) exists(pid int32) bool {
	var st syscall.Stat_t
	return syscall.Stat(rd.pathOf(pid, ""), &st) == nil
}

// parse reads one file of the process and parses it; false when either fails.
func (rd *reader) parse(pid int32, name string, parse func([]byte) error) bool {
	var err error
	if rd.buf, err = rd.file(pid, name, rd.buf); err != nil {
		return false
	}
	return parse(rd.buf) == nil
}

// file reads /proc/PID/name into buf.
func (rd *reader) file(pid int32, name string, buf []byte) ([]byte, error) {
	return kernel.ReadFileInto(rd.pathOf(pid, name), buf)
}

func (rd *reader) pathOf(pid int32, name string) string {
	rd.path = append(rd.path[:0], rd.root...)
	rd.path = append(rd.path, '/')
	rd.path = strconv.AppendInt(rd.path, int64(pid), 10)
	if name != "" {
		rd.path = append(rd.path, '/')
		rd.path = append(rd.path, name...)
	}
	return string(rd.path)
}

// owner works out who owns the process for the ptrace check; a process
// whose ids differ, or that is not dumpable, is root's alone.
func (rd *reader) owner(pid int32, r *record) ownerIDs {
	if !r.hasStatus {
		return ownerIDs{}
	}
	u, g := r.status.UID, r.status.GID
	if u[0] != u[1] || u[0] != u[2] || g[0] != g[1] || g[0] != g[2] {
		return ownerIDs{}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(rd.pathOf(pid, ""), &st); err != nil || uint64(st.Uid) != u[1] {
		return ownerIDs{}
	}
	return ownerIDs{uid: uint32(u[0]), gid: uint32(g[0]), single: true}
}
