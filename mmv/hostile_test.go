package mmv

import (
	"errors"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// A file cut at any length is refused or, for cuts in the unused tail, read
// in full; nothing panics, and every value is read within bounds.
func TestEveryPrefixOfEveryVersion(t *testing.T) {
	for v := 1; v <= 3; v++ {
		data := mmvtest.Build(mmvtest.AllTypes(v)).Data
		for n := 0; n < len(data); n++ {
			f, err := Parse(data[:n], DefaultLimits())
			if err == nil {
				t.Fatalf("v%d cut at %d of %d parses", v, n, len(data))
			}
			if f != nil {
				t.Fatalf("v%d cut at %d: a file with the error %v", v, n, err)
			}
		}
	}
}

// A value read from a file that shrank after Parse is ok=false, not a
// panic; the bytes still there read as before.
func TestShrunkFileReadsNothingPastItsEnd(t *testing.T) {
	for v := 1; v <= 3; v++ {
		b := mmvtest.Build(mmvtest.AllTypes(v))
		f := mustParse(t, b.Data)
		if f.Fits(b.Data[:len(b.Data)-1]) || !f.Fits(b.Data) {
			t.Errorf("v%d: Fits wrong about a one-byte shrink", v)
		}
		for n := 0; n < len(b.Data); n++ {
			cut := b.Data[:n]
			for i := range f.Values {
				val := &f.Values[i]
				end := val.Offset + 8
				switch val.Type {
				case TypeElapsed:
					end += 8
				case TypeString:
					end = val.Text + stringSize
				}
				got := read(val, cut)
				if (got != nil) != (int64(n) >= end) {
					t.Fatalf("v%d cut at %d: value %d (bytes to %d) read %v", v, n, i, end, got)
				}
			}
		}
	}
}

// hostile is one corruption of a valid file and the error it must give.
type hostile struct {
	name    string
	version int
	spoil   func(b *mmvtest.Built)
	kind    error
	say     string // in the error's text
}

func TestHostileFilesAreRefused(t *testing.T) {
	cases := append(append(headerCases(), tocCases()...), append(recordCases(), referenceCases()...)...)
	for _, c := range cases {
		b := mmvtest.Build(mmvtest.AllTypes(c.version))
		c.spoil(b)
		f, err := Parse(b.Data, DefaultLimits())
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.say) {
			t.Errorf("%s (v%d): %v, want %v saying %q", c.name, c.version, err, c.kind, c.say)
		}
		var e *Error
		if f != nil || !errors.As(err, &e) || e.Offset < 0 || e.Offset >= int64(len(b.Data)) {
			t.Errorf("%s: file %v, error %#v: want no file and an *Error inside the file", c.name, f, err)
		}
	}
}

func headerCases() []hostile {
	return []hostile{
		{"magic", 1, func(b *mmvtest.Built) { b.Data[2] = 'X' }, ErrNotMMV, "no MMV header"},
		{"version 0", 1, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrVersion, 0) }, ErrVersion, "version 0"},
		{"version 4", 3, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrVersion, 4) }, ErrVersion, "version 4"},
		{"gen1 != gen2", 2, func(b *mmvtest.Built) { b.PutU64(mmvtest.HdrGen1, 9) }, ErrUnstable, "generations"},
		{"one toc", 1, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrTOCs, 1) }, ErrFormat, "1 table of contents"},
		{"seven tocs", 1, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrTOCs, 7) }, ErrFormat, "7 table of contents"},
		{"negative tocs", 1, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrTOCs, 0xffffffff) }, ErrFormat, "-1 table of contents"},
		{"cluster", 1, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrCluster, 4096) }, ErrFormat, "cluster 4096"},
	}
}

// tocField is the offset of field off of the TOC entry for section typ.
func tocField(b *mmvtest.Built, typ, off int) int {
	for i := 0; ; i++ {
		if int(b.Data[b.TOC(i)]) == typ {
			return b.TOC(i) + off
		}
	}
}

