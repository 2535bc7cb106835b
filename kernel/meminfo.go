package kernel

import (
	"fmt"
)

// We parse /proc/meminfo ourselves rather than with procfs's Meminfo(),
// which scans it with bufio, strings.Fields and strconv and gives every
// line its strings and two heap-allocated values: some 175 allocations
// per read of a file the memory collector reads every second and the swap
// collector as well.
// This parser fills a fixed array in place. It accepts and refuses
// exactly what procfs did, so that the same files give the same values
// and the same failures:
//   - every line has two or three fields (else the file is refused), the
//     value is read as strconv.ParseUint base 0 reads it, and a third
//     field must be "kB"; the value is kept as printed, in kB, or as a
//     count for the lines without a unit (HugePages_*);
//   - the first field, colon included, names the line; a name we do not
//     use is checked but ignored, and a repeated name keeps its last value;
//   - only the first MiB is read, and a line of 64 KiB or more ends the
//     file without an error, as bufio.Scanner's error went unchecked.

// MemField names a /proc/meminfo line the collectors use.
type MemField uint8

const (
	MemTotal MemField = iota
	MemFree
	MemAvailable
	MemBuffers
	MemCached
	MemSwapCached
	MemActive
	MemInactive
	MemActiveAnon
	MemInactiveAnon
	MemActiveFile
	MemInactiveFile
	MemUnevictable
	MemMlocked
	MemSwapTotal
	MemSwapFree
	MemDirty
	MemWriteback
	MemAnonPages
	MemMapped
	MemShmem
	MemSlab
	MemSReclaimable
	MemSUnreclaim
	MemKernelStack
	MemPageTables
	MemNFSUnstable
	MemBounce
	MemCommitLimit
	MemCommittedAS
	MemVmallocTotal
	MemVmallocUsed
	MemVmallocChunk
	MemHardwareCorrupted
	MemAnonHugePages
	MemHugePagesTotal
	MemHugePagesFree
	MemHugePagesRsvd
	MemHugePagesSurp
	MemHugepagesize
	MemDirectMap4k
	MemDirectMap2M
	MemDirectMap1G
	numMemFields
)

// memFieldNames are the lines' names as the kernel prints them.
var memFieldNames = [numMemFields]string{
	MemTotal:             "MemTotal:",
	MemFree:              "MemFree:",
	MemAvailable:         "MemAvailable:",
	MemBuffers:           "Buffers:",
	MemCached:            "Cached:",
	MemSwapCached:        "SwapCached:",
	MemActive:            "Active:",
	MemInactive:          "Inactive:",
	MemActiveAnon:        "Active(anon):",
	MemInactiveAnon:      "Inactive(anon):",
	MemActiveFile:        "Active(file):",
	MemInactiveFile:      "Inactive(file):",
	MemUnevictable:       "Unevictable:",
	MemMlocked:           "Mlocked:",
	MemSwapTotal:         "SwapTotal:",
	MemSwapFree:          "SwapFree:",
	MemDirty:             "Dirty:",
	MemWriteback:         "Writeback:",
	MemAnonPages:         "AnonPages:",
	MemMapped:            "Mapped:",
	MemShmem:             "Shmem:",
	MemSlab:              "Slab:",
	MemSReclaimable:      "SReclaimable:",
	MemSUnreclaim:        "SUnreclaim:",
	MemKernelStack:       "KernelStack:",
	MemPageTables:        "PageTables:",
	MemNFSUnstable:       "NFS_Unstable:",
	MemBounce:            "Bounce:",
	MemCommitLimit:       "CommitLimit:",
	MemCommittedAS:       "Committed_AS:",
	MemVmallocTotal:      "VmallocTotal:",
	MemVmallocUsed:       "VmallocUsed:",
	MemVmallocChunk:      "VmallocChunk:",
	MemHardwareCorrupted: "HardwareCorrupted:",
	MemAnonHugePages:     "AnonHugePages:",
	MemHugePagesTotal:    "HugePages_Total:",
	MemHugePagesFree:     "HugePages_Free:",
	MemHugePagesRsvd:     "HugePages_Rsvd:",
	MemHugePagesSurp:     "HugePages_Surp:",
	MemHugepagesize:      "Hugepagesize:",
	MemDirectMap4k:       "DirectMap4k:",
	MemDirectMap2M:       "DirectMap2M:",
	MemDirectMap1G:       "DirectMap1G:",
}

// memFieldByName finds a line's field by its first field.
var memFieldByName = func() map[string]MemField {
	m := make(map[string]MemField, numMemFields)
	for f, name := range memFieldNames {
		m[name] = MemField(f)
	}
	return m
}()

// The presence bitmap has one bit per field.
var _ [64 - numMemFields]struct{}

// Meminfo is a parsed /proc/meminfo: the value of each field the kernel
// printed, and which it printed. An absent field has no value, never 0.
type Meminfo struct {
	val [numMemFields]uint64
	Has uint64 // bit f set when field f was present
}

// Get returns field f, false when the kernel did not print it.
func (m *Meminfo) Get(f MemField) (uint64, bool) {
	return m.val[f], m.Has&(1<<f) != 0
}

// Set records field f (tests build samples with it).
func (m *Meminfo) Set(f MemField, v uint64) {
	m.val[f] = v
	m.Has |= 1 << f
}

// ParseMeminfo fills m from /proc/meminfo's text (see above for the rules).
func ParseMeminfo(data []byte, m *Meminfo) error {
	*m = Meminfo{}
	data = truncateProcfs(data)
	for len(data) > 0 {
		line, rest, tooLong := nextScanLine(data)
		if tooLong {
			return nil
		}
		data = rest
		var f [3][]byte
		n := fieldsOf(line, f[:])
		if n < 2 || n > 3 {
			return fmt.Errorf("meminfo: malformed line %q", line)
		}
		v, err := parseUintBase0(f[1])
		if err != nil {
			return fmt.Errorf("meminfo: %w", err)
		}
		if n == 3 && string(f[2]) != "kB" {
			return fmt.Errorf("meminfo: unsupported unit %q", f[2])
		}
		if i, ok := memFieldByName[string(f[0])]; ok {
			m.Set(i, v)
		}
	}
	return nil
}
