package cache

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// These tests hand files to libpcp_pmda itself: testdata/pmdacache/
// cacheload.c loads them with pmdaCacheOp(PMDA_CACHE_LOAD), as pmdalinux
// does at start, in a PCP_VAR_DIR of their own (pmcd is never touched).

// buildCacheload compiles cacheload against libpcp_pmda. Without a
// compiler or the headers (libpcp-pmda3-dev) the test is skipped, except
// in CI, where it fails.
func buildCacheload(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cacheload")
	src := filepath.Join("..", "testdata", "pmdacache", "cacheload.c")
	out, err := exec.Command("cc", "-O2", "-Wall", "-o", bin, src, "-lpcp_pmda", "-lpcp").CombinedOutput()
	if err == nil {
		return bin
	}
	msg := "cannot build testdata/pmdacache/cacheload.c (cc, libpcp3-dev and libpcp-pmda3-dev): " + err.Error() + "\n" + string(out)
	testenv.SkipOutsideCI(t, msg)
	return ""
}

// cacheloadRun is what cacheload printed.
type cacheloadRun struct {
	load   int              // what PMDA_CACHE_LOAD returned
	names  map[int64]string // the entries loaded
	added  map[string]int64 // the id given to each name stored
	stderr string           // libpcp_pmda's complaints
}

// runCacheload loads varDir/config/pmda/60.<serial> with libpcp_pmda and
// stores the names given after, as pmdalinux stores what it sees.
func runCacheload(t *testing.T, bin, varDir string, serial int, names ...string) cacheloadRun {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"60", strconv.Itoa(serial)}, names...)...)
	cmd.Env = append(os.Environ(), "PCP_VAR_DIR="+varDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cacheload: %v\n%s", err, stderr.String())
	}
	r := cacheloadRun{load: -1, names: map[int64]string{}, added: map[string]int64{}, stderr: stderr.String()}
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		f := strings.SplitN(line, " ", 3)
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "load":
			r.load = int(n)
		case "inst":
			r.names[n] = f[2]
		case "add":
			r.added[f[2]] = n
		}
	}
	return r
}

// pmdaDir makes a throwaway PCP_VAR_DIR holding file as its
// config/pmda/<as>, and returns the PCP_VAR_DIR and the file's path.
func pmdaDir(t *testing.T, data, as string) (varDir, path string) {
	t.Helper()
	varDir = t.TempDir()
	dir := filepath.Join(varDir, "config", "pmda")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, as)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return varDir, path
}

// pmdalinux reads a file hostcache wrote whole, every name with the id
// hostcache gave it; it gives its own new names ids hostcache never gave;
// and hostcache reads pmdalinux's save back with every id.
func TestLibpcpPmdaReadsWhatHostcacheWrites(t *testing.T) {
	bin := buildCacheload(t)
	varDir, path := pmdaDir(t, mustRead(t, "machine/60.40"), "60.40")
	var maps IDMaps
	m := maps.LoadPMDACache(filepath.Dir(path), 60, 40, nil)
	given := map[string]uint32{}
	var kept []string
	for _, name := range append(awkwardNames(), unwritableNames()...) {
		given[name] = m.ID(name)
		if given[name] < hashIDBase {
			kept = append(kept, name)
		}
	}
	maps.SaveAll(fixedNow)
	want := loadLikeLibpcp(mustRead(t, "machine/60.40"))
	r := runCacheload(t, bin, varDir, 40, append(kept, "pmdalinux-new")...)
	if r.load != len(want.names)+len(kept) || r.stderr != "" {
		t.Fatalf("libpcp_pmda loaded %d entries, want %d; it said: %s", r.load, len(want.names)+len(kept), r.stderr)
	}
	for id, name := range want.names {
		if r.names[id] != name {
			t.Errorf("pmdalinux's %q (%d) reads back as %q", name, id, r.names[id])
		}
	}
	for _, name := range kept {
		if r.names[int64(given[name])] != name || r.added[name] != int64(given[name]) {
			t.Errorf("%q (%d) reads back as %q and is stored as %d", name, given[name], r.names[int64(given[name])], r.added[name])
		}
	}
	if id := r.added["pmdalinux-new"]; id < 0 || m.used[uint32(id)] {
		t.Errorf("pmdalinux gave its new name id %d, one hostcache gave", id)
	}
	given["pmdalinux-new"] = uint32(r.added["pmdalinux-new"])
	var w warnings
	if back := loadPMDACacheAt(path, w.add); !sameIDs(back, given) || len(w) != 0 {
		t.Errorf("hostcache reads pmdalinux's save back with other ids (warnings: %v)", w)
	}
}

// On pmdalinux's own files, and on files damaged by hand, the rules the
// other tests read files by (loadLikeLibpcp) agree with libpcp_pmda, and
// hostcache keeps every id libpcp_pmda reads from a sound file.
func TestLibpcpPmdaAgreesWithTheRulesTestsUse(t *testing.T) {
	bin := buildCacheload(t)
	fixtures, _ := filepath.Glob(filepath.Join("..", "testdata", "pmdacache", "*", "*"))
	for _, fixture := range fixtures {
		rel, _ := filepath.Rel(filepath.Join("..", "testdata", "pmdacache"), fixture)
		if filepath.Ext(fixture) == ".c" {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			data := mustRead(t, rel)
			varDir, path := pmdaDir(t, data, "60.3")
			r := runCacheload(t, bin, varDir, 3)
			rules := loadLikeLibpcp(data)
			if (r.load < 0) != (rules.stopped != "") || !sameNames(r.names, rules.names) {
				t.Fatalf("libpcp_pmda read %v (load %d: %s), the rules %v (stopped: %q)", r.names, r.load, r.stderr, rules.names, rules.stopped)
			}
			if r.load < 0 || rules.ignored > 0 {
				return // damaged: hostcache reads more of it than libpcp_pmda
			}
			m := loadPMDACacheAt(path, nil)
			for id, name := range r.names {
				if got := m.ID(name); int64(got) != id {
					t.Errorf("%q got id %d, libpcp_pmda's is %d", name, got, id)
				}
			}
		})
	}
}

func sameNames(a, b map[int64]string) bool {
	if len(a) != len(b) {
		return false
	}
	for id, name := range a {
		if b[id] != name {
			return false
		}
	}
	return true
}
