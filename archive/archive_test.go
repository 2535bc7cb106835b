package archive

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// need skips a test when a PCP tool is missing, except in CI.
func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.SkipOutsideCI(t, tool+" is not installed (Debian's pcp package has it)")
		}
	}
}

// A record pmlogger wrote, byte for byte (a descriptor of pmcd's string
// metric pmcd.pmlogger.host, PMID 2.3.3, in indom 2.1).
func TestDescBytes(t *testing.T) {
	want := []byte{0, 0, 0, 0x3a, 0, 0, 0, 1, 0, 0x80, 0x0c, 0x03, 0, 0, 0, 6, 0, 0x80, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 0x12}
	want = append(want, "pmcd.pmlogger.host"...)
	want = append(want, 0, 0, 0, 0x3a)
	got := AppendDesc(nil, Desc{PMID: 2<<22 | 3<<10 | 3, Type: TypeString, InDom: 2<<22 | 1, Sem: 4,
		Names: []string{"pmcd.pmlogger.host"}})
	if !bytes.Equal(got, want) {
		t.Errorf("desc\n got % x\nwant % x", got, want)
	}
}

// Value blocks are padded to 32 bits, the offsets count words from where
// the PDU header would begin, and 32-bit values stay in place.
func TestResultLayout(t *testing.T) {
	at := time.Unix(1000, 5000)
	rec, err := AppendResult(nil, at, []ValueSet{
		{PMID: 1, Type: TypeU32, Values: []Value{{Inst: 0xffffffff, Bits: 7}}},
		{PMID: 2, Type: TypeString, Values: []Value{{Inst: 3, Str: "ab"}}},
		{PMID: 3, Type: TypeU64},
	})
	if err != nil {
		t.Fatal(err)
	}
	u32 := func(off int) uint32 { return binary.BigEndian.Uint32(rec[off:]) }
	if n := u32(12); n != 2 {
		t.Fatalf("%d value sets, want 2 (an empty set is left out)", n)
	}
	if u32(16) != 1 || u32(20) != 1 || u32(24) != 0 || u32(28) != 0xffffffff || u32(32) != 7 {
		t.Errorf("insitu set: % x", rec[16:36])
	}
	off := int(u32(52))*4 - resultHeader
	if off != 56 || u32(off) != TypeString<<24|7 || string(rec[off+4:off+6]) != "ab" || rec[off+6] != 0 {
		t.Errorf("string block at %d: % x", off, rec)
	}
	if len(rec) != 56+8+4 || u32(len(rec)-4) != uint32(len(rec)) {
		t.Errorf("record of %d bytes: % x", len(rec), rec)
	}
}

