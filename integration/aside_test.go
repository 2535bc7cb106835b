//go:build linux

package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// asideAgent is a hostcache installed before the tests (by make install or
// an administrator), set aside with its instance ids and configuration,
// and the binary to install it with again.
type asideAgent struct {
	installed bool
	binary    string
	keep      string            // where the files wait
	moved     map[string]string // each file's home: where it waits
}

// setAside removes an installed hostcache and moves its files away; nil
// when there is none. When a move fails, it puts back what it moved.
func setAside() (*asideAgent, error) {
	pmdas, varDir := pcpEnv("PCP_PMDAS_DIR"), pcpEnv("PCP_VAR_DIR")
	if pmdas == "" || varDir == "" {
		return nil, fmt.Errorf("PCP_PMDAS_DIR or PCP_VAR_DIR not set by /etc/pcp.env")
	}
	dir := filepath.Join(pmdas, "hostcache")
	a := &asideAgent{installed: installed(), moved: map[string]string{}}
	if !a.installed && !fileExists(dir) {
		return nil, nil
	}
	// Beside PCP's own directories, so that a rename never crosses file systems.
	keep, err := os.MkdirTemp(varDir, ".hostcache-aside-")
	if err != nil {
		return nil, err
	}
	a.keep = keep
	if a.installed {
		data, err := os.ReadFile(filepath.Join(dir, "pmdahostcache"))
		if err != nil {
			os.RemoveAll(keep)
			return nil, fmt.Errorf("hostcache is installed but its binary cannot be kept: %v", err)
		}
		a.binary = filepath.Join(keep, "pmdahostcache.installed")
		if err := os.WriteFile(a.binary, data, 0o755); err != nil {
			os.RemoveAll(keep)
			return nil, err
		}
	}
	if out, err := runScript("remove-pmda.sh"); err != nil {
		os.RemoveAll(keep)
		return nil, fmt.Errorf("remove-pmda.sh: %v\n%s", err, out)
	}
	ids, _ := filepath.Glob(filepath.Join(varDir, "config/pmda/hostcache.*"))
	for i, f := range append(ids, dir) {
		if !fileExists(f) {
			continue
		}
		to := filepath.Join(keep, fmt.Sprint(i))
		if err := os.Rename(f, to); err != nil {
			return a, fmt.Errorf("setting %s aside: %v", f, errors.Join(err, a.restore()))
		}
		a.moved[f] = to
	}
	return a, nil
}

// restore puts the files back and installs the agent again if it was.
func (a *asideAgent) restore() error {
	var errs []string
	for f, to := range a.moved {
		os.RemoveAll(f)
		if err := os.Rename(to, f); err != nil {
			errs = append(errs, fmt.Sprintf("putting %s back: %v", f, err))
		}
	}
	if a.installed {
		if out, err := runScript("install-pmda.sh", a.binary); err != nil {
			errs = append(errs, fmt.Sprintf("install-pmda.sh: %v\n%s", err, out))
		}
	}
	os.RemoveAll(a.keep)
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

func (a *asideAgent) String() string {
	return fmt.Sprintf("installed=%v, %d files kept in %s", a.installed, len(a.moved), a.keep)
}

// runScript runs one of the project's scripts/ with a bound on its time.
func runScript(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(repoRoot, "scripts", name), args...).CombinedOutput()
	return string(out), err
}

// pcpEnv is one of PCP's locations from /etc/pcp.env, "" when unset.
func pcpEnv(name string) string {
	out, err := exec.Command("sh", "-c", "set +u; . /etc/pcp.env; printf %s \"$"+name+"\"").Output()
	if err != nil {
		return ""
	}
	return string(out)
}
