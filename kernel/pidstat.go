package kernel

import (
	"bytes"
	"fmt"
)

// PidStat is one parsed /proc/PID/stat (proc_pid_stat(5)): the fields
// pmdaproc's proc.psinfo metrics read, by name. Times are in clock ticks,
// sizes in bytes (VSize) or pages (RSS), as the kernel prints them.
type PidStat struct {
	PID     int64
	Comm    []byte // inside the parentheses, shared with the parsed text
	State   byte
	PPID    int64
	PGrp    int64
	Session int64
	TTY     int64
	TPGid   int64
	Flags   uint64
	// Page faults: minor, of the waited-for children, major, of those.
	MinFlt, CMinFlt, MajFlt, CMajFlt uint64
	UTime, STime                     uint64
	CUTime, CSTime                   int64
	Priority, Nice                   int64
	Threads                          int64
	ITRealValue                      int64
	StartTime                        uint64 // ticks after boot: with PID, who the process is
	VSize                            uint64
	RSS                              int64
	RSSLim                           uint64
	// Fields 26 to 52, in the kernel's order; a kernel may print fewer.
	Rest [pidStatRest]uint64
	// RestN is how many of Rest the file had.
	RestN int
}

// pidStatRest is how many fields follow rsslim in a 6.x kernel's stat.
const pidStatRest = 27

// Indexes into PidStat.Rest of the fields pmdaproc serves from there.
const (
	PidStatStartCode  = 0  // field 26
	PidStatWChan      = 9  // field 35: 0 or 1 since 4.x, not an address
	PidStatExitSignal = 12 // field 38
	PidStatProcessor  = 13 // field 39
	PidStatRTPriority = 14
	PidStatPolicy     = 15
	PidStatBlkioTicks = 16 // delayacct_blkio_ticks
	PidStatGuestTime  = 17
	PidStatCGuestTime = 18
)

// ParsePidStat reads "PID (COMM) STATE PPID ...". COMM may hold spaces and
// parentheses of its own, so it ends at the last ')'. The 24 fields after
// it up to rsslim must be there; later ones are taken as far as they go.
func ParsePidStat(data []byte, st *PidStat) error {
	open := bytes.IndexByte(data, '(')
	end := bytes.LastIndexByte(data, ')')
	if open < 1 || end < open {
		return fmt.Errorf("no (comm) in %q", clip(data))
	}
	pid, ok := parseAtoi(bytes.TrimSpace(data[:open]))
	if !ok {
		return fmt.Errorf("bad pid in %q", clip(data))
	}
	*st = PidStat{PID: pid, Comm: data[open+1 : end]}
	rest := data[end+1:]
	var state []byte
	if state, rest = NextWord(rest); len(state) != 1 {
		return fmt.Errorf("pid %d: bad state %q", pid, state)
	}
	st.State = state[0]
	signed := []*int64{&st.PPID, &st.PGrp, &st.Session, &st.TTY, &st.TPGid}
	if rest, ok = takeSigned(rest, signed); !ok {
		return fmt.Errorf("pid %d: bad ids", pid)
	}
	unsigned := []*uint64{&st.Flags, &st.MinFlt, &st.CMinFlt, &st.MajFlt, &st.CMajFlt, &st.UTime, &st.STime}
	if rest, ok = takeUnsigned(rest, unsigned); !ok {
		return fmt.Errorf("pid %d: bad faults or times", pid)
	}
	signed = []*int64{&st.CUTime, &st.CSTime, &st.Priority, &st.Nice, &st.Threads, &st.ITRealValue}
	if rest, ok = takeSigned(rest, signed); !ok {
		return fmt.Errorf("pid %d: bad child times or priorities", pid)
	}
	if rest, ok = takeUnsigned(rest, []*uint64{&st.StartTime, &st.VSize}); !ok {
		return fmt.Errorf("pid %d: bad start time or size", pid)
	}
	if rest, ok = takeSigned(rest, []*int64{&st.RSS}); !ok {
		return fmt.Errorf("pid %d: bad rss", pid)
	}
	if rest, ok = takeUnsigned(rest, []*uint64{&st.RSSLim}); !ok {
		return fmt.Errorf("pid %d: bad rsslim", pid)
	}
	return st.takeRest(rest)
}

// takeRest reads the fields after rsslim, as many as the kernel printed.
func (st *PidStat) takeRest(rest []byte) error {
	for st.RestN < pidStatRest {
		w, r := NextWord(rest)
		if w == nil {
			return nil
		}
		v, ok := parseUint(w)
		if !ok {
			// A thread other than the leader has exit_signal -1: kept
			// as its two's complement, as strtoul reads it.
			n, signed := parseAtoi(w)
			if !signed {
				return fmt.Errorf("pid %d: bad field %d %q", st.PID, 26+st.RestN, w)
			}
			v = uint64(n)
		}
		st.Rest[st.RestN] = v
		st.RestN++
		rest = r
	}
	return nil
}

// takeSigned reads one signed decimal word into each of out.
func takeSigned(b []byte, out []*int64) ([]byte, bool) {
	for _, p := range out {
		var w []byte
		w, b = NextWord(b)
		v, ok := parseAtoi(w)
		if !ok {
			return b, false
		}
		*p = v
	}
	return b, true
}

// takeUnsigned reads one unsigned decimal word into each of out.
func takeUnsigned(b []byte, out []*uint64) ([]byte, bool) {
	for _, p := range out {
		var w []byte
		w, b = NextWord(b)
		v, ok := parseUint(w)
		if !ok {
			return b, false
		}
		*p = v
	}
	return b, true
}

// clip shortens text for an error message.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
