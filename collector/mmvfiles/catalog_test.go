package mmvfiles

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A file of each version: every metric named below the file's name, in
// the cluster the file asks for (7, so 775) at its own item, described
// as pmdammv describes it; values and instances as written.
func TestMMVFilesOfEveryVersion(t *testing.T) {
	for v := 1; v <= 3; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			r := newMMVRig(t, defaultMMVLimits())
			r.write("app", ownSpec(v))
			if !r.scanQuiet() {
				t.Fatal("the first scan of a file changed nothing")
			}
			checkAllTypesDescs(t, r)
			checkAllTypesValues(t, r.publish())
			checkAllTypesHelp(t, r)
			if r.scanQuiet() {
				t.Error("a second scan of the same file says it changed")
			}
		})
	}
}

// things is the domain of serial 5 in the file at cluster 775.
const things = indomMMVFirst + indomMMVPerFile*7 + 5

func checkAllTypesDescs(t *testing.T, r *mmvRig) {
	t.Helper()
	want := []cache.Desc{
		{Name: "hostcache.mmv.app.u32", ID: cache.NewMetricID(775, 1), Type: cache.TypeU32, Sem: cache.SemCounter, Units: 0x00100000, InDom: cache.InDomNone},
		{Name: "hostcache.mmv.app.i32", ID: cache.NewMetricID(775, 2), Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone, Peaks: true},
		{Name: "hostcache.mmv.app.u64", ID: cache.NewMetricID(775, 3), Type: cache.TypeU64, Sem: cache.SemCounter, Units: 0x10000000, InDom: things},
		{Name: "hostcache.mmv.app.i64", ID: cache.NewMetricID(775, 4), Type: cache.TypeI64, Sem: cache.SemDiscrete, InDom: cache.InDomNone},
		{Name: "hostcache.mmv.app.float", ID: cache.NewMetricID(775, 5), Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: cache.InDomNone, Peaks: true},
		{Name: "hostcache.mmv.app.double", ID: cache.NewMetricID(775, 6), Type: cache.TypeDouble, Sem: cache.SemInstant, InDom: things, Peaks: true},
		{Name: "hostcache.mmv.app.string", ID: cache.NewMetricID(775, 7), Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: things},
		{Name: "hostcache.mmv.app.sub.elapsed", ID: cache.NewMetricID(775, 8), Type: cache.TypeI64, Sem: cache.SemCounter, Units: cache.MakeUnits(0, 1, 0, 0, 1, 0), InDom: cache.InDomNone},
	}
	for _, w := range want {
		got, ok := r.desc(w.Name)
		if !ok {
			t.Errorf("no %s; have %q", w.Name, r.names())
			continue
		}
		got.Labels = nil
		if !sameMMVDesc(got, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", w.Name, got, w)
		}
	}
	src := r.files.source()
	if len(src.Metrics) != len(want) || len(src.InDoms) != 1 || src.InDoms[0].ID != things || src.InDoms[0].Name != "mmv app 5" {
		t.Errorf("source: %d metrics, domains %+v", len(src.Metrics), src.InDoms)
	}
}

func checkAllTypesValues(t *testing.T, s *mmvSample) {
	t.Helper()
	ints := map[string]uint64{"hostcache.mmv.app.u32": 4000000000, "hostcache.mmv.app.i32": uint64(0xffffffffffffffff - 6),
		"hostcache.mmv.app.i64": uint64(1<<64 - 1<<40), "hostcache.mmv.app.sub.elapsed": 1500}
	for name, want := range ints {
		if v, ok := s.one(name); !ok || v.Bits != want {
			t.Errorf("%s = %#x, %v; want %#x", name, v.Bits, ok, want)
		}
	}
	if v, ok := s.one("hostcache.mmv.app.float"); !ok || v.Float() != 1.5 {
		t.Errorf("float = %v, %v", v.Float(), ok)
	}
	u64 := s.values("hostcache.mmv.app.u64")
	if len(u64) != 3 || u64[1].Bits != 1<<40 || u64[2].Bits != 2 || u64[30].Bits != 3 {
		t.Errorf("u64 = %v", u64)
	}
	dbl := s.values("hostcache.mmv.app.double")
	if len(dbl) != 3 || dbl[1].Double() != 0.25 || dbl[2].Double() != -2 || dbl[30].Double() != 1e300 {
		t.Errorf("double = %v", dbl)
	}
	str := s.values("hostcache.mmv.app.string")
	if len(str) != 3 || str[1].Str != "alpha" || str[2].Str != "" || str[30].Str != "gamma" {
		t.Errorf("string = %v", str)
	}
	in, ok := s.part.InDom(things)
	if !ok || in.Len() != 3 {
		t.Fatalf("domain %d: %v, %v", things, in, ok)
	}
	for id, name := range map[uint32]string{1: "one", 2: "two", 30: "thirty"} {
		if got, _ := in.Name(id); got != name {
			t.Errorf("instance %d is %q, want %q", id, got, name)
		}
	}
}

