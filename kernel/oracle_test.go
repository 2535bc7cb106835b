package kernel

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/procfs"
	"github.com/prometheus/procfs/blockdevice"
)

// Differential tests against procfs for the files both parse: the
// fixtures, this machine's file, and fuzzed text. Where both accept a
// text, the values must agree; where the rules differ by design, the
// comment says why.

// globTexts returns the text of every file matching the patterns below
// testdata, and of the live one.
func globTexts(t testing.TB, live string, patterns ...string) []string {
	var texts []string
	for _, p := range patterns {
		paths, _ := filepath.Glob(filepath.Join(testdataDir, p))
		for _, path := range append(paths, live) {
			if data, err := os.ReadFile(path); err == nil {
				texts = append(texts, string(data))
			}
		}
	}
	if len(texts) < 2 {
		t.Fatalf("found %d texts for %v", len(texts), patterns)
	}
	return texts
}

func TestParseDiskstatsMatchesProcfs(t *testing.T) {
	dir := t.TempDir()
	for _, text := range globTexts(t, "/proc/diskstats", "disk/*/proc/diskstats", "proc-*/diskstats") {
		checkDiskstatsLikeProcfs(t, dir, []byte(text))
	}
}

func FuzzParseDiskstatsMatchesProcfs(f *testing.F) {
	for _, text := range globTexts(f, "/proc/diskstats", "disk/*/proc/diskstats") {
		f.Add([]byte(text))
	}
	f.Add([]byte("   8       0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		checkDiskstatsLikeProcfs(t, dir, text)
	})
}

// checkDiskstatsLikeProcfs: procfs (ProcDiskstats) scans each line with
// fmt.Sscanf; we read fields as the kernel writes them (decimal, separated
// by blanks). Where both accept the text and it is plain ASCII decimal,
// every device and counter agrees.
func checkDiskstatsLikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	ours, err := ParseDiskstats(text, nil)
	if err != nil || !plainText(text) {
		return
	}
	if err := os.MkdirAll(filepath.Join(dir, "sys"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proc", "diskstats"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := blockdevice.NewFS(filepath.Join(dir, "proc"), filepath.Join(dir, "sys"))
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := fs.ProcDiskstats()
	if err != nil {
		return
	}
	if len(ours) != len(theirs) {
		t.Fatalf("%.200q: %d devices, procfs %d", text, len(ours), len(theirs))
	}
	for i, d := range ours {
		p := theirs[i]
		if d.Name != p.DeviceName || d.Major != p.MajorNumber || d.Minor != p.MinorNumber || d.Fields != p.IoStatsCount {
			t.Errorf("device %d: %s %d:%d (%d fields), procfs %s %d:%d (%d)", i, d.Name, d.Major, d.Minor, d.Fields,
				p.DeviceName, p.MajorNumber, p.MinorNumber, p.IoStatsCount)
		}
		got := [...]uint64{d.ReadIOs, d.ReadMerges, d.ReadSectors, d.ReadTicks, d.WriteIOs, d.WriteMerges,
			d.WriteSectors, d.WriteTicks, d.InProgress, d.IOTicks, d.WeightedIOTicks, d.DiscardIOs,
			d.DiscardMerges, d.DiscardSectors, d.DiscardTicks, d.FlushIOs, d.FlushTicks}
		want := [...]uint64{p.ReadIOs, p.ReadMerges, p.ReadSectors, p.ReadTicks, p.WriteIOs, p.WriteMerges,
			p.WriteSectors, p.WriteTicks, p.IOsInProgress, p.IOsTotalTicks, p.WeightedIOTicks, p.DiscardIOs,
			p.DiscardMerges, p.DiscardSectors, p.DiscardTicks, p.FlushRequestsCompleted, p.TimeSpentFlushing}
		if got != want {
			t.Errorf("%s: %v, procfs %v", d.Name, got, want)
		}
	}
}

func TestParseNetDevMatchesProcfs(t *testing.T) {
	dir := t.TempDir()
	for _, text := range globTexts(t, "/proc/net/dev", "network/*/proc/net/dev", "proc-*/net/dev") {
		checkNetDevLikeProcfs(t, dir, []byte(text))
	}
}

func FuzzParseNetDevMatchesProcfs(f *testing.F) {
	for _, text := range globTexts(f, "/proc/net/dev", "network/*/proc/net/dev") {
		f.Add([]byte(text))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		checkNetDevLikeProcfs(t, dir, text)
	})
}

