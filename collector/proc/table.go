package proc

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// process is what the collector keeps of a process between samples: who
// it is (PID and start time), its names, and when it was last listed.
type process struct {
	start  uint64 // stat's start time, in ticks after boot
	name   string // the instance name: PID in six digits, the command's first word
	psargs string // the command line as it was when the process was first seen
	comm   string // the command name, refreshed when it changes
	owner  ownerIDs
	seen   uint64 // the sample that last listed it
	// The texts of status the process last had, kept so that a sample
	// makes a string only when one changes.
	masks     [masks]uint64
	maskTexts [masks]string
	cpuList   string
	nsTexts   [kernel.NSLines]string
	hot       *hotState // its last hotproc evaluation, nil before the first
}

// nsText is an NS line of status with its ids comma-separated, made again
// only when it changed.
func (p *process) nsText(line int, raw []byte) string {
	if !sameCommaForm(raw, p.nsTexts[line]) {
		b := []byte(string(raw))
		for i, c := range b {
			if c == ' ' || c == '\t' {
				b[i] = ','
			}
		}
		p.nsTexts[line] = string(b)
	}
	return p.nsTexts[line]
}

// sameCommaForm reports whether text is raw with its blanks as commas.
func sameCommaForm(raw []byte, text string) bool {
	if len(raw) != len(text) || text == "" {
		return false
	}
	for i, c := range raw {
		if c == ' ' || c == '\t' {
			c = ','
		}
		if c != text[i] {
			return false
		}
	}
	return true
}

// maskText is signal mask which printed, made again only when it changed.
func (p *process) maskText(which int, m uint64) string {
	if p.maskTexts[which] == "" || p.masks[which] != m {
		p.masks[which], p.maskTexts[which] = m, fmt.Sprintf("%016x", m)
	}
	return p.maskTexts[which]
}

// cpus is the Cpus_allowed_list text, made again only when it changed.
func (p *process) cpus(list []byte) string {
	if string(list) != p.cpuList {
		p.cpuList = string(list)
	}
	return p.cpuList
}

// table holds the known processes by PID.
type table struct {
	byPID map[int32]*process
	gen   uint64
	// changed is set when a sample adds, renews, drops or re-owns a
	// process: the instance table is then built again.
	changed bool
	cmdline []byte
}

func newTable() *table { return &table{byPID: map[int32]*process{}} }

// begin starts a sample.
func (t *table) begin() { t.gen++; t.changed = false }

// note finds or makes the process r read. renewed is true when the PID
// names another process than the last sample's (the kernel reused it).
func (t *table) note(rd *reader, r *record) (p *process, renewed bool) {
	p, ok := t.byPID[r.pid]
	if ok && p.start != r.stat.StartTime {
		ok, renewed = false, true
	}
	if !ok {
		p = t.newProcess(rd, r)
		t.byPID[r.pid] = p
		t.changed = true
	}
	if string(r.stat.Comm) != p.comm {
		p.comm = string(r.stat.Comm)
	}
	if p.owner != r.owner {
		p.owner, t.changed = r.owner, true
	}
	p.seen = t.gen
	return p, renewed
}

// newProcess names a process as pmdaproc does: the command line with its
// NULs as spaces, or "(comm)" when it has none (a kernel thread, a
// zombie); the instance name is the PID and the line's first word.
func (t *table) newProcess(rd *reader, r *record) *process {
	var err error
	t.cmdline, err = readCmdline(rd.pathOf(r.pid, "cmdline"), t.cmdline)
	args := string(argsOf(t.cmdline))
	if err != nil || args == "" {
		args = "(" + string(r.stat.Comm) + ")"
	}
	word, _, _ := strings.Cut(args, " ")
	return &process{start: r.stat.StartTime, name: fmt.Sprintf("%06d %s", r.pid, word), psargs: args,
		comm: string(r.stat.Comm), owner: r.owner}
}

// sweep drops the processes this sample did not list.
func (t *table) sweep() {
	for pid, p := range t.byPID {
		if p.seen != t.gen {
			delete(t.byPID, pid)
			t.changed = true
		}
	}
}

// instances lists the processes for the instance domain.
func (t *table) instances(pids []int32) *cache.Instances {
	list := make([]cache.Instance, 0, len(pids))
	for _, pid := range pids {
		p, ok := t.byPID[pid]
		if !ok || p.seen != t.gen {
			continue
		}
		x := cache.Instance{ID: uint32(pid), Name: p.name}
		if p.owner.single {
			x.Owner = cache.Owner{UID: p.owner.uid, GID: p.owner.gid}
		}
		list = append(list, x)
	}
	return cache.NewInstances(list)
}

// maxCmdline is what is read of a command line: pmdaproc's MAXPATHLEN.
const maxCmdline = 4096

// readCmdline reads at most maxCmdline bytes of a command line: one may
// be as long as the kernel's argument limit.
func readCmdline(path string, buf []byte) ([]byte, error) {
	if cap(buf) < maxCmdline {
		buf = make([]byte, maxCmdline)
	}
	buf = buf[:maxCmdline]
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf[:0], err
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	if err != nil || n < 0 {
		return buf[:0], err
	}
	return buf[:n], nil
}

// argsOf turns a command line's NULs into spaces, dropping the trailing ones.
func argsOf(cmdline []byte) []byte {
	cmdline = bytes.TrimRight(cmdline, "\x00")
	for i, c := range cmdline {
		if c == 0 {
			cmdline[i] = ' '
		}
	}
	return cmdline
}