// recordWithPmlogger records a few seconds of metrics of every value type
// with the real pmlogger and returns the archive's path.
func recordWithPmlogger(t *testing.T) string {
	t.Helper()
	need(t, "pmlogger", "pmprobe")
	if err := exec.Command("pmprobe", "-h", "local:", "pmcd.version").Run(); err != nil {
		testenv.SkipOutsideCI(t, "pmcd is not running")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	os.WriteFile(cfg, []byte("log mandatory on default {\n kernel.all.load\n kernel.all.intr\n hinv.ncpu\n"+
		" kernel.uname.release\n disk.dev.read\n kernel.all.uptime\n network.interface.in.bytes\n}\n"), 0o644)
	archive := filepath.Join(dir, "pmlogger")
	out, err := exec.Command("pmlogger", "-c", cfg, "-s", "3", "-t", "1", "-l", filepath.Join(dir, "log"), archive).CombinedOutput()
	if err != nil {
		t.Fatalf("pmlogger: %v\n%s", err, out)
	}
	return archive
}

// Every record of an archive pmlogger wrote on this machine, decoded and
// encoded again by this package, is the same bytes: log labels, metric
// descriptors, instance domains, label sets, help text, results with
// values of every type pmdalinux gives, and the temporal index.
func TestSameBytesAsPmlogger(t *testing.T) {
	archive := recordWithPmlogger(t)
	types := map[uint32]int32{}
	for _, ext := range []string{".meta", ".index", ".0"} {
		file, err := os.ReadFile(archive + ext)
		if err != nil {
			t.Fatal(err)
		}
		l, err := decodeLogLabel(file[:labelSize])
		if err != nil {
			t.Fatal(err)
		}
		if again := AppendLogLabel(nil, l); !bytes.Equal(again, file[:labelSize]) {
			t.Errorf("%s log label\n got % x\nwant % x", ext, again, file[:labelSize])
		}
		if ext == ".index" {
			checkIndex(t, file[labelSize:])
			continue
		}
		recs, err := records(file)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		for i, rec := range recs {
			orig, again, err := rec, []byte(nil), error(nil)
			if ext == ".meta" {
				again, err = reencodeMeta(rec, types)
			} else {
				orig, again, err = reencodeResult(rec, types)
			}
			if err != nil {
				t.Fatalf("%s record %d: %v", ext, i, err)
			}
			if !bytes.Equal(again, orig) {
				t.Errorf("%s record %d\n got % x\nwant % x", ext, i, again, orig)
			}
		}
		t.Logf("%s: %d records the same", ext, len(recs))
	}
}

func checkIndex(t *testing.T, entries []byte) {
	t.Helper()
	if len(entries)%20 != 0 || len(entries) == 0 {
		t.Fatalf("index of %d bytes", len(entries))
	}
	for off := 0; off < len(entries); off += 20 {
		r := &rd{b: entries[off : off+20]}
		at, vol, m, d := r.time(), int32(r.u32()), r.u32(), r.u32()
		if again := AppendIndex(nil, at, vol, int64(m), int64(d)); !bytes.Equal(again, entries[off:off+20]) {
			t.Errorf("index entry %d\n got % x\nwant % x", off/20, again, entries[off:off+20])
		}
	}
}

// An archive written by this package, with an instance that appears, a
// counter that goes backwards, a change of interval, labels and help,
// passes pmlogcheck, and pmdumplog shows what was written.
func TestPCPReadsWhatWeWrite(t *testing.T) {
	need(t, "pmlogcheck", "pmdumplog")
	path := filepath.Join(t.TempDir(), "ours")
	start := time.Unix(1_790_000_000, 500_000_000)
	w, err := Create(path, LogLabel{PID: 42, Start: start, Host: "testhost", TZ: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	const domain = 396
	counter := uint32(domain<<22 | 1<<10 | 0)
	load := uint32(domain<<22 | 2<<10 | 0)
	name := uint32(domain<<22 | 3<<10 | 0)
	indom := uint32(domain<<22 | 2)
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(w.Desc(Desc{PMID: counter, Type: TypeU64, InDom: 0xffffffff, Sem: 1, Units: 1 << 20, Names: []string{"hostcache.test.count"}}))
	check(w.Desc(Desc{PMID: load, Type: TypeDouble, InDom: indom, Sem: 3, Names: []string{"hostcache.test.load"}}))
	check(w.Desc(Desc{PMID: name, Type: TypeString, InDom: 0xffffffff, Sem: 4, Names: []string{"hostcache.test.name"}}))
	check(w.Labels(start, LabelDomain, domain, []LabelSet{{Inst: 0xffffffff, Labels: []Label{{Name: "agent", Value: `"hostcache"`}}}}))
	check(w.Labels(start, LabelItem, counter, []LabelSet{{Inst: 0xffffffff, Labels: []Label{{Name: "collector", Value: `"test"`}}}}))
	check(w.Text(TextOneLine|TextPMID, counter, "a test counter"))
	check(w.Text(TextHelp|TextPMID, counter, "A counter that\ngoes backwards once."))
	check(w.Text(TextOneLine|TextInDom, indom, "test windows"))
	insts := []Instance{{1, "one"}}
	check(w.InDom(start, indom, insts))
	check(w.Labels(start, LabelInstances, indom, []LabelSet{{Inst: 1, Labels: []Label{{Name: "window", Value: `"one"`}}}}))
	at, count := start, uint64(1000)
	for i := 0; i < 20; i++ {
		if i == 10 { // an instance appears
			insts = append(insts, Instance{5, "five"})
			check(w.InDom(at, indom, insts))
		}
		count += 100
		if i == 14 { // a reset
			count = 3
		}
		sets := []ValueSet{{PMID: counter, Type: TypeU64, Values: []Value{{Inst: 0xffffffff, Bits: count}}}}
		var loads []Value
		for _, x := range insts {
			loads = append(loads, Value{Inst: x.ID, Bits: math.Float64bits(float64(x.ID) + float64(i)/10)})
		}
		sets = append(sets, ValueSet{PMID: load, Type: TypeDouble, Values: loads})
		if i == 0 {
			sets = append(sets, ValueSet{PMID: name, Type: TypeString, Values: []Value{{Inst: 0xffffffff, Str: "hullo"}}})
		}
		check(w.Result(at, sets))
		step := time.Second
		if i >= 5 { // the interval changes
			step = 2 * time.Second
		}
		at = at.Add(step)
	}
	final, err := w.Commit()
	check(err)
	if out, err := exec.Command("pmlogcheck", "-v", final).CombinedOutput(); err != nil {
		t.Errorf("pmlogcheck: %v\n%s", err, out)
	}
	out, err := exec.Command("pmdumplog", "-a", "-e", "-h", "-z", final).CombinedOutput()
	if err != nil {
		t.Fatalf("pmdumplog: %v\n%s", err, out)
	}
	for _, want := range []string{
		"PMID: 396.1.0 (hostcache.test.count)", "Semantics: counter", `5 or "five"`,
		`{"collector":"test"}`, `{"agent":"hostcache"}`, "a test counter", "goes backwards once.",
		`value "hullo"`, "value 3\n", "value 6.9", "host testhost",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pmdumplog -aeh lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("pmdumplog -aeh:\n%s", out)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(final), ".ours*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// An aborted archive leaves nothing, and an existing one is not overwritten.
func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(filepath.Join(dir, "a"), LogLabel{Start: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w.Result(time.Now(), nil)
	w.Abort()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left after Abort: %v", left)
	}
	os.WriteFile(filepath.Join(dir, "b.meta"), nil, 0o644)
	if _, err := Create(filepath.Join(dir, "b"), LogLabel{}); err == nil {
		t.Error("an existing archive was not refused")
	}
}

// Results beyond the volume limit go to a new volume, indexed.
func TestNewVolume(t *testing.T) {
	need(t, "pmlogcheck")
	path := filepath.Join(t.TempDir(), "vols")
	start := time.Unix(1_790_000_000, 0)
	w, err := Create(path, LogLabel{Start: start, Host: "h", TZ: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	w.VolumeLimit = 1024
	pmid := uint32(396<<22 | 1)
	w.Desc(Desc{PMID: pmid, Type: TypeU64, InDom: 0xffffffff, Sem: 1, Names: []string{"hostcache.test.n"}})
	for i := 0; i < 100; i++ {
		if err := w.Result(start.Add(time.Duration(i)*time.Second), []ValueSet{{PMID: pmid, Type: TypeU64, Values: []Value{{Inst: 0xffffffff, Bits: uint64(i)}}}}); err != nil {
			t.Fatal(err)
		}
	}
	final, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(final + ".3"); err != nil {
		t.Errorf("no fourth volume: %v", err)
	}
	if out, err := exec.Command("pmlogcheck", final).CombinedOutput(); err != nil {
		t.Errorf("pmlogcheck: %v\n%s", err, out)
	}
	out, _ := exec.Command("pmdumplog", final, "hostcache.test.n").CombinedOutput()
	if n := strings.Count(string(out), "hostcache.test.n"); n != 100 {
		t.Errorf("pmdumplog shows %d values over the volumes, want 100", n)
	}
}