func checkAllTypesHelp(t *testing.T, r *mmvRig) {
	t.Helper()
	help := r.files.cat.load().metricHelp
	if h, ok := help["hostcache.mmv.app.u32"]; !ok || h.ShortHelp != "a u32" || h.LongHelp != "A 32-bit counter." {
		t.Errorf("u32 help %+v, %v", h, ok)
	}
	if h, ok := help["hostcache.mmv.app.i32"]; ok && (h.ShortHelp != "" || h.LongHelp != "") {
		t.Errorf("i32 has no help, got %+v", h)
	}
	if d, ok := r.files.cat.load().indomHelp[things]; !ok || d.LongHelp != "Three things, one per line." {
		t.Errorf("domain help %+v, %v", d, ok)
	}
	if _, ok := help["hostcache.mmv.app.nothing"]; ok {
		t.Error("help for a metric no file has")
	}
}

// Version 3's labels: the cluster's on every metric, the item's on its
// metric, the domain's on the domain, the instance's on the instance.
func TestMMVLabels(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("app", ownSpec(3))
	r.scanQuiet()
	app := cache.Label{Name: "app", Value: `"test"`}
	u64, _ := r.desc("hostcache.mmv.app.u64")
	if want := []cache.Label{app, {Name: "units", Value: `"bytes"`, Optional: true}}; !slices.Equal(u64.Labels, want) {
		t.Errorf("u64 labels %v, want %v", u64.Labels, want)
	}
	if i32, _ := r.desc("hostcache.mmv.app.i32"); !slices.Equal(i32.Labels, []cache.Label{app}) {
		t.Errorf("i32 labels %v", i32.Labels)
	}
	if d := r.files.source().InDoms[0]; !slices.Equal(d.Labels, []cache.Label{{Name: "kind", Value: `"things"`}}) {
		t.Errorf("domain labels %v", d.Labels)
	}
	in, _ := r.publish().part.InDom(things)
	for _, x := range in.All() {
		want := []cache.Label(nil)
		if x.ID == 30 {
			want = []cache.Label{{Name: "big", Value: "true"}}
		}
		if !slices.Equal(x.Labels, want) {
			t.Errorf("instance %d labels %v, want %v", x.ID, x.Labels, want)
		}
	}
}

// FlagNoPrefix puts the names right below hostcache.mmv, as pmdammv puts
// them below mmv; a name another file already serves, or a level of
// one, is refused once, and the first file keeps it.
func TestMMVNoPrefixAndNameClashes(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("app", singleSpec(0, "x", 1, 5))
	r.scanQuiet()
	bare := singleSpec(0, "app.x", 1, 6)
	bare.Flags = 1 // FlagNoPrefix
	bare.Metrics = append(bare.Metrics, singleSpec(0, "free", 2, 7).Metrics[0], singleSpec(0, "app", 3, 8).Metrics[0])
	r.write("bare", bare)
	changed, problems := r.scan()
	if !changed || len(problems) != 2 || !hasProblem(problems, "bare", "app.x") || !hasProblem(problems, "bare", "other metrics lie below hostcache.mmv.app") {
		t.Fatalf("changed %v, problems %q", changed, problems)
	}
	want := []string{"hostcache.mmv.app.x", "hostcache.mmv.free"}
	if got := r.names(); !slices.Equal(sorted(got), want) {
		t.Errorf("names %q, want %q", got, want)
	}
	if v, _ := r.publish().one("hostcache.mmv.app.x"); v.Bits != 5 {
		t.Errorf("app.x = %d, want the first file's 5", v.Bits)
	}
	r.write("other", singleSpec(0, "y", 1, 1)) // a new assembly
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("the clash is reported again: %q", problems)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// Items of 512 and above leave the rate no room; a domain serial of 64 or
// above does not fit the file's domains, and takes its metrics with it.
func TestMMVItemsAndSerialsThatDoNotFit(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	s := ownSpec(2)
	s.Metrics[0].Item = engine.RateItemOffset
	s.Indoms[0].Serial = indomMMVPerFile
	for i := range s.Metrics {
		if s.Metrics[i].Indom == 5 {
			s.Metrics[i].Indom = indomMMVPerFile
		}
	}
	r.write("app", s)
	changed, problems := r.scan()
	if !changed || !hasProblem(problems, "app", "metric u32: item 512") || !hasProblem(problems, "app", "indom 64: serial 64 or above") {
		t.Fatalf("problems %q", problems)
	}
	want := []string{"hostcache.mmv.app.float", "hostcache.mmv.app.i32", "hostcache.mmv.app.i64", "hostcache.mmv.app.sub.elapsed"}
	if got := sorted(r.names()); !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	if v, ok := r.publish().one("hostcache.mmv.app.i64"); !ok || int64(v.Bits) != -1<<40 {
		t.Errorf("i64 = %d, %v", int64(v.Bits), ok)
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("reported again: %q", problems)
	}
}

// The descriptors and help are read from other goroutines while the
// collector scans (run with -race): each read sees one whole assembly.
func TestMMVViewIsReadWhileScanning(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	done := make(chan error)
	stop := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := cache.NewSchema(r.files.source()); err != nil {
				done <- err
				return
			}
			_ = r.files.cat.load().metricHelp["hostcache.mmv.app.u32"]
		}
	}()
	for i := 0; i < 50; i++ {
		if i%2 == 0 {
			r.write("app", ownSpec(3))
		} else {
			r.remove("app")
		}
		r.scanQuiet()
	}
	close(stop)
	if err := <-done; err != nil {
		t.Errorf("a source read during scans: %v", err)
	}
}