// checkNetDevLikeProcfs: procfs's NetDev fails the whole file for one bad
// line and skips the two heading lines by position; we skip a bad line
// alone and headings by their lack of a colon. Where the text has the
// kernel's two headings (no colon in them), procfs accepts it and we found
// no bad line, every interface and counter agrees; we never return a name
// that is unsafe as a path.
func checkNetDevLikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	lines, bad := ParseNetDev(text, nil)
	for _, l := range lines {
		if !validNetDevName(l.Name) {
			t.Fatalf("%.200q: returned name %q", text, l.Name)
		}
	}
	// A second colon on a line is not the kernel's (names have none):
	// procfs splits at the last colon, we at the first.
	heads := strings.SplitN(string(text), "\n", 3)
	if bad != 0 || !plainText(text) || len(heads) < 3 || strings.Contains(heads[0]+heads[1], ":") ||
		strings.Contains(string(text), ":") && hasTwoColons(text) {
		return
	}
	if err := os.MkdirAll(filepath.Join(dir, "net"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "net", "dev"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	var theirs procfs.NetDev
	err = oracle(func() (err error) { theirs, err = fs.NetDev(); return err })
	if err != nil {
		return // procfs refused (or crashed on) what we read line by line
	}
	if len(lines) != len(theirs) && !repeatedNames(lines) {
		t.Fatalf("%.200q: %d interfaces, procfs %d", text, len(lines), len(theirs))
	}
	for _, l := range lines {
		p, ok := theirs[string(l.Name)]
		if !ok {
			t.Errorf("%s: not in procfs's", l.Name)
			continue
		}
		want := [NetDevColumns]uint64{p.RxBytes, p.RxPackets, p.RxErrors, p.RxDropped, p.RxFIFO, p.RxFrame,
			p.RxCompressed, p.RxMulticast, p.TxBytes, p.TxPackets, p.TxErrors, p.TxDropped, p.TxFIFO,
			p.TxCollisions, p.TxCarrier, p.TxCompressed}
		if l.V != want && !repeatedNames(lines) {
			t.Errorf("%s: %v, procfs %v", l.Name, l.V, want)
		}
	}
}

func repeatedNames(lines []NetDevLine) bool {
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[string(l.Name)] {
			return true
		}
		seen[string(l.Name)] = true
	}
	return false
}

func TestParseLoadavgMatchesProcfs(t *testing.T) {
	dir := t.TempDir()
	for _, text := range globTexts(t, "/proc/loadavg", "proc-*/loadavg", "host/*/proc/loadavg") {
		checkLoadavgLikeProcfs(t, dir, []byte(text))
	}
}

func FuzzParseLoadavgMatchesProcfs(f *testing.F) {
	f.Add([]byte("0.06 0.08 0.12 1/87 4242\n"))
	f.Add([]byte("1.00 2.00 3.00 4/5 6 extra\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		checkLoadavgLikeProcfs(t, dir, text)
	})
}

// checkLoadavgLikeProcfs: procfs reads the three averages only; where both
// accept the text, they agree to a C float's precision (we read them as
// pmdalinux's sscanf %f does).
func checkLoadavgLikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	ours, err := ParseLoadavg(text)
	if err != nil {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "loadavg"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := fs.LoadAvg()
	if err != nil {
		return
	}
	for i, want := range []float64{theirs.Load1, theirs.Load5, theirs.Load15} {
		if float32(ours.Load[i]) != float32(want) {
			t.Errorf("%.100q: load[%d] = %v, procfs %v", text, i, ours.Load[i], want)
		}
	}
}

// plainText reports whether text is printable ASCII lines, as the kernel
// writes its counters: the oracles' Sscanf and Fields accept Unicode
// spaces and signs that we read by the kernel's format instead.
func plainText(text []byte) bool {
	for _, c := range text {
		if c != '\n' && c != '\t' && (c < ' ' || c > '~') {
			return false
		}
	}
	return true
}

// oracle runs a procfs parse, turning a panic (procfs's NetDev indexes
// fields without counting them) into a refusal.
func oracle(parse func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("procfs panicked: %v", p)
		}
	}()
	return parse()
}

func hasTwoColons(text []byte) bool {
	for _, line := range strings.Split(string(text), "\n") {
		if strings.Count(line, ":") > 1 {
			return true
		}
	}
	return false
}
