package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/procfs"
)

const meminfoText = `MemTotal:       24684092 kB
MemFree:        24300000 kB
MemAvailable:   24374424 kB
Buffers:            2000 kB
Cached:           214000 kB
Zswap:                 0 kB
Dirty:             12000 kB
Writeback:           400 kB
NFS_Unstable:          0 kB
HugePages_Total:       4
HugePages_Free:        2
Hugepagesize:       2048 kB
DirectMap1G:    25165824 kB
`

// testdataDir holds the fixture /proc trees the parsers are checked on.
const testdataDir = "../testdata"

func TestParseMeminfo(t *testing.T) {
	type want map[MemField]uint64 // every present field; the rest absent
	for _, tc := range []struct {
		name, text string
		want       want // nil: refused
	}{
		{"kernel text", meminfoText, want{
			MemTotal: 24684092, MemFree: 24300000, MemAvailable: 24374424, MemBuffers: 2000,
			MemCached: 214000, MemDirty: 12000, MemWriteback: 400, MemNFSUnstable: 0,
			MemHugePagesTotal: 4, MemHugePagesFree: 2, MemHugepagesize: 2048, MemDirectMap1G: 25165824,
		}},
		{"missing field", "MemTotal: 10 kB\nCached: 3 kB\n", want{MemTotal: 10, MemCached: 3}},
		{"no kB unit: a count, as printed", "HugePages_Total:   7\nHugepagesize: 1048576 kB\n",
			want{MemHugePagesTotal: 7, MemHugepagesize: 1048576}},
		{"no final newline", "MemFree: 5 kB", want{MemFree: 5}},
		{"CRLF and tabs", "MemFree:\t5\tkB\r\nCached: 6 kB\r\n", want{MemFree: 5, MemCached: 6}},
		{"repeated line: the last", "MemFree: 5 kB\nMemFree: 6 kB\n", want{MemFree: 6}},
		{"unknown line checked but ignored", "Weird(x): 5 kB\nMemFree: 1 kB\n", want{MemFree: 1}},
		{"name without colon not matched", "MemFree 5 kB\n", want{}},
		{"base 0 values, as strconv reads them", "MemFree: 010 kB\nCached: 0x10 kB\nDirty: 1_000 kB\n",
			want{MemFree: 8, MemCached: 16, MemDirty: 1000}},
		{"empty file", "", want{}},
		{"line too long ends the file", "MemFree: 1 kB\nCached:" + strings.Repeat(" ", maxScanLine) + "2 kB\nDirty: 3 kB\n",
			want{MemFree: 1}},
		{"one field", "MemFree:\n", nil},
		{"four fields", "MemFree: 1 kB x\n", nil},
		{"empty line", "MemFree: 1 kB\n\nCached: 2 kB\n", nil},
		{"unit MB", "MemTotal: 10 MB\n", nil},
		{"unit kb", "MemTotal: 10 kb\n", nil},
		{"negative", "MemFree: -1 kB\n", nil},
		{"not a number", "MemFree: lots kB\n", nil},
		{"overflow", "MemFree: 18446744073709551616 kB\n", nil},
		{"bad octal", "MemFree: 09 kB\n", nil},
		{"malformed unknown line", "Foo: bar\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m Meminfo
			m.Set(MemBounce, 99) // must not survive
			err := ParseMeminfo([]byte(tc.text), &m)
			if tc.want == nil {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for f := range numMemFields {
				v, ok := m.Get(f)
				w, want := tc.want[f]
				if ok != want || v != w && ok {
					t.Errorf("%s = %d, %v; want %d, %v", memFieldNames[f], v, ok, w, want)
				}
			}
		})
	}
}

