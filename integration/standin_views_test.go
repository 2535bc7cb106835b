//go:build linux

package integration

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
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
	viewFigure   = regexp.MustCompile(`^-?\d+(\.\d+)?$`)
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
// pmdalinux: no error it did not print then, figures where it printed
// figures, and no N/A in the last sample where it printed a sample
// without one (hostcache's own views print nothing with pmdalinux alone).
func compareViews(t *testing.T, views []pmrepView, before, after map[string]toolOutput) {
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
			t.Errorf("pmrep :%s printed figures with pmdalinux, none with the stand-in:\n%s", v.name, a.stdout)
		case !v.perProcess && bs.figures > 0 && bs.missing == 0 && as.missing > 0:
			t.Errorf("pmrep :%s: %d N/A in the last sample with the stand-in, none with pmdalinux:\n%s\npmdalinux's:\n%s",
				v.name, as.missing, lastLines(a.stdout, 4), lastLines(b.stdout, 4))
		}
	}
	t.Logf("%d pmrep views, %d print figures with the stand-in; %d print no figure or an error with pmdalinux as well: %v",
		len(views), printing, len(notHere), notHere)
}

// statTool is one of PCP's *stat tools and the row of figures it prints.
type statTool struct {
	command clientJob
	row     *regexp.Regexp
}

// statTools are pmstat and the pcp-* tools the issue names, with the
// samples they print and a row of figures each (a missing value prints
// "?", "N/A" or nothing, and breaks the row).
func statTools(t *testing.T) []statTool {
	t.Helper()
	binadm := pcpVar(t, "PCP_BINADM_DIR")
	tool := func(row string, name string, args ...string) statTool {
		path := name
		if strings.HasPrefix(name, "pcp-") {
			path = filepath.Join(binadm, name)
			if !fileExists(path) {
				skipOutsideCI(t, path+" is not installed (it comes with PCP's pcp package)")
			}
		}
		return statTool{command: clientJob{name: name, args: append([]string{path}, args...)}, row: regexp.MustCompile(row)}
	}
	return []statTool{
		tool(`(?m)^\s*[\d.]+(\s+[\d.]+[kmgt]?){13}\s*$`, "pmstat", "-s", "2", "-t", "1"),
		tool(`(?m)^(\s*[\d.]+[kMGB]?)+\s*(\|(\s*[\d.]+[kMGB]?)+\s*){4}$`, "pcp-dstat", "1", "2"),
		tool(`(?m)^\S+(\s+\d+\.\d+){12}\s*$`, "pcp-iostat", "-s", "2", "-t", "1"),
		tool(`(?m)^\d\d:\d\d:\d\d\s+all(\s+\d+\.\d+){10}\s*$`, "pcp-mpstat", "-s", "2", "-t", "1"),
		tool(`(?m)^Mem:(\s+\d+){6}\s*$`, "pcp-free"),
		tool(`load average: \d+\.\d+, \d+\.\d+, \d+\.\d+`, "pcp-uptime"),
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
