package mmvfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// mmvRig is a catalog of a private directory into which tests write MMV
// files, scan and publish as the collector will. Its clock moves step a
// scan: by default the scans of a quiet host, far enough apart that no
// change of the metrics is held back.
type mmvRig struct {
	t     *testing.T
	dir   string
	files *mmvFiles
	now   time.Time
	step  time.Duration
}

// mmvQuietStep is the default step: twice the longest gap.
const mmvQuietStep = 2 * mmvChangeGapMax

func newMMVRig(t *testing.T, lim mmvLimits) *mmvRig {
	t.Helper()
	dir := t.TempDir()
	return &mmvRig{t: t, dir: dir, files: newMMVFiles(dir, lim), now: time.Unix(1795320600, 0), step: mmvQuietStep}
}

// write builds s and writes it as name, replacing any file there.
func (r *mmvRig) write(name string, s mmvtest.Spec) *mmvtest.Built {
	r.t.Helper()
	b := mmvtest.Build(s)
	r.writeBuilt(name, b)
	return b
}

func (r *mmvRig) writeBuilt(name string, b *mmvtest.Built) {
	r.t.Helper()
	if err := b.WriteFile(filepath.Join(r.dir, name)); err != nil {
		r.t.Fatal(err)
	}
}

// rewrite changes the file in place, as a writer updates its values.
func (r *mmvRig) rewrite(name string, b *mmvtest.Built) {
	r.t.Helper()
	f, err := os.OpenFile(filepath.Join(r.dir, name), os.O_WRONLY, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b.Data, 0); err != nil {
		r.t.Fatal(err)
	}
}

func (r *mmvRig) remove(name string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.dir, name)); err != nil {
		r.t.Fatal(err)
	}
}

// scan scans once, step after the last, and returns the problems' texts.
func (r *mmvRig) scan() (bool, []string) {
	r.now = r.now.Add(r.step)
	changed, problems := r.files.scan(r.now)
	texts := make([]string, len(problems))
	for i, p := range problems {
		texts[i] = p.Error()
	}
	return changed, texts
}

// scanQuiet scans and fails on any problem.
func (r *mmvRig) scanQuiet() bool {
	r.t.Helper()
	changed, problems := r.scan()
	if len(problems) > 0 {
		r.t.Fatalf("problems: %q", problems)
	}
	return changed
}

// mmvSample is one publish into a schema made of the catalog's source.
type mmvSample struct {
	t      *testing.T
	schema *cache.Schema
	part   *cache.Part
}

func (r *mmvRig) publish() *mmvSample {
	r.t.Helper()
	schema, err := cache.NewSchema(r.files.source())
	if err != nil {
		r.t.Fatalf("schema of the catalog: %v", err)
	}
	b := schema.NewBuilder(0, r.now)
	r.files.publish(b, r.now)
	part, err := b.Part()
	if err != nil {
		r.t.Fatalf("publishing: %v", err)
	}
	return &mmvSample{t: r.t, schema: schema, part: part}
}

// values are the published values of the metric name, by instance.
func (s *mmvSample) values(name string) map[uint32]cache.Value {
	s.t.Helper()
	d, ok := s.schema.Lookup(name)
	if !ok {
		s.t.Fatalf("no metric %s", name)
	}
	i, _ := s.schema.Index(d.ID)
	out := map[uint32]cache.Value{}
	for _, v := range s.part.AppendValues(nil, i) {
		out[v.Inst] = v
	}
	return out
}

// one is the value of a singular metric.
func (s *mmvSample) one(name string) (cache.Value, bool) {
	s.t.Helper()
	v, ok := s.values(name)[cache.InstNone]
	return v, ok
}

// names are the metrics of the catalog's source.
func (r *mmvRig) names() []string {
	var out []string
	for _, d := range r.files.source().Metrics {
		out = append(out, d.Name)
	}
	return out
}

func (r *mmvRig) desc(name string) (cache.Desc, bool) {
	for _, d := range r.files.source().Metrics {
		if d.Name == name {
			return d, true
		}
	}
	return cache.Desc{}, false
}

// hasProblem says whether one problem names file and says what.
func hasProblem(problems []string, file, what string) bool {
	for _, p := range problems {
		if strings.Contains(p, "mmv file "+file+":") && strings.Contains(p, what) {
			return true
		}
	}
	return false
}

// ownSpec is mmvtest.AllTypes owned by this test's process, so the file
// lives as long as the test.
func ownSpec(version int) mmvtest.Spec {
	s := mmvtest.AllTypes(version)
	s.PID = int32(os.Getpid())
	return s
}

// singleSpec is a file of one u64 counter at item, asking for cluster.
func singleSpec(cluster uint32, name string, item uint32, v uint64) mmvtest.Spec {
	return mmvtest.Spec{Version: 2, Cluster: cluster, Metrics: []mmvtest.Metric{
		{Name: name, Item: item, Type: mmvtest.TypeU64, Sem: mmvtest.SemCounter, Indom: mmvtest.NoIndom, Values: []mmvtest.Val{mmvtest.U64(v)}},
	}}
}
