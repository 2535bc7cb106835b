//go:build linux

package integration

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// installAside installs bin with the configuration conf gives for dir, a
// directory of the test's own made with mode, and returns dir and what
// Install printed. fresh removes an installed agent first, so Install
// runs as on a new machine. The administrator's configuration and agent
// are put back afterwards.
func installAside(t *testing.T, bin string, mode os.FileMode, fresh bool, conf func(dir string) string) (string, string) {
	t.Helper()
	pmdaDir := filepath.Join(pcpVar(t, "PCP_PMDAS_DIR"), "hostcache")
	confFile := filepath.Join(pmdaDir, "hostcache.conf")
	wasInstalled := installed()
	saved := t.TempDir()
	oldConf, confErr := os.ReadFile(confFile)
	if wasInstalled {
		if data, err := os.ReadFile(filepath.Join(pmdaDir, "pmdahostcache")); err == nil {
			os.WriteFile(filepath.Join(saved, "pmdahostcache"), data, 0o755)
		}
		if fresh {
			mustRun(t, 2*time.Minute, filepath.Join(repoRoot, "scripts", "remove-pmda.sh"))
		}
	}
	dir, err := os.MkdirTemp("", "hostcache-test-")
	if err != nil {
		t.Fatal(err)
	}
	// The agent runs as the pcp user: mode says what it may do there.
	os.Chmod(dir, mode)
	t.Cleanup(func() {
		run(t, 2*time.Minute, filepath.Join(repoRoot, "scripts", "remove-pmda.sh"))
		if confErr == nil {
			os.WriteFile(confFile, oldConf, 0o644)
		} else {
			os.Remove(confFile)
		}
		if wasInstalled {
			run(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), filepath.Join(saved, "pmdahostcache"))
		}
		os.RemoveAll(dir)
	})
	os.MkdirAll(pmdaDir, 0o755)
	if err := os.WriteFile(confFile, []byte(conf(dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, mustRun(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), bin)
}
