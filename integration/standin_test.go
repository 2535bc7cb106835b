//go:build linux

package integration

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/standin"
)

// TestStandIn installs hostcache in pmdalinux's place with its own
// Install -S linux and holds it to what pmdalinux gave in the same run.
//
// Names: every pmdalinux name with values that hostcache has a twin of has
// values from the stand-in, the same descriptor (PMID, type, instance
// domain, semantics, units) and the same instance ids for the same
// instance names. pmdalinux names hostcache has no twin of yet are counted
// and listed. It gives the answers PCP's QA tests 003 and 767 expect, as
// pmdalinux does, pmda.version starts with pmdalinux's, and new clients'
// rates are right from their first fetch (testShortClients).
//
// PCP's own clients run against pmdalinux, then against the stand-in: the
// primary pmlogger's fresh pmlogconf configuration logs with no new
// complaint and no name loses its values; every pmrep view PCP ships
// prints what it printed before; pmstat, pcp-dstat, pcp-iostat,
// pcp-mpstat, pcp-free and pcp-uptime print their rows of figures; the
// default pmie rules evaluate as before. The two archives merge with
// pmlogextract and pass pmlogcheck.
//
// The switch runs as an administrator's would, with PCP's primary
// pmlogger logging across it (testSwitch): the agent goes in beside
// pmdalinux, stands in with Install -S linux for the checks above, then
// for pmdalinux and pmdaproc with Install -S linux,proc
// (testBothStandIns), where PCP's clients run their second time, and
// pcp-ps, pcp-pidstat, pcp-atop and the :proc-* views print what they
// printed with pmdaproc, and a pmlogger logging pmdaproc's metrics goes
// on; then it goes back with Install -S none. Remove then puts pmdalinux
// and pmdaproc back: their pmcd.conf entries as before, and pmdalinux
// serves again.
func TestStandIn(t *testing.T) {
	requirePCP(t)
	requireTools(t, "pmlogconf", "pmlogger", "pmdumplog", "pmlogextract", "pmlogcheck",
		"pmrep", "pmstat", "pmie", "pmieconf")
	stats := statTools(t)
	bin := buildPMDA(t)
	pmdaDir := filepath.Join(pcpVar(t, "PCP_PMDAS_DIR"), "hostcache")
	dir := sharedDir(t)
	confBefore := readPMCDConf(t)
	if entry := linuxEntry(confBefore); !strings.Contains(entry, "pmdalinux") {
		t.Fatalf("pmcd.conf's domain 60 is %q: the clients' first run needs pmdalinux there", entry)
	}
	names := linuxNames()
	listed := listMetrics(t, names)
	if listed["kernel.all.load"].numval != 3 {
		t.Fatalf("pmdalinux gives kernel.all.load %d values before the switch", listed["kernel.all.load"].numval)
	}
	qaBefore := readQAAnswers(t, "")
	views := pmrepViews(t)
	restoreBeside(t, pmdaDir)
	// The first run is pmdalinux's alone, as on a host that never had
	// hostcache: beside it, hostcache's names are in its own domain 396,
	// and standing in, in domain 60, so its archives do not merge across
	// the switch (the README says so); pmdalinux's do.
	if installed() {
		mustRun(t, 2*time.Minute, "sh", "-c", "cd "+pmdaDir+" && ./Remove </dev/null")
	}
	procLog := startProcLogger(t)
	// pcp-ps, pcp-pidstat and pcp-atop against pmdaproc, beside the
	// others' first run.
	procBeforeDone := make(chan map[string]toolOutput, 1)
	go func() { procBeforeDone <- runJobs(procToolJobs()) }()
	before := runClients(t, dir, "before", views, stats)
	procBefore := <-procBeforeDone
	procLog.phase("pmdaproc beside the stand-in for pmdalinux")

	var after clientRun
	var procAfter map[string]toolOutput
	testSwitch(t, bin, pmdaDir, func() {
		waitFor(t, "the stand-in's kernel.all.load", 30*time.Second, func() bool {
			return listMetrics(t, []string{"kernel.all.load"})["kernel.all.load"].numval == 3
		})
		if out := mustRun(t, 10*time.Second, "pgrep", "-a", "pmdahostcache"); !strings.Contains(out, "-S linux") {
			t.Errorf("no pmdahostcache -S linux runs:\n%s", out)
		}
		waitForCollectors(t)
		compareStandIn(t, listed, listMetrics(t, names), twinNames(t))
		t.Run("PCP QA 003 and 767", func(t *testing.T) { checkQAAnswers(t, qaBefore, readQAAnswers(t, "")) })
		// The agent runs as root while it stands in: it reads every
		// process's io, and gives each client its share.
		t.Run("process access as root", testProcAccess)
		// Before the tools below load the host. The clients reach pmcd
		// over its unix socket: they move no network counter.
		t.Run("short clients", func(t *testing.T) {
			together(t,
				check{"CPU rates", func(t *testing.T) { testShortClients(t, "kernel.all.cpu.", "") }},
				check{"tcp.insegs as of the fetch", func(t *testing.T) {
					afAsOfTheFetch(t, "network.tcp.insegs", "Tcp", "InSegs")
				}},
				check{"ip.inreceives as of the fetch", func(t *testing.T) {
					afAsOfTheFetch(t, "network.ip.inreceives", "Ip", "InReceives")
				}})
		})
		// The clients' second run and the process tools' run with the
		// stand-in for both, side by side.
		testBothStandIns(t, pmdaDir, procLog)
		procAfterDone := make(chan map[string]toolOutput, 1)
		go func() { procAfterDone <- runJobs(procToolJobs()) }()
		after = runClients(t, dir, "after", views, stats)
		procAfter = <-procAfterDone
		procLog.phase("pmdaproc again")
	})
	t.Run("pmlogger across the process stand-in", procLog.check)
	for name, o := range before.outputs {
		procBefore[name] = o // the :proc-* views' runs
	}
	for name, o := range after.outputs {
		procAfter[name] = o
	}
	t.Run("process tools", func(t *testing.T) {
		if n := len(procViews(views)); n < 12 {
			t.Errorf("only %d :proc-* views", n)
		}
		compareProcTools(t, views, procBefore, procAfter)
	})
	t.Run("pmlogger", func(t *testing.T) { compareLoggers(t, before, after) })
	t.Run("pmrep views", func(t *testing.T) { compareViews(t, "pmdalinux", views, before.outputs, after.outputs) })
	t.Run("stat tools", func(t *testing.T) { compareStatTools(t, stats, before.outputs, after.outputs) })
	t.Run("pmie", func(t *testing.T) { comparePmie(t, before.pmie, after.pmie) })
	t.Run("pmlogextract and pmlogcheck", func(t *testing.T) {
		checkArchives(t, before.archive, after.archive, filepath.Join(dir, "merged"))
	})

	mustRun(t, 2*time.Minute, "sh", "-c", "cd "+pmdaDir+" && ./Remove </dev/null")
	waitFor(t, "pmdalinux's kernel.all.load after Remove", 30*time.Second, func() bool {
		return listMetrics(t, []string{"kernel.all.load"})["kernel.all.load"].numval == 3
	})
	if out, _ := run(t, 10*time.Second, "pgrep", "-x", "pmdalinux"); strings.TrimSpace(out) == "" {
		t.Error("pmdalinux does not run after Remove")
	}
	for _, domain := range []string{"60", "3"} {
		if after, before := domainEntry(readPMCDConf(t), domain), domainEntry(confBefore, domain); after != before {
			t.Errorf("pmcd.conf's domain %s entry after Remove %q, before %q", domain, after, before)
		}
	}
	checkViewAgain(t, views, before.outputs)
}

