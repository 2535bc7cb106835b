package mmv

import (
	"errors"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

func mustParse(t *testing.T, data []byte) *File {
	t.Helper()
	f, err := Parse(data, DefaultLimits())
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

// Every version's file with every type round-trips through the writer.
func TestRoundTripEveryVersion(t *testing.T) {
	for v := 1; v <= 3; v++ {
		spec := mmvtest.AllTypes(v)
		b := mmvtest.Build(spec)
		f := mustParse(t, b.Data)
		if f.Version != v || f.Gen != spec.Gen || f.PID != spec.PID || f.Cluster != spec.Cluster || f.Flags != FlagProcess {
			t.Errorf("v%d header: %+v", v, f)
		}
		checkIndoms(t, f, spec)
		checkMetrics(t, f, spec)
		checkValues(t, f, b)
		if v == 3 {
			checkLabels(t, f, spec)
		} else if len(f.Labels) != 0 {
			t.Errorf("v%d has labels %+v", v, f.Labels)
		}
	}
}

func checkIndoms(t *testing.T, f *File, spec mmvtest.Spec) {
	t.Helper()
	if len(f.Indoms) != len(spec.Indoms) {
		t.Fatalf("%d indoms, want %d", len(f.Indoms), len(spec.Indoms))
	}
	for i, want := range spec.Indoms {
		got := f.Indoms[i]
		if got.Serial != want.Serial || got.ShortHelp != want.Short || got.LongHelp != want.Long || len(got.Instances) != len(want.Instances) {
			t.Fatalf("indom %d: %+v, want %+v", i, got, want)
		}
		for j, in := range want.Instances {
			if got.Instances[j] != (Instance{in.ID, in.Name}) {
				t.Errorf("indom %d instance %d: %+v, want %+v", i, j, got.Instances[j], in)
			}
		}
	}
}

func checkMetrics(t *testing.T, f *File, spec mmvtest.Spec) {
	t.Helper()
	if len(f.Metrics) != len(spec.Metrics) {
		t.Fatalf("%d metrics, want %d", len(f.Metrics), len(spec.Metrics))
	}
	for i, w := range spec.Metrics {
		want := Metric{Name: w.Name, Item: w.Item, Type: Type(w.Type), Semantics: Semantics(w.Sem),
			Units: Units(w.Units), Indom: w.Indom, ShortHelp: w.Short, LongHelp: w.Long}
		if f.Metrics[i] != want {
			t.Errorf("metric %d: %+v, want %+v", i, f.Metrics[i], want)
		}
	}
}

func checkValues(t *testing.T, f *File, b *mmvtest.Built) {
	t.Helper()
	want := map[string]any{
		"u32": uint32(4000000000), "i32": int32(-7), "u64/one": uint64(1 << 40), "u64/two": uint64(2),
		"u64/thirty": uint64(3), "i64": int64(-1 << 40), "float": float32(1.5), "double/one": 0.25,
		"double/two": -2.0, "double/thirty": 1e300, "string/one": "alpha", "string/two": "",
		"string/thirty": "gamma", "sub.elapsed": int64(1500),
	}
	if len(f.Values) != len(want) {
		t.Fatalf("%d values, want %d", len(f.Values), len(want))
	}
	for i := range f.Values {
		key, got := describe(f, &f.Values[i], b.Data)
		if got != want[key] {
			t.Errorf("value %s = %#v, want %#v", key, got, want[key])
		}
	}
}

// describe names a value metric/instance and reads it by its type.
func describe(f *File, v *Value, data []byte) (string, any) {
	m := f.Metric(v)
	key := m.Name
	for _, d := range f.Indoms {
		for _, in := range d.Instances {
			if d.Serial == m.Indom && in.ID == v.Inst {
				key += "/" + in.Name
			}
		}
	}
	return key, read(v, data)
}

func read(v *Value, data []byte) any {
	var got any
	var ok bool
	switch v.Type {
	case TypeU32:
		got, ok = v.Uint32(data)
	case Type32:
		got, ok = v.Int32(data)
	case TypeU64:
		got, ok = v.Uint64(data)
	case Type64:
		got, ok = v.Int64(data)
	case TypeFloat:
		got, ok = v.Float(data)
	case TypeDouble:
		got, ok = v.Double(data)
	case TypeString:
		got, ok = v.String(data)
	case TypeElapsed:
		got, ok = v.Elapsed(data, time.Unix(0, 0))
	}
	if !ok {
		return nil
	}
	return got
}

func checkLabels(t *testing.T, f *File, spec mmvtest.Spec) {
	t.Helper()
	want := []Label{
		{Kind: LabelCluster, Identity: 7, Instance: NoInstance, Name: "app", Value: `"test"`},
		{Kind: LabelItem, Optional: true, Identity: 3, Instance: NoInstance, Name: "units", Value: `"bytes"`},
		{Kind: LabelIndom, Identity: 5, Instance: NoInstance, Name: "kind", Value: `"things"`},
		{Kind: LabelInstances, Identity: 5, Instance: 30, Name: "big", Value: `true`},
	}
	if len(f.Labels) != len(want) {
		t.Fatalf("labels %+v, want %+v", f.Labels, want)
	}
	for i := range want {
		if f.Labels[i] != want[i] {
			t.Errorf("label %d: %+v, want %+v", i, f.Labels[i], want[i])
		}
	}
}

// Version 2 and 3 names are strings of up to 255 bytes; version 1 ones
// fit in 64.
func TestLongNamesNeedVersion2(t *testing.T) {
	long := "abcdefghij.bcdefghij.bcdefghij.bcdefghij.bcdefghij.bcdefghij.bcdefghij"
	spec := mmvtest.AllTypes(2)
	spec.Metrics[0].Name = long
	f := mustParse(t, mmvtest.Build(spec).Data)
	if f.Metrics[0].Name != long {
		t.Errorf("name %q, want %q", f.Metrics[0].Name, long)
	}
}

// A metric of type "no support" parses and has no value to read.
func TestNoSupportHasNoValue(t *testing.T) {
	spec := mmvtest.AllTypes(1)
	spec.Metrics[0].Type = mmvtest.TypeNoSupport
	f := mustParse(t, mmvtest.Build(spec).Data)
	if _, ok := f.Values[0].Uint32(mmvtest.Build(spec).Data); ok {
		t.Error("a no-support metric read as u32")
	}
}

// Semantics 0, as PCP's Python binding writes it, reads as a counter; an
// elapsed metric is exported as a 64-bit microsecond counter.
func TestSemanticsZeroAndElapsedExport(t *testing.T) {
	spec := mmvtest.AllTypes(1)
	spec.Metrics[1].Sem = 0
	f := mustParse(t, mmvtest.Build(spec).Data)
	if f.Metrics[1].Semantics != SemCounter {
		t.Errorf("semantics 0 read as %d", f.Metrics[1].Semantics)
	}
	typ, sem, units := f.Metrics[7].Exported()
	if typ != Type64 || sem != SemCounter || units != 0x01001000 {
		t.Errorf("elapsed exported as %d %d %#x", typ, sem, uint32(units))
	}
}

func TestOwner(t *testing.T) {
	spec := mmvtest.AllTypes(1)
	f := mustParse(t, mmvtest.Build(spec).Data)
	if pid, ok := f.Owner(); !ok || pid != 4242 {
		t.Errorf("Owner() = %d %v, want 4242 true", pid, ok)
	}
	spec.Flags = 0
	f = mustParse(t, mmvtest.Build(spec).Data)
	if _, ok := f.Owner(); ok {
		t.Error("a file without FlagProcess has an owner")
	}
}

func TestStable(t *testing.T) {
	b := mmvtest.Build(mmvtest.AllTypes(1))
	if gen, ok := Stable(b.Data); !ok || gen != 0x6500000000012345 {
		t.Errorf("Stable = %#x %v", gen, ok)
	}
	b.PutU64(mmvtest.HdrGen2, 0)
	if _, ok := Stable(b.Data); ok {
		t.Error("gen2 0 is stable")
	}
	if _, err := Parse(b.Data, DefaultLimits()); !errors.Is(err, ErrUnstable) {
		t.Errorf("gen1 != gen2: %v, want ErrUnstable", err)
	}
	b.PutU64(mmvtest.HdrGen1, 0)
	if _, err := Parse(b.Data, DefaultLimits()); !errors.Is(err, ErrUnstable) {
		t.Errorf("gen 0: %v, want ErrUnstable", err)
	}
	if _, ok := Stable(b.Data[:10]); ok {
		t.Error("10 bytes are stable")
	}
}
