package mmvfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// spoilers damage a built file of version 2 in ways Parse refuses.
var spoilers = map[string]func(b *mmvtest.Built){
	"type": func(b *mmvtest.Built) {
		b.PutU32(b.Metrics[0]+mmvtest.MetricFieldOffset(2, mmvtest.MetType), 77)
	},
	"toc": func(b *mmvtest.Built) { b.PutU32(b.TOC(0)+mmvtest.TOCCount, 1<<30) },
	"value": func(b *mmvtest.Built) {
		b.PutU64(b.Values[0].Record+mmvtest.ValMetric, 3) // a metric record that is none
	},
	"version": func(b *mmvtest.Built) { b.PutU32(mmvtest.HdrVersion, 9) },
}

// Hostile files cost only themselves: each is refused with one problem
// naming it, not again at the next scans, again once when it changes,
// and used once it is good.
func TestMMVHostileFilesCostOnlyThemselves(t *testing.T) {
	for name, spoil := range spoilers {
		t.Run(name, func(t *testing.T) {
			r := newMMVRig(t, defaultMMVLimits())
			r.write("good", singleSpec(0, "n", 1, 1))
			spec := singleSpec(0, "n", 1, 2)
			b := mmvtest.Build(spec)
			spoil(b)
			r.writeBuilt("bad", b)
			_, problems := r.scan()
			if len(problems) != 1 || !hasProblem(problems, "bad", "") {
				t.Fatalf("problems %q", problems)
			}
			if !slices.Equal(r.names(), []string{"hostcache.mmv.good.n"}) {
				t.Fatalf("names %q", r.names())
			}
			if _, problems := r.scan(); len(problems) != 0 {
				t.Errorf("told again: %q", problems)
			}
			spec.Gen = 2
			b = mmvtest.Build(spec)
			spoil(b)
			r.rewrite("bad", b)
			if _, problems := r.scan(); len(problems) != 1 {
				t.Errorf("the changed file: problems %q", problems)
			}
			spec.Gen = 3
			r.rewrite("bad", mmvtest.Build(spec))
			if !r.scanQuiet() || len(r.names()) != 2 {
				t.Errorf("the mended file: %q", r.names())
			}
		})
	}
}

// Text where an MMV file should be is refused once.
func TestMMVNotAnMMVFile(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	if err := os.WriteFile(filepath.Join(r.dir, "notes"), []byte("not an MMV file, but long enough to have a header"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, problems := r.scan(); len(problems) != 1 || !hasProblem(problems, "notes", "not an MMV file") {
		t.Errorf("problems %q", problems)
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// A file over a limit (bytes read, or records parsed) is refused once
// until it changes.
func TestMMVFileLimits(t *testing.T) {
	lim := defaultMMVLimits()
	lim.file.MaxMetrics = 1
	r := newMMVRig(t, lim)
	r.write("many", ownSpec(2))
	_, problems := r.scan()
	if len(problems) != 1 || !hasProblem(problems, "many", "over limit") {
		t.Fatalf("problems %q", problems)
	}
	lim.file.MaxBytes = 300
	r = newMMVRig(t, lim)
	r.write("big", singleSpec(0, "n", 1, 1))
	if _, problems := r.scan(); len(problems) != 1 || !hasProblem(problems, "big", "limit 300") {
		t.Fatalf("problems %q", problems)
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// A file that shrinks between the scan and the publish publishes nothing;
// the next scan drops it, once, until it changes.
func TestMMVFileShrinksBeforePublish(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("good", singleSpec(0, "n", 1, 1))
	b := r.write("app", ownSpec(2))
	r.scanQuiet()
	if err := os.Truncate(filepath.Join(r.dir, "app"), int64(len(b.Data)-1)); err != nil {
		t.Fatal(err)
	}
	s := r.publish()
	if len(s.values("hostcache.mmv.app.u64")) != 0 {
		t.Error("the shrunk file published values")
	}
	if _, ok := s.part.InDom(things); ok {
		t.Error("the shrunk file published its instances")
	}
	if v, ok := s.one("hostcache.mmv.good.n"); !ok || v.Bits != 1 {
		t.Errorf("the other file's value: %d, %v", v.Bits, ok)
	}
	changed, problems := r.scan()
	if !changed || len(problems) != 1 || !hasProblem(problems, "app", "shrank") || len(r.names()) != 1 {
		t.Errorf("changed %v, problems %q, names %q", changed, problems, r.names())
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// A file given a new generation between the scan and the publish
// publishes nothing until the scan parses it.
func TestMMVNewGenerationBeforePublish(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	b := r.write("app", singleSpec(0, "n", 1, 5))
	r.scanQuiet()
	b.PutU64(mmvtest.HdrGen1, 2)
	b.PutU64(mmvtest.HdrGen2, 2)
	r.rewrite("app", b)
	if _, ok := r.publish().one("hostcache.mmv.app.n"); ok {
		t.Error("a value from a generation the scan has not parsed")
	}
	if r.scanQuiet() {
		t.Error("the same layout under a new generation changed the catalog")
	}
	if v, ok := r.publish().one("hostcache.mmv.app.n"); !ok || v.Bits != 5 {
		t.Errorf("n = %d, %v after the scan", v.Bits, ok)
	}
}
