package kernel

import (
	"bytes"
	"fmt"
	"strconv"
)

// PidStatus is one parsed /proc/PID/status: the lines pmdaproc's
// proc.id, proc.memory and proc.psinfo metrics read. Sizes are in kB, as
// the file prints them; a line the kernel does not print stays zero
// (kernel threads have no Vm lines) and its bit in Has stays clear.
type PidStatus struct {
	Tgid, Ngid, PID, PPID uint64
	UID, GID              [4]uint64 // real, effective, saved, filesystem
	Vm                    [VmFields]uint64
	Threads               uint64
	// Pending (thread and process), blocked, ignored and caught signals:
	// the masks SigPnd|ShdPnd, SigBlk, SigIgn, SigCgt.
	SigPending, SigBlocked, SigIgnored, SigCaught uint64
	// SigPnd is the SigPnd line alone: the signals pending for the thread
	// itself, which pmdaproc's signal_s prints.
	SigPnd                          uint64
	CpusAllowedList                 []byte // shared with the parsed text
	VoluntaryCtxt, NonvoluntaryCtxt uint64
	// NS holds the NStgid, NSpid, NSpgid and NSsid lines' text (one id
	// per nested PID namespace, outermost first), shared with the parsed
	// text; nil where the kernel printed no such line.
	NS [NSLines][]byte
	// EnvID is OpenVZ's envID line, which other kernels do not print.
	EnvID uint64
	Has   uint64 // 1<<statusKey of each line read
}

// The namespace lines of PidStatus.NS.
const (
	NSTgid = iota
	NSPid
	NSPgid
	NSSid
	NSLines
)

// The Vm lines of PidStatus.Vm, in the file's order.
const (
	VmPeak = iota
	VmSize
	VmLck
	VmPin
	VmHWM
	VmRSS
	VmData
	VmStk
	VmExe
	VmLib
	VmPTE
	VmSwap
	VmFields
)

// statusKey numbers the lines ParsePidStatus reads, for PidStatus.Has.
type statusKey int

const (
	keyTgid statusKey = iota
	keyNgid
	keyPid
	keyPPid
	keyUid
	keyGid
	keyThreads
	keySigPnd
	keyShdPnd
	keySigBlk
	keySigIgn
	keySigCgt
	keyCpus
	keyVoluntary
	keyNonvoluntary
	keyEnvID
	keyNS                   // NSLines keys from here, one a namespace line
	keyVm = keyNS + NSLines // VmFields keys from here, one a Vm line
)

// statusKeys maps a line's key to its number.
var statusKeys = map[string]statusKey{
	"Tgid": keyTgid, "Ngid": keyNgid, "Pid": keyPid, "PPid": keyPPid, "Uid": keyUid, "Gid": keyGid,
	"Threads": keyThreads, "SigPnd": keySigPnd, "ShdPnd": keyShdPnd, "SigBlk": keySigBlk,
	"SigIgn": keySigIgn, "SigCgt": keySigCgt, "Cpus_allowed_list": keyCpus,
	"voluntary_ctxt_switches": keyVoluntary, "nonvoluntary_ctxt_switches": keyNonvoluntary,
	"envID": keyEnvID, "NStgid": keyNS + NSTgid, "NSpid": keyNS + NSPid, "NSpgid": keyNS + NSPgid,
	"NSsid":  keyNS + NSSid,
	"VmPeak": keyVm + VmPeak, "VmSize": keyVm + VmSize, "VmLck": keyVm + VmLck, "VmPin": keyVm + VmPin,
	"VmHWM": keyVm + VmHWM, "VmRSS": keyVm + VmRSS, "VmData": keyVm + VmData, "VmStk": keyVm + VmStk,
	"VmExe": keyVm + VmExe, "VmLib": keyVm + VmLib, "VmPTE": keyVm + VmPTE, "VmSwap": keyVm + VmSwap,
}

// HasLine says whether the status held the Vm line i (VmPeak...).
func (s *PidStatus) HasLine(vm int) bool { return s.Has&(1<<(keyVm+statusKey(vm))) != 0 }

// HasEnvID says whether the status held OpenVZ's envID line.
func (s *PidStatus) HasEnvID() bool { return s.Has&(1<<keyEnvID) != 0 }

// ParsePidStatus reads "Key:\tvalue" lines. Lines it does not know are
// skipped; a known line with a bad value is an error.
func ParsePidStatus(data []byte, s *PidStatus) error {
	*s = PidStatus{}
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		k, known := statusKeys[string(key)] // no allocation: a map index by a converted slice
		if !known {
			continue
		}
		if err := s.set(k, bytes.TrimSpace(value)); err != nil {
			return fmt.Errorf("status line %s: %w", key, err)
		}
		s.Has |= 1 << k
	}
	return nil
}

// set stores one known line's value.
func (s *PidStatus) set(k statusKey, v []byte) error {
	var ok bool
	switch {
	case k >= keyVm:
		num, _, _ := bytes.Cut(v, []byte(" kB"))
		s.Vm[k-keyVm], ok = parseUint(bytes.TrimSpace(num))
	case k == keyUid:
		ok = takeFour(v, &s.UID)
	case k == keyGid:
		ok = takeFour(v, &s.GID)
	case k == keyCpus:
		s.CpusAllowedList, ok = v, true
	case k >= keyNS:
		s.NS[k-keyNS], ok = v, true
	case k >= keySigPnd && k <= keySigCgt:
		ok = s.setMask(k, v)
	default:
		var n uint64
		n, ok = parseUint(v)
		*s.counter(k) = n
	}
	if !ok {
		return fmt.Errorf("bad value %q", clip(v))
	}
	return nil
}

// counter is the field of a line holding one decimal.
func (s *PidStatus) counter(k statusKey) *uint64 {
	switch k {
	case keyTgid:
		return &s.Tgid
	case keyNgid:
		return &s.Ngid
	case keyPid:
		return &s.PID
	case keyPPid:
		return &s.PPID
	case keyThreads:
		return &s.Threads
	case keyVoluntary:
		return &s.VoluntaryCtxt
	case keyEnvID:
		return &s.EnvID
	}
	return &s.NonvoluntaryCtxt
}

// setMask stores a hexadecimal signal mask; the two pending masks add up.
func (s *PidStatus) setMask(k statusKey, v []byte) bool {
	m, err := strconv.ParseUint(string(v), 16, 64)
	if err != nil {
		return false
	}
	switch k {
	case keySigPnd:
		s.SigPnd = m
		s.SigPending |= m
	case keyShdPnd:
		s.SigPending |= m
	case keySigBlk:
		s.SigBlocked = m
	case keySigIgn:
		s.SigIgnored = m
	case keySigCgt:
		s.SigCaught = m
	}
	return true
}

// takeFour reads four decimal words.
func takeFour(v []byte, out *[4]uint64) bool {
	for i := range out {
		var w []byte
		w, v = NextWord(v)
		n, ok := parseUint(w)
		if !ok {
			return false
		}
		out[i] = n
	}
	return true
}
