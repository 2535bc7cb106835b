package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDebianPackage builds the package with make deb, has lintian check
// it, then installs it as an administrator would: the agent serves through
// pmcd with its pmlogconf groups, pmieconf rules and pmrep views in place;
// removing it takes it out of pmcd and keeps only its configuration;
// purging leaves nothing it made (instance ids, logs, configuration).
func TestDebianPackage(t *testing.T) {
	requirePCP(t)
	for _, tool := range []string{"dpkg-deb", "lintian", "dpkg"} {
		if !have(tool) {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed", tool)
			}
			t.Skipf("%s is not installed: the package cannot be checked", tool)
		}
	}
	if installed() || fileExists("/var/lib/pcp/pmdas/hostcache/Install") {
		msg := "hostcache is installed already (make uninstall takes it away): the package would replace it"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out := mustRun(t, 5*time.Minute, "make", "-s", "-C", repoRoot, "deb")
	m := regexp.MustCompile(`(?m)^(bin/\S+\.deb)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("make deb printed no package:\n%s", out)
	}
	deb := filepath.Join(repoRoot, m[1])
	lint, err := run(t, 5*time.Minute, "lintian", deb)
	if err != nil || regexp.MustCompile(`(?m)^E: `).MatchString(lint) {
		t.Errorf("lintian: %v\n%s", err, lint)
	}
	t.Logf("lintian: %q", lint)
	contents := mustRun(t, time.Minute, "dpkg-deb", "-c", deb)
	for _, f := range []string{"./var/lib/pcp/pmdas/hostcache/pmdahostcache", "./var/lib/pcp/pmdas/hostcache/Install",
		"./var/lib/pcp/pmdas/hostcache/pmlogconf/summary", "./var/lib/pcp/pmdas/hostcache/pmieconf/cpu_saturation",
		"./etc/pcp/pmrep/hostcache.conf", "./usr/share/man/man1/pmdahostcache.1.gz",
		"./usr/share/doc/pmdahostcache/examples/hostcache.conf"} {
		if !strings.Contains(contents, f+"\n") {
			t.Errorf("the package lacks %s", f)
		}
	}
	t.Cleanup(func() { run(t, 2*time.Minute, "dpkg", "-P", "pmdahostcache") })
	checkPackageInstall(t, deb)
	checkPackageRemove(t)
	checkPackagePurge(t)
}

func checkPackageInstall(t *testing.T, deb string) {
	t.Helper()
	mustRun(t, 3*time.Minute, "dpkg", "-i", deb)
	waitFor(t, "the packaged agent's values", time.Minute, func() bool {
		return len(values(t, "hostcache.kernel.all.load")) == 3
	})
	if owner := mustRun(t, time.Minute, "dpkg", "-S", "/var/lib/pcp/pmdas/hostcache/pmdahostcache"); !strings.HasPrefix(owner, "pmdahostcache:") {
		t.Errorf("dpkg -S: %s", owner)
	}
	vardir := pcpVar(t, "PCP_VAR_DIR")
	for _, f := range []string{filepath.Join(vardir, "config/pmlogconf/hostcache/summary"),
		filepath.Join(vardir, "config/pmieconf/hostcache/cpu_saturation"),
		"/var/lib/pcp/pmdas/hostcache/hostcache.conf", "/etc/pcp/pmrep/hostcache.conf"} {
		if !fileExists(f) {
			t.Errorf("after dpkg -i there is no %s", f)
		}
	}
	if out, _ := exec.Command("man", "-a", "-w", "pmdahostcache").CombinedOutput(); !strings.Contains(string(out), "/usr/share/man/man1/pmdahostcache.1.gz") {
		t.Errorf("man -a -w pmdahostcache: %s", out)
	}
}

func checkPackageRemove(t *testing.T) {
	t.Helper()
	mustRun(t, 3*time.Minute, "dpkg", "-r", "pmdahostcache")
	if out, _ := run(t, 20*time.Second, "pminfo", "hostcache"); !strings.Contains(out, "Unknown metric name") {
		t.Errorf("after dpkg -r pminfo hostcache says: %s", out)
	}
	conf, _ := os.ReadFile(pcpVar(t, "PCP_PMCDCONF_PATH"))
	if regexp.MustCompile(`(?m)^hostcache\s`).Match(conf) {
		t.Error("pmcd.conf still names hostcache after dpkg -r")
	}
	if fileExists(filepath.Join(pcpVar(t, "PCP_VAR_DIR"), "config/pmlogconf/hostcache")) {
		t.Error("the pmlogconf groups are left after dpkg -r")
	}
	if !fileExists("/etc/pcp/pmrep/hostcache.conf") {
		t.Error("dpkg -r removed a configuration file (only a purge may)")
	}
}

func checkPackagePurge(t *testing.T) {
	t.Helper()
	mustRun(t, 3*time.Minute, "dpkg", "-P", "pmdahostcache")
	left, _ := filepath.Glob(filepath.Join(pcpVar(t, "PCP_VAR_DIR"), "config/pmda/hostcache.*"))
	logs, _ := filepath.Glob(filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd/hostcache.log*"))
	left = append(left, logs...)
	for _, f := range []string{"/etc/pcp/pmrep/hostcache.conf", "/var/lib/pcp/pmdas/hostcache"} {
		if fileExists(f) {
			left = append(left, f)
		}
	}
	if len(left) > 0 {
		t.Errorf("left after dpkg -P: %v", left)
	}
}
