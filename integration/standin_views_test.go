//go:build linux

package integration

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// pmrepView is one view of $PCP_SYSCONF_DIR/pmrep/*.conf.
type pmrepView struct {
	name string
	// perProcess views list processes, which come and go between samples,
	// so their N/A cells are not compared.
	perProcess bool
}

func (v pmrepView) jobName() string { return ":" + v.name }

func (v pmrepView) command() clientJob {
	return clientJob{name: v.jobName(), args: []string{"pmrep", "-s", "2", "-t", "1", ":" + v.name}}
}

var (
	viewSection = regexp.MustCompile(`(?m)^\[([^\]]+)\]\s*$`)
	// pmrep.conf(5): [options] and [global] are settings, not views.
	notViews         = map[string]bool{"options": true, "global": true}
	perProcessMetric = regexp.MustCompile(`(?m)^\s*(hot)?proc\.(psinfo|id|io|memory|schedstat|fd|namespaces|smaps|autogroup)\.`)
)

// pmrepViews reads every view's name from the pmrep configuration files
// installed on this machine.
func pmrepViews(t *testing.T) []pmrepView {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(pcpVar(t, "PCP_SYSCONF_DIR"), "pmrep", "*.conf"))
	var views []pmrepView
	for _, f := range files {
		text := readText(t, f)
		heads := viewSection.FindAllStringSubmatchIndex(text, -1)
		for i, h := range heads {
			end := len(text)
			if i+1 < len(heads) {
				end = heads[i+1][0]
			}
			if name := text[h[2]:h[3]]; !notViews[name] {
				views = append(views, pmrepView{name: name, perProcess: perProcessMetric.MatchString(text[h[1]:end])})
			}
		}
	}
	if len(views) < 10 {
		t.Fatalf("only %d pmrep views in %v", len(views), files)
	}
	sort.Slice(views, func(i, j int) bool { return views[i].name < views[j].name })
	return views
}

// viewSample counts the cells of a view's last sample: figures, and N/A
// where a value is missing.
type viewSample struct{ figures, missing int }

func (s viewSample) clean() bool { return s.figures > 0 && s.missing == 0 }

var (
	rowTimeStamp = regexp.MustCompile(`^\d\d:\d\d:\d\d\b`)
	// viewFigure is a value pmrep printed (src/pmrep/pmrep.py,
	// format_stdout_value and parse_non_number): a number, "xxx" for one
	// too wide for its column, and inf, -inf and NaN. N/A is no value.
	viewFigure = regexp.MustCompile(`^(-?\d+(\.\d+)?|xxx|-?inf|NaN)$`)
)

// finalSample reads the last sample pmrep printed: the rows of the last
// time stamp, or the last line of a view without time stamps. A rate's
// first sample is N/A by nature; its last is not.
func finalSample(out string) viewSample {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return viewSample{}
	}
	block := lines[len(lines)-1:]
	if stamp := rowTimeStamp.FindString(block[0]); stamp != "" {
		start := len(lines) - 1
		for start > 0 && strings.HasPrefix(lines[start-1], stamp) {
			start--
		}
		block = lines[start:]
	}
	var s viewSample
	for _, line := range block {
		for _, cell := range strings.Fields(rowTimeStamp.ReplaceAllString(line, "")) {
			switch {
			case cell == "N/A":
				s.missing++
			case viewFigure.MatchString(cell):
				s.figures++
			}
		}
	}
	return s
}

// compareViews holds each view's run with the stand-in to its run with
// the agent stood in for (pmdalinux, pmdaproc): no error it did not print
// then, figures where it printed figures, and no N/A in the last sample
// where it printed a sample without one (hostcache's own views print
// nothing with pmdalinux alone).
func compareViews(t *testing.T, agent string, views []pmrepView, before, after map[string]toolOutput) {
	var printing int
	var notHere []string
	for _, v := range views {
		b, a := before[v.jobName()], after[v.jobName()]
		bs, as := finalSample(b.stdout), finalSample(a.stdout)
		if bs.figures == 0 || b.failed() {
			notHere = append(notHere, v.name)
		}
		if as.figures > 0 {
			printing++
		}
		for _, line := range newLines(b.complaint(), a.complaint()) {
			t.Errorf("pmrep :%s with the stand-in: %s", v.name, line)
		}
		switch {
		case bs.figures > 0 && as.figures == 0:
			t.Errorf("pmrep :%s printed figures with %s, none with the stand-in:\n%s", v.name, agent, a.stdout)
		case !v.perProcess && bs.figures > 0 && bs.missing == 0 && as.missing > 0:
			t.Errorf("pmrep :%s: %d N/A in the last sample with the stand-in, none with %s:\n%s\n%s's:\n%s",
				v.name, as.missing, agent, lastLines(a.stdout, 4), agent, lastLines(b.stdout, 4))
		}
	}
	t.Logf("%d pmrep views, %d print figures with the stand-in; %d print no figure or an error with %s as well: %v",
		len(views), printing, len(notHere), agent, notHere)
}

