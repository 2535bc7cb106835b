package kernel

import (
	"bytes"
	"fmt"
)

// PidSmaps is one parsed /proc/PID/smaps_rollup: the sums over every
// mapping of the process, in kB as the file prints them. A line an older
// kernel does not print stays 0.
type PidSmaps struct {
	KB [SmapsFields]uint64
}

// The lines of PidSmaps.KB, in pmdaproc's proc.smaps item order.
const (
	SmapsRss = iota
	SmapsPss
	SmapsPssAnon
	SmapsPssFile
	SmapsPssShmem
	SmapsSharedClean
	SmapsSharedDirty
	SmapsPrivateClean
	SmapsPrivateDirty
	SmapsReferenced
	SmapsAnonymous
	SmapsLazyFree
	SmapsAnonHugePages
	SmapsShmemPmdMapped
	SmapsFilePmdMapped
	SmapsSharedHugetlb
	SmapsPrivateHugetlb
	SmapsSwap
	SmapsSwapPss
	SmapsLocked
	SmapsFields
)

// smapsKeys maps a line's key to its place in PidSmaps.KB.
var smapsKeys = map[string]int{
	"Rss": SmapsRss, "Pss": SmapsPss, "Pss_Anon": SmapsPssAnon, "Pss_File": SmapsPssFile,
	"Pss_Shmem": SmapsPssShmem, "Shared_Clean": SmapsSharedClean, "Shared_Dirty": SmapsSharedDirty,
	"Private_Clean": SmapsPrivateClean, "Private_Dirty": SmapsPrivateDirty, "Referenced": SmapsReferenced,
	"Anonymous": SmapsAnonymous, "LazyFree": SmapsLazyFree, "AnonHugePages": SmapsAnonHugePages,
	"ShmemPmdMapped": SmapsShmemPmdMapped, "FilePmdMapped": SmapsFilePmdMapped,
	"Shared_Hugetlb": SmapsSharedHugetlb, "Private_Hugetlb": SmapsPrivateHugetlb, "Swap": SmapsSwap,
	"SwapPss": SmapsSwapPss, "Locked": SmapsLocked,
}

// ParsePidSmapsRollup reads the "Key: N kB" lines after the rollup's
// header line. A kernel thread's file is empty: no Rss line is an error,
// as is a known line whose value is not a decimal.
func ParsePidSmapsRollup(data []byte, s *PidSmaps) error {
	*s = PidSmaps{}
	seenRss := false
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		i, known := smapsKeys[string(key)]
		if !known {
			continue
		}
		num, _, _ := bytes.Cut(bytes.TrimSpace(value), []byte(" "))
		v, ok := parseUint(num)
		if !ok {
			return fmt.Errorf("smaps_rollup line %s: bad value %q", key, clip(value))
		}
		s.KB[i] = v
		seenRss = seenRss || i == SmapsRss
	}
	if !seenRss {
		return fmt.Errorf("smaps_rollup: no Rss line in %q", clip(data))
	}
	return nil
}