// procfsMemField reads field f of procfs's Meminfo, the parser ours
// replaces.
func procfsMemField(m *procfs.Meminfo, f MemField) *uint64 {
	return [numMemFields]*uint64{
		MemTotal: m.MemTotal, MemFree: m.MemFree, MemAvailable: m.MemAvailable, MemBuffers: m.Buffers,
		MemCached: m.Cached, MemSwapCached: m.SwapCached, MemActive: m.Active, MemInactive: m.Inactive,
		MemActiveAnon: m.ActiveAnon, MemInactiveAnon: m.InactiveAnon, MemActiveFile: m.ActiveFile,
		MemInactiveFile: m.InactiveFile, MemUnevictable: m.Unevictable, MemMlocked: m.Mlocked,
		MemSwapTotal: m.SwapTotal, MemSwapFree: m.SwapFree, MemDirty: m.Dirty, MemWriteback: m.Writeback,
		MemAnonPages: m.AnonPages, MemMapped: m.Mapped, MemShmem: m.Shmem, MemSlab: m.Slab,
		MemSReclaimable: m.SReclaimable, MemSUnreclaim: m.SUnreclaim, MemKernelStack: m.KernelStack,
		MemPageTables: m.PageTables, MemNFSUnstable: m.NFSUnstable, MemBounce: m.Bounce,
		MemCommitLimit: m.CommitLimit, MemCommittedAS: m.CommittedAS, MemVmallocTotal: m.VmallocTotal,
		MemVmallocUsed: m.VmallocUsed, MemVmallocChunk: m.VmallocChunk, MemHardwareCorrupted: m.HardwareCorrupted,
		MemAnonHugePages: m.AnonHugePages, MemHugePagesTotal: m.HugePagesTotal, MemHugePagesFree: m.HugePagesFree,
		MemHugePagesRsvd: m.HugePagesRsvd, MemHugePagesSurp: m.HugePagesSurp, MemHugepagesize: m.Hugepagesize,
		MemDirectMap4k: m.DirectMap4k, MemDirectMap2M: m.DirectMap2M, MemDirectMap1G: m.DirectMap1G,
	}[f]
}

// checkMeminfoLikeProcfs parses text with both parsers and compares.
func checkMeminfoLikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "meminfo"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	pfs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, wantErr := pfs.Meminfo()
	var got Meminfo
	gotErr := ParseMeminfo(text, &got)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%.200q: error %v, procfs %v", text, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	for f := range numMemFields {
		v, ok := got.Get(f)
		p := procfsMemField(&want, f)
		if ok != (p != nil) || ok && v != *p {
			t.Errorf("%.200q: %s = %d, %v; procfs %v", text, memFieldNames[f], v, ok, p)
		}
	}
}

// The fixtures, this machine's file and odd texts parse as procfs parses them.
func TestParseMeminfoMatchesProcfs(t *testing.T) {
	texts := []string{meminfoText, "", "\n", "MemTotal:\u00a01 kB\n", "MemTotal: 1\u00a0kB\n", "MemTotal: 1 kB \u2003\n",
		"MemFree: 1 kB\nCached:" + strings.Repeat(" ", maxScanLine-7) + "2 kB\nDirty: 3 kB\n",
		"MemFree: 1 kB\nCached:" + strings.Repeat(" ", maxScanLine-8) + "2 kB\nDirty: 3 kB\n",
		strings.Repeat("MemFree: 1 kB\n", procfsReadLimit/14) + "MemFree: 12345 kB\n"}
	texts = append(texts, fileTexts(t, "meminfo")...)
	dir := t.TempDir()
	for _, text := range texts {
		checkMeminfoLikeProcfs(t, dir, []byte(text))
	}
}

// fileTexts returns every fixture's copy of a /proc file, and this
// machine's.
func fileTexts(t *testing.T, name string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testdataDir, "*", name))
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob(filepath.Join(testdataDir, "host", "*", "proc", name))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range append(append(paths, more...), filepath.Join("/proc", name)) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Log(err)
			continue
		}
		texts = append(texts, string(data))
	}
	if len(texts) < 2 {
		t.Fatalf("found %d copies of %s", len(texts), name)
	}
	return texts
}

func FuzzParseMeminfoMatchesProcfs(f *testing.F) {
	f.Add([]byte(meminfoText))
	f.Add([]byte("MemFree: 0x1f kB\nHugePages_Total: 3\n"))
	f.Add([]byte("Cached:\t1\r\n\nDirty: 2 MB\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		checkMeminfoLikeProcfs(t, dir, text)
	})
}

func BenchmarkParseMeminfo(b *testing.B) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		b.Skip(err)
	}
	var m Meminfo
	b.ReportAllocs()
	for b.Loop() {
		if err := ParseMeminfo(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}
