package integration

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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
	requireTools(t, "dpkg-deb", "lintian", "dpkg")
	if out, err := exec.Command("dpkg", "-s", "pmdahostcache").CombinedOutput(); err == nil {
		t.Skipf("the package is installed already; this test installs and purges its own:\n%s", out)
	}
	setAsideSourceInstall(t)
	skipManIndex(t)
	out := mustRun(t, 5*time.Minute, "make", "-s", "-C", repoRoot, "deb")
	m := regexp.MustCompile(`(?m)^(bin/\S+\.deb)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("make deb printed no package:\n%s", out)
	}
	deb := filepath.Join(repoRoot, m[1])
	// lintian reads only the file: it runs while the package installs.
	lintian := make(chan lintianRun, 1)
	go func() { lintian <- runLintian(deb) }()
	defer func() { checkLintian(t, <-lintian) }()
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
	linux := linuxEntry(readPMCDConf(t))
	checkPackageStandIn(t, deb)
	checkPackageRemove(t)
	if after := linuxEntry(readPMCDConf(t)); after != linux {
		t.Errorf("dpkg -r of the stand-in left pmcd.conf's domain 60 as %q, want pmdalinux's %q", after, linux)
	}
	waitFor(t, "pmdalinux's pmda.version after dpkg -r", time.Minute, func() bool {
		v := values(t, "pmda.version")
		return len(v) == 1 && !strings.Contains(v[""], "hostcache")
	})
	checkPackagePurge(t)
}

func readPMCDConf(t *testing.T) string {
	t.Helper()
	conf, err := os.ReadFile(pcpVar(t, "PCP_PMCDCONF_PATH"))
	if err != nil {
		t.Fatal(err)
	}
	return string(conf)
}

// checkPackageStandIn: the packaged agent stands in for pmdalinux with
// the README's command, and a reinstall of the package (as an upgrade
// runs its scripts) keeps it there.
func checkPackageStandIn(t *testing.T, deb string) {
	t.Helper()
	mustRun(t, 3*time.Minute, "sh", "-c", "cd /var/lib/pcp/pmdas/hostcache && ./Install -S linux </dev/null")
	standingIn := func() bool {
		v := values(t, "pmda.version")
		return len(v) == 1 && strings.Contains(v[""], "hostcache") && len(values(t, "kernel.all.load")) == 3
	}
	waitFor(t, "the packaged stand-in's pmda.version and kernel.all.load", time.Minute, standingIn)
	mustRun(t, 3*time.Minute, "dpkg", "-i", deb)
	if entry := linuxEntry(readPMCDConf(t)); !strings.Contains(entry, "pmdahostcache") || !strings.Contains(entry, "-S linux") {
		t.Errorf("after reinstalling the package pmcd.conf's domain 60 is %q, want the stand-in", entry)
	}
	waitFor(t, "the stand-in after reinstalling the package", time.Minute, standingIn)
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
	t.Run("man finds the page", func(t *testing.T) {
		requireTools(t, "man")
		if out, _ := run(t, 20*time.Second, "man", "-a", "-w", "pmdahostcache"); !strings.Contains(out, "/usr/share/man/man1/pmdahostcache.1.gz") {
			t.Errorf("man -a -w pmdahostcache: %s", out)
		}
	})
}

// manAutoUpdate is man-db's flag for rebuilding its index at every dpkg
// run that adds or removes a manual page.
const manAutoUpdate = "/var/lib/man-db/auto-update"

// skipManIndex has dpkg leave man-db's index alone while the test installs
// and removes the package, and puts the flag back after: the rebuild takes
// 3 to 4 s a dpkg run here, and tells nothing of the package. man finds the
// page by its path without the index.
func skipManIndex(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(manAutoUpdate); err != nil {
		return
	}
	aside := manAutoUpdate + ".hostcache-test"
	if err := os.Rename(manAutoUpdate, aside); err != nil {
		t.Logf("man-db's index is rebuilt at each dpkg run: %v", err)
		return
	}
	t.Cleanup(func() {
		if err := os.Rename(aside, manAutoUpdate); err != nil {
			t.Errorf("putting man-db's %s back: %v", manAutoUpdate, err)
		}
	})
}

// lintianTag is one line lintian prints about the package: its kind (E
// error, W warning, O overridden) and its tag.
var lintianTag = regexp.MustCompile(`(?m)^([EWO]): pmdahostcache[^:]*: (\S+)`)

// lintianRun is what lintian printed about the package, and how it ended.
type lintianRun struct {
	out string
	err error
}

// runLintian runs lintian on the package.
func runLintian(deb string) lintianRun {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "lintian", "--show-overrides", deb).CombinedOutput()
	return lintianRun{string(out), err}
}

// checkLintian: lintian finds no error and no warning in the package, and
// overrides only the tag packaging/debian/lintian-overrides names.
func checkLintian(t *testing.T, r lintianRun) {
	t.Helper()
	var reported, overridden []string
	for _, m := range lintianTag.FindAllStringSubmatch(r.out, -1) {
		if m[1] == "O" {
			overridden = append(overridden, m[2])
		} else {
			reported = append(reported, m[1]+": "+m[2])
		}
	}
	if r.err != nil || len(reported) > 0 {
		t.Errorf("lintian reports %v (%v):\n%s", reported, r.err, r.out)
	}
	if !slices.Equal(overridden, []string{"initial-upload-closes-no-bugs"}) {
		t.Errorf("lintian overrides %v, want only initial-upload-closes-no-bugs:\n%s", overridden, r.out)
	}
	t.Logf("lintian --show-overrides: %q", r.out)
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

// setAsideSourceInstall takes away a hostcache installed from source (make
// install, or a TestPCP that did not get to clean up) for the time of the
// test: the package would replace its files and a purge would delete its
// configuration and instance ids. All of it comes back afterwards and the
// agent is installed again.
func setAsideSourceInstall(t *testing.T) {
	t.Helper()
	a, err := setAside()
	if err != nil {
		t.Fatal(err)
	}
	if a == nil {
		return
	}
	t.Logf("set aside a hostcache installed from source: %v", a)
	t.Cleanup(func() {
		if err := a.restore(); err != nil {
			t.Error(err)
		}
	})
}