// restoreBeside puts hostcache back beside pmdalinux and pmdaproc as the
// tests expect it, whatever the test left: the other agent's entry first,
// if the stand-in still holds it, then the agent as domain HOSTCACHE.
func restoreBeside(t *testing.T, pmdaDir string) {
	wasInstalled := installed()
	saved := filepath.Join(t.TempDir(), "pmdahostcache.previous")
	if data, err := os.ReadFile(filepath.Join(pmdaDir, "pmdahostcache")); err == nil {
		os.WriteFile(saved, data, 0o755)
	}
	t.Cleanup(func() {
		if fileExists(filepath.Join(pmdaDir, "standin.linux")) || fileExists(filepath.Join(pmdaDir, "standin.proc")) {
			run(t, 2*time.Minute, "sh", "-c", "cd "+pmdaDir+" && ./Remove </dev/null")
		}
		if wasInstalled {
			run(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), saved, "-S", "none")
		}
	})
}

// linuxEntry is pmcd.conf's entry for domain 60.
func linuxEntry(conf string) string {
	for _, line := range strings.Split(conf, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[1] == "60" {
			return line
		}
	}
	return ""
}

// linuxNames are pmdalinux's metric names.
func linuxNames() []string {
	var out []string
	for _, m := range standin.LinuxTable() {
		out = append(out, m.Name)
	}
	return out
}