func tocCases() []hostile {
	return []hostile{
		{"section type 7", 1, func(b *mmvtest.Built) { b.PutU32(b.TOC(0), 7) }, ErrFormat, "section type 7"},
		{"repeated section", 1, func(b *mmvtest.Built) { b.PutU32(tocField(b, 5, 0), 3) }, ErrFormat, "second metrics section"},
		{"labels in version 1", 1, func(b *mmvtest.Built) { b.PutU32(tocField(b, 4, 0), 6) }, ErrFormat, "labels section in a version 1"},
		{"no values", 2, func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrTOCs, 3) }, ErrFormat, "no values section"},
		{"metrics entry made labels", 3, func(b *mmvtest.Built) { b.PutU32(tocField(b, 3, 0), 6) }, ErrFormat, "second labels"},
		{"into the header", 1, func(b *mmvtest.Built) { b.PutU64(tocField(b, 3, 8), 0) }, ErrFormat, "inside the header"},
		{"into the toc", 2, func(b *mmvtest.Built) { b.PutU64(tocField(b, 4, 8), 48) }, ErrFormat, "inside the header"},
		{"past the end", 1, func(b *mmvtest.Built) { b.PutU64(tocField(b, 4, 8), 1<<40) }, ErrFormat, "run past the end"},
		{"offset wraps", 1, func(b *mmvtest.Built) { b.PutU64(tocField(b, 4, 8), ^uint64(0)-7) }, ErrFormat, "run past the end"},
		{"count too big", 2, func(b *mmvtest.Built) { b.PutU32(tocField(b, 5, 4), 100) }, ErrFormat, "run past the end"},
		{"negative count", 2, func(b *mmvtest.Built) { b.PutU32(tocField(b, 4, 4), 0x80000000) }, ErrFormat, "values count -2147483648"},
		{"overlap", 1, func(b *mmvtest.Built) { b.PutU64(tocField(b, 4, 8), uint64(b.Sections[3]+8)) }, ErrFormat, "overlaps"},
		{"loop onto itself", 3, func(b *mmvtest.Built) { b.PutU64(tocField(b, 6, 8), uint64(b.Sections[5])) }, ErrFormat, "overlaps"},
		{"metric limit", 1, func(b *mmvtest.Built) { b.PutU32(tocField(b, 3, 4), 1025) }, ErrLimit, "1025 metrics, limit 1024"},
	}
}

func recordCases() []hostile {
	fill := func(b *mmvtest.Built, at, n int) {
		for i := range n {
			b.Data[at+i] = 'a'
		}
	}
	metric := func(b *mmvtest.Built, i int, f mmvtest.MetricField) int {
		return b.Metrics[i] + mmvtest.MetricFieldOffset(b.Version, f)
	}
	return []hostile{
		{"v1 name without NUL", 1, func(b *mmvtest.Built) { fill(b, b.Metrics[0], 64) }, ErrFormat, "metric name has no NUL"},
		{"v2 name without NUL", 2, func(b *mmvtest.Built) { fill(b, b.Strings+2*256, 256) }, ErrFormat, "has no NUL"},
		{"v1 instance without NUL", 1, func(b *mmvtest.Built) { fill(b, b.Instances[0][1]+16, 64) }, ErrFormat, "instance name has no NUL"},
		{"help without NUL", 1, func(b *mmvtest.Built) { fill(b, b.Strings, 256) }, ErrFormat, "short help has no NUL"},
		{"bad name", 1, func(b *mmvtest.Built) { b.Data[b.Metrics[0]] = '9' }, ErrFormat, `metric name "932"`},
		{"empty part", 1, func(b *mmvtest.Built) { copy(b.Data[b.Metrics[0]:], "a..b") }, ErrFormat, `"a..b"`},
		{"type 7", 1, func(b *mmvtest.Built) { b.PutU32(metric(b, 0, mmvtest.MetType), 7) }, ErrFormat, "type 7"},
		{"type -2", 2, func(b *mmvtest.Built) { b.PutU32(metric(b, 0, mmvtest.MetType), 0xfffffffe) }, ErrFormat, "type -2"},
		{"semantics 2", 2, func(b *mmvtest.Built) { b.PutU32(metric(b, 1, mmvtest.MetSem), 2) }, ErrFormat, "semantics 2"},
		{"item 1024", 1, func(b *mmvtest.Built) { b.PutU32(metric(b, 1, mmvtest.MetItem), 1024) }, ErrFormat, "item 1024"},
		{"duplicate item", 3, func(b *mmvtest.Built) { b.PutU32(metric(b, 1, mmvtest.MetItem), 1) }, ErrFormat, "item 1 repeats"},
		{"duplicate name", 1, func(b *mmvtest.Built) { copy(b.Data[b.Metrics[1]:], "u32\x00") }, ErrFormat, `name "u32" repeats`},
		{"unknown indom", 1, func(b *mmvtest.Built) { b.PutU32(metric(b, 2, mmvtest.MetIndom), 6) }, ErrFormat, "names indom 6"},
		{"indom serial 0", 2, func(b *mmvtest.Built) { b.PutU32(b.Indoms[0], 0) }, ErrFormat, "indom serial 0"},
		{"duplicate instance", 1, func(b *mmvtest.Built) { b.PutU32(b.Instances[0][1]+12, 1) }, ErrFormat, "repeats an id"},
		{"empty instance name", 2, func(b *mmvtest.Built) {
			b.PutU64(b.Instances[0][0]+16, uint64(b.Values[b.Find("string", "two")].String))
		}, ErrFormat, "empty instance name"},
		{"instance of no indom", 1, func(b *mmvtest.Built) { b.PutU32(b.Indoms[0]+4, 2) }, ErrFormat, "1 of them in no indom"},
		{"instance back-pointer", 1, func(b *mmvtest.Built) { b.PutU64(b.Instances[0][2], 0) }, ErrFormat, "instance names indom 0"},
		{"label flags", 3, func(b *mmvtest.Built) { b.PutU32(b.Labels[0], 1) }, ErrFormat, "label flags 0x1"},
		{"label without NUL", 3, func(b *mmvtest.Built) { fill(b, b.Labels[1]+12, 244) }, ErrFormat, "label has no NUL"},
		{"label not JSON", 3, func(b *mmvtest.Built) { copy(b.Data[b.Labels[1]+12:], "{app}\x00") }, ErrFormat, "label"},
		{"two label names", 3, func(b *mmvtest.Built) { copy(b.Data[b.Labels[1]+12:], `{"a":1,"b":2}`+"\x00") }, ErrFormat, "exactly one name"},
		{"label name", 3, func(b *mmvtest.Built) { copy(b.Data[b.Labels[1]+12:], `{"1a":1}`+"\x00") }, ErrFormat, "want a letter"},
		{"duplicate label", 3, func(b *mmvtest.Built) { copy(b.Data[b.Labels[3]:], b.Data[b.Labels[2]:b.Labels[2]+256]) }, ErrFormat, "repeats the label"},
	}
}