// statTool is one of PCP's *stat tools and the row of figures it prints.
type statTool struct {
	command clientJob
	row     *regexp.Regexp
}

// statRows are the rows of figures of pmstat and the pcp-* tools, each
// accepting every figure its tool can print (PCP 6.0.3's sources) and no
// mark of a missing value: "?", "N/A", a blank or pcp-dstat's "-" for a
// negative value break the row.
var statRows = map[string]string{
	// pmstat -t 1 on one host (src/pmstat/pmstat.c): the load average
	// (%7.2f); swpd, free, buff and cache in Kbyte (scaleKPrint: %6lu, or
	// %5lu with "m" or "g"); pi, po, bi, bo, in and cs (scalePrint: %4lu,
	// or %3lu with "K" or "M"); us, sy and id (%3u).
	"pmstat": `(?m)^\s*\d+\.\d\d(\s+\d+[mg]?){4}(\s+\d+[KM]?){6}(\s+\d+){3}\s*$`,
	// pcp-dstat (src/pcp/dstat/pcp-dstat.py, cprint): integers or
	// decimals, with a unit of 1000s (k M G T P E Z Y, a blank for ones)
	// or of 1024s (B k M G ...), in five groups split by "|".
	"pcp-dstat": `(?m)^(\s*[\d.]+[BkMGTPEZY]?)+\s*(\|(\s*[\d.]+[BkMGTPEZY]?)+\s*){4}$`,
	// pcp-iostat (src/pcp/iostat/pcp-iostat.py): the device, then twelve
	// %*.*f, negative for a counter that went back.
	"pcp-iostat": `(?m)^\S+(\s+-?\d+\.\d+){12}\s*$`,
	// pcp-mpstat (src/pcp/mpstat/pcp-mpstat.py): ctime's time, "all", and
	// ten Python floats rounded to two places ("4.0", "95.02", "-0.0").
	"pcp-mpstat": `(?m)^\d\d:\d\d:\d\d\s+all(\s+-?\d+\.\d+){10}\s*$`,
	// pcp-free (src/pcp/free/pcp-free.py): six integers, used negative
	// when the kernel's figures disagree.
	"pcp-free": `(?m)^Mem:(\s+-?\d+){6}\s*$`,
	// pcp-uptime (src/pcp/uptime/pcp-uptime.py): three %.2f.
	"pcp-uptime": `load average: \d+\.\d+, \d+\.\d+, \d+\.\d+`,
}

// statTools are pmstat and the pcp-* tools the issue names, with the
// samples they print and a row of figures each (statRows).
func statTools(t *testing.T) []statTool {
	t.Helper()
	binadm := pcpVar(t, "PCP_BINADM_DIR")
	tool := func(name string, args ...string) statTool {
		path := name
		if strings.HasPrefix(name, "pcp-") {
			path = filepath.Join(binadm, name)
			if !fileExists(path) {
				testenv.SkipOutsideCI(t, path+" is not installed (it comes with PCP's pcp package)")
			}
		}
		return statTool{command: clientJob{name: name, args: append([]string{path}, args...)}, row: regexp.MustCompile(statRows[name])}
	}
	return []statTool{
		tool("pmstat", "-s", "2", "-t", "1"),
		tool("pcp-dstat", "1", "2"),
		tool("pcp-iostat", "-s", "2", "-t", "1"),
		tool("pcp-mpstat", "-s", "2", "-t", "1"),
		tool("pcp-free"),
		tool("pcp-uptime"),
	}
}

// compareStatTools: each tool prints its row of figures with the stand-in
// when it did with pmdalinux, and no error it did not print then.
func compareStatTools(t *testing.T, tools []statTool, before, after map[string]toolOutput) {
	for _, s := range tools {
		name := s.command.name
		b, a := before[name], after[name]
		for _, line := range newLines(b.complaint(), a.complaint()) {
			t.Errorf("%s with the stand-in: %s", name, line)
		}
		switch {
		case !s.row.MatchString(b.stdout):
			t.Logf("%s prints no row of figures with pmdalinux either:\n%s%s", name, b.stdout, b.stderr)
		case !s.row.MatchString(a.stdout):
			t.Errorf("%s printed a row of figures with pmdalinux, none with the stand-in:\n%s%s", name, a.stdout, a.stderr)
		}
		t.Logf("%s with the stand-in:\n%s", name, lastLines(a.stdout, 3))
	}
}
