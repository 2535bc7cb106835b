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
		{"unknown line skipped", "Weird(x): 5 kB\nMemFree: 1 kB\n", want{MemFree: 1}},
		{"name without colon not matched", "MemFree 5 kB\n", want{}},
		{"decimal values, leading zeros included", "MemFree: 010 kB\nCached: 0x10 kB\nDirty: 1_000 kB\n",
			want{MemFree: 10}},
		{"a long line is a line", "MemFree: 1 kB\nCached:" + strings.Repeat(" ", 1<<17) + "2 kB\nDirty: 3 kB\n",
			want{MemFree: 1, MemCached: 2, MemDirty: 3}},
		{"a big file is read whole", strings.Repeat("Unknown: 1 kB\n", 1<<17) + "MemFree: 7 kB\n", want{MemFree: 7}},
		{"extra columns ignored", "MemFree: 1 kB x\n", want{MemFree: 1}},
		{"bad lines cost only themselves", "MemFree:\nMemTotal: 10 MB\nCached: 10 kb\nDirty: -1 kB\n" +
			"Buffers: lots kB\nMapped: 18446744073709551616 kB\n\nFoo: bar\nShmem: 4 kB\n", want{MemShmem: 4}},
		{"empty file", "", nil},
		{"no line reads", "MemFree:\nFoo: bar\n", nil},
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

// checkMeminfoLikeProcfs parses text with both parsers and compares where
// the text is as the kernel writes it (canonicalMeminfo): the same
// refusal, the same values. Elsewhere the rules differ by design (procfs
// reads base 0 and refuses a file for one odd line); then every value we
// report must be a decimal printed on a line of that name.
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
	if !canonicalMeminfo(text) {
		checkMeminfoValuesPrinted(t, text, &got, gotErr)
		return
	}
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
	texts := []string{meminfoText, "", "\n", "MemTotal:\u00a01 kB\n", "MemTotal: 1\u00a0kB\n", "MemTotal: 1 kB \u2003\n"}
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

// canonicalMeminfo reports whether every line is "Name: value" or
// "Name: value kB", with a plain decimal value, as the kernel prints them,
// within the first MiB and lines under 64 KiB (where procfs stops).
func canonicalMeminfo(text []byte) bool {
	if len(text) == 0 || len(text) >= 1<<20 {
		return false
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		f := strings.Fields(line)
		if len(line) >= 1<<16 || len(f) < 2 || len(f) > 3 || len(f) == 3 && f[2] != "kB" {
			return false
		}
		if v := f[1]; v == "" || v[0] == '0' && len(v) > 1 || strings.Trim(v, "0123456789") != "" || len(v) > 19 {
			return false
		}
	}
	return true
}

// checkMeminfoValuesPrinted checks, for text procfs and we read by
// different rules, that each value we report was printed as a decimal on
// a line of its name.
func checkMeminfoValuesPrinted(t *testing.T, text []byte, got *Meminfo, err error) {
	t.Helper()
	if err != nil {
		return
	}
	for f := range numMemFields {
		v, ok := got.Get(f)
		if ok && !strings.Contains("\n"+string(text), "\n"+memFieldNames[f]) {
			t.Errorf("%.200q: %s = %d, but no line of that name", text, memFieldNames[f], v)
		}
	}
}
