package kernel

import (
	"os"
	"testing"
)

func TestParsePidSmapsRollup(t *testing.T) {
	full := "5602da8f0000-7fff3a08f000 ---p 00000000 00:00 0                          [rollup]\n" +
		"Rss:                1752 kB\nPss:                 334 kB\nPss_Dirty:           112 kB\n" +
		"Pss_Anon:            112 kB\nPss_File:            222 kB\nPss_Shmem:             0 kB\n" +
		"Shared_Clean:       1600 kB\nShared_Dirty:          0 kB\nPrivate_Clean:        40 kB\n" +
		"Private_Dirty:       112 kB\nReferenced:         1752 kB\nAnonymous:           112 kB\n" +
		"KSM:                   0 kB\nLazyFree:              3 kB\nAnonHugePages:         4 kB\n" +
		"ShmemPmdMapped:        5 kB\nFilePmdMapped:         6 kB\nShared_Hugetlb:        7 kB\n" +
		"Private_Hugetlb:       8 kB\nSwap:                  9 kB\nSwapPss:              10 kB\n" +
		"Locked:               11 kB\n"
	tests := []struct {
		name string
		text string
		ok   bool
		want map[int]uint64
	}{
		{"6.x kernel", full, true, map[int]uint64{SmapsRss: 1752, SmapsPss: 334, SmapsPssAnon: 112,
			SmapsPssFile: 222, SmapsSharedClean: 1600, SmapsPrivateClean: 40, SmapsPrivateDirty: 112,
			SmapsReferenced: 1752, SmapsAnonymous: 112, SmapsLazyFree: 3, SmapsAnonHugePages: 4,
			SmapsShmemPmdMapped: 5, SmapsFilePmdMapped: 6, SmapsSharedHugetlb: 7, SmapsPrivateHugetlb: 8,
			SmapsSwap: 9, SmapsSwapPss: 10, SmapsLocked: 11}},
		// A 4.14 kernel prints no Pss_Anon/File/Shmem: they stay 0.
		{"older kernel", "00400000-7ffd0000 ---p 00000000 00:00 0 [rollup]\nRss: 100 kB\nPss: 50 kB\n" +
			"Swap: 2 kB\n", true, map[int]uint64{SmapsRss: 100, SmapsPss: 50, SmapsSwap: 2}},
		{"kernel thread: empty", "", false, nil},
		{"header alone", "00400000-7ffd0000 ---p 00000000 00:00 0 [rollup]\n", false, nil},
		{"bad number", "Rss: 1x kB\n", false, nil},
		{"no newline at the end", "Rss: 12 kB", true, map[int]uint64{SmapsRss: 12}},
	}
	for _, tc := range tests {
		var s PidSmaps
		err := ParsePidSmapsRollup([]byte(tc.text), &s)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok %v", tc.name, err, tc.ok)
			continue
		}
		for i := range SmapsFields {
			if tc.ok && s.KB[i] != tc.want[i] {
				t.Errorf("%s: field %d = %d, want %d", tc.name, i, s.KB[i], tc.want[i])
			}
		}
	}
}

// This process's own rollup parses, and its Rss is not 0.
func TestParsePidSmapsRollupSelf(t *testing.T) {
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skip(err)
	}
	var s PidSmaps
	if err := ParsePidSmapsRollup(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.KB[SmapsRss] == 0 || s.KB[SmapsPss] > s.KB[SmapsRss] {
		t.Errorf("rss %d pss %d", s.KB[SmapsRss], s.KB[SmapsPss])
	}
}
