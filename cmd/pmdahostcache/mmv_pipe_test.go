package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// writeMMV writes an MMV file of every type, owned by this process, as
// dir/mmv/name.
func writeMMV(t *testing.T, dir, name string) {
	t.Helper()
	spec := mmvtest.AllTypes(2)
	spec.PID = int32(os.Getpid())
	if err := os.MkdirAll(filepath.Join(dir, "mmv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mmvtest.Build(spec).WriteFile(filepath.Join(dir, "mmv", name)); err != nil {
		t.Fatal(err)
	}
}

// traverse asks the agent for the names below node, as pmcd does.
func traverse(t *testing.T, a *driver.Agent, node string) []string {
	t.Helper()
	h, reply, err := a.Request((&pmda.PMNSTraverse{Name: node}).Append(nil))
	if err != nil {
		t.Fatal(err)
	}
	if h.Type != pmda.TypePMNSNames {
		t.Fatalf("traverse of %s: %s %x", node, h.Type, reply)
	}
	var names pmda.PMNSNames
	if err := names.Decode(reply); err != nil {
		t.Fatal(err)
	}
	return names.Names
}

// An instrumented program's MMV file in $PCP_TMP_DIR/mmv is served below
// hostcache.mmv, named by the agent as pmcd asks; a second file's names
// appear without a restart, and the next fetch tells pmcd the names
// changed.
func TestMMVFilesThroughThePipe(t *testing.T) {
	dir := t.TempDir()
	writeMMV(t, dir, "app")
	t.Setenv("PCP_TMP_DIR", dir)
	a, err := driver.Start(agentPath, []string{"-d", "396", "-l", filepath.Join(dir, "agent.log"), "-U", "root",
		"-r", "../../testdata/proc-t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	var names []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if names = traverse(t, a, "hostcache.mmv"); len(names) > 0 {
			break
		}
	}
	if !slices.Contains(names, "hostcache.mmv.app.u64") || !slices.Contains(names, "hostcache.mmv.app.sub.elapsed") {
		t.Fatalf("names below hostcache.mmv: %v", names)
	}
	for root, want := range map[string]string{"hostcache.rate.mmv": "hostcache.rate.mmv.app.u64",
		"hostcache.max.rate.mmv": "hostcache.max.rate.mmv.app.u64", "hostcache.min.rate.mmv": "hostcache.min.rate.mmv.app.u64",
		"hostcache.max.mmv": "hostcache.max.mmv.app.double", "hostcache.min.mmv": "hostcache.min.mmv.app.float"} {
		if got := traverse(t, a, root); !slices.Contains(got, want) {
			t.Errorf("names below %s: %v, want %s among them", root, got, want)
		}
	}
	_, reply, err := a.Request((&pmda.PMNSNames{Names: []string{"hostcache.mmv.app.u64"}}).Append(nil))
	var ids pmda.PMNSIDs
	if err != nil || ids.Decode(reply) != nil || len(ids.PMIDs) != 1 {
		t.Fatalf("lookup of hostcache.mmv.app.u64: %v %x", err, reply)
	}
	a.Send((&pmda.Profile{}).Append(nil))
	_, reply, err = a.Request((&pmda.Fetch{PMIDs: ids.PMIDs}).Append(nil))
	var res pmda.Result
	if err != nil || res.Decode(reply) != nil || len(res.Sets) != 1 || res.Sets[0].NumVal != 3 {
		t.Fatalf("fetch of hostcache.mmv.app.u64: %v %+v", err, res.Sets)
	}
	writeMMV(t, dir, "second")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if names = traverse(t, a, "hostcache.mmv"); slices.Contains(names, "hostcache.mmv.second.u64") {
			break
		}
	}
	if !slices.Contains(names, "hostcache.mmv.second.u64") {
		t.Fatalf("a second file's names did not appear: %v", names)
	}
	_, reply, err = a.Request((&pmda.Fetch{PMIDs: ids.PMIDs}).Append(nil))
	if err != nil || res.Decode(reply) != nil || res.Flags&0x10 == 0 {
		t.Errorf("the fetch after the names changed has flags %#x, want PMCD_NAMES_CHANGE (0x10)", res.Flags)
	}
	_, reply, _ = a.Request((&pmda.Fetch{PMIDs: ids.PMIDs}).Append(nil))
	if res.Decode(reply) != nil || res.Flags != 0 {
		t.Errorf("the next fetch has flags %#x, want none", res.Flags)
	}
}
