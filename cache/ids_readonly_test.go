package cache

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// The agent loads its id maps as root, then runs as its own user: a
// directory that user may not write must not lead to an id given twice.
// As root, chmod does not stop writes, so the read-only part runs in a
// child test process that loads as root and drops to nobody, as the agent
// does; as an ordinary user it runs here.

// readOnlyPhaseEnv tells a child test process to run the read-only part:
// "RESTORE PATH", RESTORE saying whether it restores the permissions and
// saves before it ends.
const readOnlyPhaseEnv = "HOSTCACHE_TEST_IDS_READ_ONLY_PHASE"

// readOnlyResult starts the line on which the child gives the id.
const readOnlyResult = "read-only phase gave veth-a id "

func TestNoIDGivenTwiceAfterAReadOnlyDirectory(t *testing.T) {
	if spec := os.Getenv(readOnlyPhaseEnv); spec != "" {
		runReadOnlyChild(t, spec)
		return
	}
	for _, c := range []struct {
		name         string
		savedBetween bool // the agent saves once more after the permissions are back
	}{{"restart before any save", false}, {"restart after a save", true}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(agentsDir(t), "hostcache.3")
			seed := LoadIDMap(path, nil)
			eth0, eth1 := seed.ID("eth0"), seed.ID("eth1")
			first := readOnlyPhase(t, path, c.savedBetween)
			if first < hashIDBase {
				t.Errorf("veth-a got sequential id %d while its file could not be written", first)
			}
			var maps IDMaps // the restart, as the agent loads its maps
			m := maps.Load(path, func(err error) { t.Errorf("after the restart: %v", err) })
			second := m.ID("veth-b")
			maps.SaveAll(time.Unix(1795320600, 0))
			if second == first {
				t.Fatalf("veth-b got veth-a's id %d after the restart", first)
			}
			if m.ID("eth0") != eth0 || m.ID("eth1") != eth1 {
				t.Error("saved names lost their ids")
			}
			a := m.ID("veth-a")
			if c.savedBetween && a != first {
				t.Errorf("veth-a has id %d after the restart, %d before", a, first)
			}
			if a == second || a == eth0 || a == eth1 {
				t.Errorf("veth-a got id %d, another name's", a)
			}
		})
	}
}

// agentsDir makes a directory the agent's user owns, below directories
// that user can enter.
func agentsDir(t *testing.T) string {
	base := t.TempDir()
	if err := os.Chmod(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "ids")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		uid, gid := nobody(t)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) }) // if a phase failed half-way
	return dir
}

// nobody returns the ids of the unprivileged user the test runs as.
func nobody(t *testing.T) (uid, gid int) {
	u, err := user.Lookup("nobody")
	if err != nil {
		testenv.SkipOutsideCI(t, "running as root without a user nobody to drop to: "+err.Error())
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid
}

// readOnlyPhase runs the read-only part as the agent's user and returns
// the id it gave to veth-a. The permissions are restored when it returns.
func readOnlyPhase(t *testing.T, path string, saveAfterRestore bool) uint32 {
	defer os.Chmod(filepath.Dir(path), 0o755)
	if os.Geteuid() != 0 {
		id, err := readOnlySample(path, saveAfterRestore)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	nobody(t) // skips or fails before the child would
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoIDGivenTwiceAfterAReadOnlyDirectory$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%t %s", readOnlyPhaseEnv, saveAfterRestore, path))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the read-only phase failed: %v\n%s", err, out)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), readOnlyResult); ok {
			id, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				t.Fatal(err)
			}
			return uint32(id)
		}
	}
	t.Fatalf("the read-only phase gave no id:\n%s", out)
	return 0
}

// runReadOnlyChild is the child's side: it loads as root, drops to
// nobody and runs the read-only part.
func runReadOnlyChild(t *testing.T, spec string) {
	restore, path, _ := strings.Cut(spec, " ")
	id, err := readOnlySample(path, restore == "true")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s%d\n", readOnlyResult, id)
}

// readOnlySample loads the map, makes its directory read-only as the
// agent's user, and gives veth-a an id in one sample; with
// saveAfterRestore the permissions come back and the next sample saves.
func readOnlySample(path string, saveAfterRestore bool) (uint32, error) {
	var maps IDMaps
	m := maps.Load(path, nil)
	if err := becomeAgentsUser(); err != nil {
		return 0, err
	}
	dir := filepath.Dir(path)
	if err := os.Chmod(dir, 0o555); err != nil {
		return 0, err
	}
	if f, err := os.CreateTemp(dir, "probe"); err == nil {
		os.Remove(f.Name())
		return 0, fmt.Errorf("%s is still writable: the test would prove nothing", dir)
	}
	id := m.ID("veth-a")
	now := time.Unix(1795320600, 0)
	maps.SaveAll(now)
	if saveAfterRestore {
		if err := os.Chmod(dir, 0o755); err != nil {
			return 0, err
		}
		maps.SaveAll(now.Add(time.Second))
	}
	return id, nil
}

// becomeAgentsUser drops root for nobody, as the agent drops it for pcp
// after loading its maps; as any other user it has nothing to do.
func becomeAgentsUser() error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := syscall.Setgroups([]int{gid}); err != nil {
		return err
	}
	if err := syscall.Setgid(gid); err != nil {
		return err
	}
	return syscall.Setuid(uid)
}
