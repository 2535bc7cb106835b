package collector

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

// memField names a /proc/meminfo line the collectors use.
type memField uint8

const (
	memTotal memField = iota
	memFree
	memAvailable
	memBuffers
	memCached
	memSwapCached
	memActive
	memInactive
	memActiveAnon
	memInactiveAnon
	memActiveFile
	memInactiveFile
	memUnevictable
	memMlocked
	memSwapTotal
	memSwapFree
	memDirty
	memWriteback
	memAnonPages
	memMapped
	memShmem
	memSlab
	memSReclaimable
	memSUnreclaim
	memKernelStack
	memPageTables
	memNFSUnstable
	memBounce
	memCommitLimit
	memCommittedAS
	memVmallocTotal
	memVmallocUsed
	memVmallocChunk
	memHardwareCorrupted
	memAnonHugePages
	memHugePagesTotal
	memHugePagesFree
	memHugePagesRsvd
	memHugePagesSurp
	memHugepagesize
	memDirectMap4k
	memDirectMap2M
	memDirectMap1G
	numMemFields
)

// memFieldNames are the lines' names as the kernel prints them.
var memFieldNames = [numMemFields]string{
	memTotal:             "MemTotal:",
	memFree:              "MemFree:",
	memAvailable:         "MemAvailable:",
	memBuffers:           "Buffers:",
	memCached:            "Cached:",
	memSwapCached:        "SwapCached:",
	memActive:            "Active:",
	memInactive:          "Inactive:",
	memActiveAnon:        "Active(anon):",
	memInactiveAnon:      "Inactive(anon):",
	memActiveFile:        "Active(file):",
	memInactiveFile:      "Inactive(file):",
	memUnevictable:       "Unevictable:",
	memMlocked:           "Mlocked:",
	memSwapTotal:         "SwapTotal:",
	memSwapFree:          "SwapFree:",
	memDirty:             "Dirty:",
	memWriteback:         "Writeback:",
	memAnonPages:         "AnonPages:",
	memMapped:            "Mapped:",
	memShmem:             "Shmem:",
	memSlab:              "Slab:",
	memSReclaimable:      "SReclaimable:",
	memSUnreclaim:        "SUnreclaim:",
	memKernelStack:       "KernelStack:",
	memPageTables:        "PageTables:",
	memNFSUnstable:       "NFS_Unstable:",
	memBounce:            "Bounce:",
	memCommitLimit:       "CommitLimit:",
	memCommittedAS:       "Committed_AS:",
	memVmallocTotal:      "VmallocTotal:",
	memVmallocUsed:       "VmallocUsed:",
	memVmallocChunk:      "VmallocChunk:",
	memHardwareCorrupted: "HardwareCorrupted:",
	memAnonHugePages:     "AnonHugePages:",
	memHugePagesTotal:    "HugePages_Total:",
	memHugePagesFree:     "HugePages_Free:",
	memHugePagesRsvd:     "HugePages_Rsvd:",
	memHugePagesSurp:     "HugePages_Surp:",
	memHugepagesize:      "Hugepagesize:",
	memDirectMap4k:       "DirectMap4k:",
	memDirectMap2M:       "DirectMap2M:",
	memDirectMap1G:       "DirectMap1G:",
}

// memFieldByName finds a line's field by its first field.
var memFieldByName = func() map[string]memField {
	m := make(map[string]memField, numMemFields)
	for f, name := range memFieldNames {
		m[name] = memField(f)
	}
	return m
}()

// The presence bitmap has one bit per field.
var _ [64 - numMemFields]struct{}

// meminfo is a parsed /proc/meminfo: the value of each field the kernel
// printed, and which it printed. An absent field has no value, never 0.
type meminfo struct {
	val [numMemFields]uint64
	has uint64 // bit f set when field f was present
}

// get returns field f, false when the kernel did not print it.
func (m *meminfo) get(f memField) (uint64, bool) {
	return m.val[f], m.has&(1<<f) != 0
}

// set records field f (tests build samples with it).
func (m *meminfo) set(f memField, v uint64) {
	m.val[f] = v
	m.has |= 1 << f
}

// parseMeminfo fills m from /proc/meminfo's text (see above for the rules).
func parseMeminfo(data []byte, m *meminfo) error {
	*m = meminfo{}
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
			m.set(i, v)
		}
	}
	return nil
}
