package collector

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

func TestParseMeminfo(t *testing.T) {
	type want map[memField]uint64 // every present field; the rest absent
	for _, tc := range []struct {
		name, text string
		want       want // nil: refused
	}{
		{"kernel text", meminfoText, want{
			memTotal: 24684092, memFree: 24300000, memAvailable: 24374424, memBuffers: 2000,
			memCached: 214000, memDirty: 12000, memWriteback: 400, memNFSUnstable: 0,
			memHugePagesTotal: 4, memHugePagesFree: 2, memHugepagesize: 2048, memDirectMap1G: 25165824,
		}},
		{"missing field", "MemTotal: 10 kB\nCached: 3 kB\n", want{memTotal: 10, memCached: 3}},
		{"no kB unit: a count, as printed", "HugePages_Total:   7\nHugepagesize: 1048576 kB\n",
			want{memHugePagesTotal: 7, memHugepagesize: 1048576}},
		{"no final newline", "MemFree: 5 kB", want{memFree: 5}},
		{"CRLF and tabs", "MemFree:\t5\tkB\r\nCached: 6 kB\r\n", want{memFree: 5, memCached: 6}},
		{"repeated line: the last", "MemFree: 5 kB\nMemFree: 6 kB\n", want{memFree: 6}},
		{"unknown line checked but ignored", "Weird(x): 5 kB\nMemFree: 1 kB\n", want{memFree: 1}},
		{"name without colon not matched", "MemFree 5 kB\n", want{}},
		{"base 0 values, as strconv reads them", "MemFree: 010 kB\nCached: 0x10 kB\nDirty: 1_000 kB\n",
			want{memFree: 8, memCached: 16, memDirty: 1000}},
		{"empty file", "", want{}},
		{"line too long ends the file", "MemFree: 1 kB\nCached:" + strings.Repeat(" ", maxScanLine) + "2 kB\nDirty: 3 kB\n",
			want{memFree: 1}},
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
			var m meminfo
			m.set(memBounce, 99) // must not survive
			err := parseMeminfo([]byte(tc.text), &m)
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
				v, ok := m.get(f)
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
func procfsMemField(m *procfs.Meminfo, f memField) *uint64 {
	return [numMemFields]*uint64{
		memTotal: m.MemTotal, memFree: m.MemFree, memAvailable: m.MemAvailable, memBuffers: m.Buffers,
		memCached: m.Cached, memSwapCached: m.SwapCached, memActive: m.Active, memInactive: m.Inactive,
		memActiveAnon: m.ActiveAnon, memInactiveAnon: m.InactiveAnon, memActiveFile: m.ActiveFile,
		memInactiveFile: m.InactiveFile, memUnevictable: m.Unevictable, memMlocked: m.Mlocked,
		memSwapTotal: m.SwapTotal, memSwapFree: m.SwapFree, memDirty: m.Dirty, memWriteback: m.Writeback,
		memAnonPages: m.AnonPages, memMapped: m.Mapped, memShmem: m.Shmem, memSlab: m.Slab,
		memSReclaimable: m.SReclaimable, memSUnreclaim: m.SUnreclaim, memKernelStack: m.KernelStack,
		memPageTables: m.PageTables, memNFSUnstable: m.NFSUnstable, memBounce: m.Bounce,
		memCommitLimit: m.CommitLimit, memCommittedAS: m.CommittedAS, memVmallocTotal: m.VmallocTotal,
		memVmallocUsed: m.VmallocUsed, memVmallocChunk: m.VmallocChunk, memHardwareCorrupted: m.HardwareCorrupted,
		memAnonHugePages: m.AnonHugePages, memHugePagesTotal: m.HugePagesTotal, memHugePagesFree: m.HugePagesFree,
		memHugePagesRsvd: m.HugePagesRsvd, memHugePagesSurp: m.HugePagesSurp, memHugepagesize: m.Hugepagesize,
		memDirectMap4k: m.DirectMap4k, memDirectMap2M: m.DirectMap2M, memDirectMap1G: m.DirectMap1G,
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
	var got meminfo
	gotErr := parseMeminfo(text, &got)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%.200q: error %v, procfs %v", text, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	for f := range numMemFields {
		v, ok := got.get(f)
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
	more, err := filepath.Glob(filepath.Join(testdataDir, hostTestdataDir, "*", "proc", name))
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
	var m meminfo
	b.ReportAllocs()
	for b.Loop() {
		if err := parseMeminfo(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}
