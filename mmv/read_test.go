package mmv

import (
	"math"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// A writer that rewrites values in place is read without parsing again.
func TestInPlaceRewriteIsRead(t *testing.T) {
	b := mmvtest.Build(mmvtest.AllTypes(2))
	f := mustParse(t, b.Data)
	u64 := b.Find("u64", "thirty")
	str := b.Find("string", "one")
	b.SetBits(u64, 99)
	b.SetString(str, "omega")
	if got, ok := f.Values[u64].Uint64(b.Data); !ok || got != 99 {
		t.Errorf("rewritten u64 = %d %v, want 99", got, ok)
	}
	if got, ok := f.Values[str].String(b.Data); !ok || got != "omega" {
		t.Errorf("rewritten string = %q %v, want omega", got, ok)
	}
	copy(b.Data[b.Values[str].String:], "no NUL anywhere......")
	for i := b.Values[str].String; i < b.Values[str].String+256; i++ {
		b.Data[i] = 'x'
	}
	if got, ok := f.Values[str].String(b.Data); ok {
		t.Errorf("a slot without NUL read as %q", got)
	}
}

// A read of another type than the value's is refused.
func TestReadOfWrongTypeIsRefused(t *testing.T) {
	b := mmvtest.Build(mmvtest.AllTypes(1))
	f := mustParse(t, b.Data)
	v := &f.Values[b.Find("u32", "")]
	if _, ok := v.Uint64(b.Data); ok {
		t.Error("u32 read as u64")
	}
	if _, ok := v.String(b.Data); ok {
		t.Error("u32 read as string")
	}
}

// An elapsed time inside a running interval adds now minus its start.
func TestElapsedInsideAnInterval(t *testing.T) {
	spec := mmvtest.AllTypes(1)
	start := time.Unix(1700000000, 0)
	spec.Metrics[7].Values[0] = mmvtest.Elapsed(1500, -start.UnixMicro())
	b := mmvtest.Build(spec)
	f := mustParse(t, b.Data)
	v := &f.Values[b.Find("sub.elapsed", "")]
	if got, ok := v.Elapsed(b.Data, start.Add(2*time.Second)); !ok || got != 2001500 {
		t.Errorf("elapsed 2 s into an interval = %d %v, want 2001500", got, ok)
	}
}

// With FlagSentinel, all-ones integers, NaN and empty strings are no value.
func TestSentinelMeansNoValue(t *testing.T) {
	spec := mmvtest.AllTypes(1)
	spec.Flags |= mmvtest.FlagSentinel
	spec.Metrics[0].Values[0] = mmvtest.U64(math.MaxUint64)
	spec.Metrics[4].Values[0] = mmvtest.F32(float32(math.NaN()))
	b := mmvtest.Build(spec)
	f := mustParse(t, b.Data)
	for _, key := range []struct{ metric, inst string }{{"u32", ""}, {"float", ""}, {"string", "two"}} {
		if got := read(&f.Values[b.Find(key.metric, key.inst)], b.Data); got != nil {
			t.Errorf("sentinel %s[%s] read as %v", key.metric, key.inst, got)
		}
	}
	if got := read(&f.Values[b.Find("i32", "")], b.Data); got != int32(-7) {
		t.Errorf("i32 next to sentinels = %v", got)
	}
}

// Reading numbers allocates nothing.
func TestNumberReadsDoNotAllocate(t *testing.T) {
	b := mmvtest.Build(mmvtest.AllTypes(3))
	f := mustParse(t, b.Data)
	now := time.Now()
	buf := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		for i := range f.Values {
			v := &f.Values[i]
			v.Uint32(b.Data)
			v.Int32(b.Data)
			v.Uint64(b.Data)
			v.Int64(b.Data)
			v.Float(b.Data)
			v.Double(b.Data)
			v.Elapsed(b.Data, now)
			buf, _ = v.AppendString(buf[:0], b.Data)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass, want 0", allocs)
	}
}

func BenchmarkReadAllValues(b *testing.B) {
	built := mmvtest.Build(mmvtest.AllTypes(3))
	f, err := Parse(built.Data, DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	buf := make([]byte, 0, 256)
	for b.Loop() {
		for i := range f.Values {
			v := &f.Values[i]
			v.Uint64(built.Data)
			v.Double(built.Data)
			v.Elapsed(built.Data, now)
			buf, _ = v.AppendString(buf[:0], built.Data)
		}
	}
}