// twinNames are the pmdalinux names hostcache has a twin of: hostcache.X
// in the PMNS the agent ships.
func twinNames(t *testing.T) map[string]bool {
	data, err := os.ReadFile(filepath.Join(repoRoot, "pmns"))
	if err != nil {
		t.Fatal(err)
	}
	leaves := map[string]bool{}
	var path []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[1] == "{":
			path = strings.Split(f[0], ".")
		case len(f) == 2 && strings.HasPrefix(f[1], "HOSTCACHE:"):
			leaves[strings.TrimPrefix(strings.Join(append(path, f[0]), "."), "hostcache.")] = true
		}
	}
	return leaves
}

// listed is one metric as PCP's clients see it.
type listed struct {
	numval int
	desc   string            // pminfo -d's lines, the PMID's among them
	insts  map[string]string // instance name -> id
}

// listMetrics lists names with pmprobe (values and instances) and pminfo
// (descriptors).
func listMetrics(t *testing.T, names []string) map[string]listed {
	out := map[string]listed{}
	for start := 0; start < len(names); start += 200 {
		batch := names[start:min(start+200, len(names))]
		probe, _ := run(t, time.Minute, "pmprobe", append([]string{"-i", "-I"}, batch...)...)
		for _, line := range strings.Split(probe, "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			l := listed{insts: map[string]string{}}
			if n, ok := atoi(f[1]); ok {
				l.numval = n
			}
			for _, m := range regexp.MustCompile(`\?(\d+) "([^"]*)"`).FindAllStringSubmatch(line, -1) {
				l.insts[m[2]] = m[1]
			}
			out[f[0]] = l
		}
		descs, _ := run(t, time.Minute, "pminfo", append([]string{"-d", "-m"}, batch...)...)
		readDescs(descs, out)
	}
	return out
}

// readDescs sets the descriptor of each metric pminfo -d -m described: a
// line "NAME PMID: ..." and the indented lines after it. Error lines
// (a name pminfo could not describe) start no block.
func readDescs(text string, out map[string]listed) {
	var name string
	var lines []string
	flush := func() {
		if l, ok := out[name]; ok && name != "" {
			l.desc = strings.Join(lines, "\n")
			out[name] = l
		}
		name, lines = "", nil
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.Contains(line, " PMID: ") && !strings.HasPrefix(line, " "):
			flush()
			name, lines = strings.Fields(line)[0], []string{line}
		case strings.HasPrefix(line, " ") && name != "":
			lines = append(lines, line)
		default:
			flush()
		}
	}
	flush()
}

func atoi(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, s != ""
}

// compareStandIn holds the stand-in to pmdalinux's listing for every name
// with values before that hostcache has a twin of, and reports the rest.
func compareStandIn(t *testing.T, before, after map[string]listed, twins map[string]bool) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var served, missing []string
	for name, b := range before {
		if b.numval <= 0 {
			continue
		}
		if !twins[name] {
			missing = append(missing, name)
			continue
		}
		served = append(served, name)
		a := after[name]
		if why, ok := deliberatelyNoValue[name]; ok && a.numval <= 0 {
			t.Logf("%s: pmdalinux has %d values, the stand-in none on purpose: %s", name, b.numval, why)
			if !strings.Contains(string(readme), name) {
				t.Errorf("%s: withheld on purpose, but the README does not say so", name)
			}
			continue
		}
		switch {
		case a.numval <= 0:
			t.Errorf("%s: %d values from pmdalinux, none from the stand-in (%d)", name, b.numval, a.numval)
		case a.desc != b.desc:
			t.Errorf("%s: descriptor\n%s\nfrom the stand-in, pmdalinux's\n%s", name, a.desc, b.desc)
		}
		for inst, id := range b.insts {
			if other, ok := a.insts[inst]; ok && other != id {
				t.Errorf("%s: instance %q is %s from the stand-in, %s from pmdalinux", name, inst, other, id)
			}
		}
	}
	sort.Strings(missing)
	t.Logf("pmdalinux names with values: %d; served by the stand-in's twins: %d; without a twin yet: %d %v",
		len(served)+len(missing), len(served), len(missing), missing)
}