func referenceCases() []hostile {
	val := func(b *mmvtest.Built, metric, inst string) int { return b.Values[b.Find(metric, inst)].Record }
	return []hostile{
		{"value's metric misaligned", 1, func(b *mmvtest.Built) { b.PutU64(val(b, "u32", "")+16, uint64(b.Metrics[0]+8)) }, ErrFormat, "which is none"},
		{"value's metric outside", 2, func(b *mmvtest.Built) { b.PutU64(val(b, "u32", "")+16, 1<<62) }, ErrFormat, "which is none"},
		{"value's instance outside", 1, func(b *mmvtest.Built) { b.PutU64(val(b, "u64", "two")+24, ^uint64(0)) }, ErrFormat, "which is none"},
		{"value's instance misaligned", 2, func(b *mmvtest.Built) { b.PutU64(val(b, "u64", "two")+24, uint64(b.Instances[0][1]+4)) }, ErrFormat, "which is none"},
		{"singular with instance", 1, func(b *mmvtest.Built) { b.PutU64(val(b, "u32", "")+24, uint64(b.Instances[0][0])) }, ErrFormat, "singular"},
		{"second value", 3, func(b *mmvtest.Built) { b.PutU64(val(b, "u64", "two")+24, uint64(b.Instances[0][0])) }, ErrFormat, "second value"},
		{"string outside", 1, func(b *mmvtest.Built) { b.PutU64(val(b, "string", "one")+8, 1<<50) }, ErrFormat, "is not a string"},
		{"string misaligned", 2, func(b *mmvtest.Built) { b.PutU64(val(b, "string", "one")+8, uint64(b.Strings+1)) }, ErrFormat, "is not a string"},
		{"help outside", 1, func(b *mmvtest.Built) { b.PutU64(b.Indoms[0]+16, 12) }, ErrFormat, "is not a string"},
		{"v2 name in values", 2, func(b *mmvtest.Built) { b.PutU64(b.Metrics[0], uint64(b.Sections[4])) }, ErrFormat, "is not a string"},
		{"instances outside", 1, func(b *mmvtest.Built) { b.PutU64(b.Indoms[0]+8, uint64(b.Sections[3])) }, ErrFormat, "not records of the instances"},
		{"instances run over", 2, func(b *mmvtest.Built) { b.PutU32(b.Indoms[0]+4, 4) }, ErrFormat, "not records of the instances"},
		{"label for no item", 3, func(b *mmvtest.Built) { b.PutU32(b.Labels[1]+4, 99) }, ErrFormat, "item 99"},
		{"label for no instance", 3, func(b *mmvtest.Built) { b.PutU32(b.Labels[3]+8, 99) }, ErrFormat, "instance 99"},
		{"label for no indom", 3, func(b *mmvtest.Built) { b.PutU32(b.Labels[2]+4, 99) }, ErrFormat, "indom 99"},
		{"label for other cluster", 3, func(b *mmvtest.Built) { b.PutU32(b.Labels[0]+4, 8) }, ErrFormat, "cluster 8"},
	}
}

// Each limit refuses a file just over it with ErrLimit.
func TestLimits(t *testing.T) {
	data := mmvtest.Build(mmvtest.AllTypes(3)).Data
	for name, lower := range map[string]func(*Limits){
		"bytes":     func(l *Limits) { l.MaxBytes = int64(len(data)) - 1 },
		"metrics":   func(l *Limits) { l.MaxMetrics = 7 },
		"indoms":    func(l *Limits) { l.MaxIndoms = 0 },
		"instances": func(l *Limits) { l.MaxInstances = 2 },
		"values":    func(l *Limits) { l.MaxValues = 13 },
		"strings":   func(l *Limits) { l.MaxStrings = 3 },
		"labels":    func(l *Limits) { l.MaxLabels = 3 },
	} {
		lim := DefaultLimits()
		if _, err := Parse(data, lim); err != nil {
			t.Fatalf("default limits: %v", err)
		}
		lower(&lim)
		if _, err := Parse(data, lim); !errors.Is(err, ErrLimit) {
			t.Errorf("%s limit: %v, want ErrLimit", name, err)
		}
	}
}
