package kernel

import "errors"

// /proc/meminfo, as Documentation/filesystems/proc.rst ("meminfo")
// describes it, is one "Name:   value kB" line per quantity ("Name: value"
// for the counts, HugePages_*). pmdalinux (proc_meminfo.c) reads each line
// as a name and a decimal number and skips what it does not know; so does
// this parser, in place, without allocating:
//   - the first field, colon included, names the line; the second is the
//     value, an unsigned decimal, kept as printed (kB, or a count); a
//     third field, if any, must be "kB"; fields after it are ignored;
//   - a line that does not read so (a missing or non-decimal value,
//     another unit) costs only itself; a repeated name keeps its last
//     value; names we do not use are skipped;
//   - the file is refused only when no line reads.
//
// procfs's Meminfo() is the oracle in the tests for the text the kernel
// writes; it reads values in base 0 (010 is 8) and refuses a whole file
// for one odd line, which we do not.

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
	// Lines only some kernels print: MemShared (2.4), the HIGHMEM split of
	// 32-bit kernels, ReverseMaps (early 2.6), MmapCopy (kernels without an
	// MMU), Quicklists (before 4.x).
	MemShared
	MemHighTotal
	MemHighFree
	MemLowTotal
	MemLowFree
	MemReverseMaps
	MemMmapCopy
	MemQuicklists
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
	MemShared:            "MemShared:",
	MemHighTotal:         "HighTotal:",
	MemHighFree:          "HighFree:",
	MemLowTotal:          "LowTotal:",
	MemLowFree:           "LowFree:",
	MemReverseMaps:       "ReverseMaps:",
	MemMmapCopy:          "MmapCopy:",
	MemQuicklists:        "Quicklists:",
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
	good := false
	for len(data) > 0 {
		line, rest := nextTextLine(data)
		data = rest
		var f [3][]byte
		n := fieldsOf(line, f[:])
		if n < 2 || n >= 3 && string(f[2]) != "kB" {
			continue
		}
		v, ok := ParseDecimal(f[1])
		if !ok {
			continue
		}
		good = true
		if i, ok := memFieldByName[string(f[0])]; ok {
			m.Set(i, v)
		}
	}
	if !good {
		return errNoMeminfoLine
	}
	return nil
}

var errNoMeminfoLine = errors.New("meminfo: no \"Name: value\" line")
