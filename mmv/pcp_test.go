package mmv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// written is what testdata/pcpwrite.py reports it wrote in one file.
type written struct {
	Version int    `json:"version"`
	Cluster uint32 `json:"cluster"`
	PID     int32  `json:"pid"`
	Indoms  []struct {
		Serial      uint32 `json:"serial"`
		Short, Long string
		Instances   []Instance `json:"instances"`
	} `json:"indoms"`
	Metrics []struct {
		Name        string `json:"name"`
		Item        uint32 `json:"item"`
		Type        Type   `json:"type"`
		Sem         Semantics
		Units       Units `json:"units"`
		Indom       uint32
		Short, Long string
	} `json:"metrics"`
	Values []struct {
		Metric, Inst string
		Value        any
	} `json:"values"`
	Labels []struct {
		Kind     LabelKind `json:"kind"`
		Identity uint32    `json:"identity"`
		Instance int32     `json:"instance"`
		Name     string    `json:"name"`
		Value    string    `json:"value"`
		Optional bool      `json:"optional"`
	} `json:"labels"`
}

// pcpPython finds a python3 that has PCP's pcp.mmv module; outside CI a
// machine without one skips the test, in CI it fails.
func pcpPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import pcp.mmv").Run() == nil {
			return py
		}
	}
	const why = "no python3 with PCP's pcp.mmv module (Debian: python3-pcp)"
	testenv.SkipOutsideCI(t, why)
	return ""
}

// Files written by PCP's own libpcp_mmv (versions 1, 2 and 3) parse to
// exactly what the writer was given.
func TestFilesOfPCPsOwnWriter(t *testing.T) {
	py := pcpPython(t)
	dir := t.TempDir()
	out, err := exec.Command(py, "testdata/pcpwrite.py", dir).Output()
	if err != nil {
		t.Fatalf("pcpwrite.py: %v\n%s", err, exitText(err))
	}
	var files map[string]written
	if err := json.Unmarshal(out, &files); err != nil {
		t.Fatalf("pcpwrite.py's report: %v\n%s", err, out)
	}
	if len(files) != 3 {
		t.Fatalf("pcpwrite.py wrote %d files, want 3", len(files))
	}
	for name, w := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(data, DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		compareWritten(t, name, f, data, w)
	}
}

func exitText(err error) string {
	if e, ok := err.(*exec.ExitError); ok {
		return string(e.Stderr)
	}
	return ""
}

func compareWritten(t *testing.T, name string, f *File, data []byte, w written) {
	t.Helper()
	if f.Version != w.Version || f.Cluster != w.Cluster || f.PID != w.PID {
		t.Errorf("%s: version %d cluster %d pid %d, want %d %d %d", name, f.Version, f.Cluster, f.PID, w.Version, w.Cluster, w.PID)
	}
	got, want := fmt.Sprintf("%+v", f.Indoms), fmt.Sprintf("%+v", w.Indoms)
	if len(f.Indoms) != 1 || f.Indoms[0].Serial != w.Indoms[0].Serial || f.Indoms[0].ShortHelp != w.Indoms[0].Short ||
		f.Indoms[0].LongHelp != w.Indoms[0].Long || fmt.Sprint(f.Indoms[0].Instances) != fmt.Sprint(w.Indoms[0].Instances) {
		t.Errorf("%s: indoms %s, want %s", name, got, want)
	}
	if len(f.Metrics) != len(w.Metrics) {
		t.Fatalf("%s: %d metrics, want %d", name, len(f.Metrics), len(w.Metrics))
	}
	for i, m := range w.Metrics {
		want := Metric{m.Name, m.Item, m.Type, m.Sem, m.Units, m.Indom, m.Short, m.Long}
		if f.Metrics[i] != want {
			t.Errorf("%s: metric %d %+v, want %+v", name, i, f.Metrics[i], want)
		}
	}
	compareValues(t, name, f, data, w)
	compareLabels(t, name, f, w)
}

func compareValues(t *testing.T, name string, f *File, data []byte, w written) {
	t.Helper()
	got := map[string]any{}
	for i := range f.Values {
		key, v := describe(f, &f.Values[i], data)
		got[key] = v
	}
	if len(got) != len(w.Values) {
		t.Errorf("%s: %d values, want %d", name, len(got), len(w.Values))
	}
	for _, v := range w.Values {
		key := v.Metric
		if v.Inst != "" {
			key += "/" + v.Inst
		}
		if asJSON(got[key]) != v.Value {
			t.Errorf("%s: %s = %v, want %v", name, key, got[key], v.Value)
		}
	}
}

// asJSON is a value read as encoding/json decodes the script's report: a
// number as float64 (every number written is exact in one), text as text.
func asJSON(v any) any {
	switch n := v.(type) {
	case uint32:
		return float64(n)
	case int32:
		return float64(n)
	case uint64:
		return float64(n)
	case int64:
		return float64(n)
	case float32:
		return float64(n)
	}
	return v
}

func compareLabels(t *testing.T, name string, f *File, w written) {
	t.Helper()
	if len(f.Labels) != len(w.Labels) {
		t.Fatalf("%s: labels %+v, want %+v", name, f.Labels, w.Labels)
	}
	for i, l := range w.Labels {
		want := Label{l.Kind, l.Optional, l.Identity, l.Instance, l.Name, l.Value}
		if f.Labels[i] != want {
			t.Errorf("%s: label %d %+v, want %+v", name, i, f.Labels[i], want)
		}
	}
}
