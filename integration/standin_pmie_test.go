//go:build linux

package integration

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// pmieProc is pmie evaluating the default rules.
type pmieProc struct {
	log  string
	proc *background
}

// ruleDelta is a rule's evaluation interval in a pmieconf configuration.
var ruleDelta = regexp.MustCompile(`(?m)^delta = [^;]*;`)

// startPmie generates the default rules as pmie_check makes them for the
// primary pmie, sets every rule's delta to one second so that five
// seconds evaluate each several times, and starts pmie verbose.
func startPmie(t *testing.T, base string) pmieProc {
	t.Helper()
	config := base + ".pmie.config"
	mustRun(t, time.Minute, "pmieconf", "-f", config, "-cF")
	mustRun(t, time.Minute, "pmieconf", "-f", config, "-c", "modify", "primary", "enabled", "yes")
	rules := readText(t, config)
	if !ruleDelta.MatchString(rules) {
		t.Fatalf("no rule deltas in the configuration pmieconf generated:\n%s", rules)
	}
	fast := base + ".pmie.fast"
	if err := os.WriteFile(fast, []byte(ruleDelta.ReplaceAllString(rules, "delta = 1 sec;")), 0o644); err != nil {
		t.Fatal(err)
	}
	p := pmieProc{log: base + ".pmie.log"}
	p.proc = startBackground(t, "pmie", "-c", fast, "-T", "5sec", "-V", "-l", p.log)
	return p
}

// pmieRun is what pmie's verbose log says.
type pmieRun struct {
	rounds     int
	final      map[string]string // rule to true, false or unknown in the last round
	complaints string            // lines other than rule states and the log's own
}

var (
	// ruleState is a rule's line in pmie -V's log (src/pmie/src/eval.c
	// and show.c, showAnnotatedValue): its name, the time in parentheses
	// with -e or an archive, then true, false, unknown or "?" (no value,
	// read as unknown), or nothing when the value is annotated per host
	// and instance on the lines after it (ruleInstance).
	ruleState = regexp.MustCompile(`^(\S+)(?: \([^)]*\))?:(?: (true|false|unknown|\?))?$`)
	// ruleInstance is one host and instance of an annotated value:
	// "host: [inst] true", with no instance for a host-wide value.
	ruleInstance = regexp.MustCompile(`^\S+: (?:\[.*\] )?(true|false|unknown)$`)
	pmieOwn      = regexp.MustCompile(`^(Log for pmie|Log finished|pmie: PID = |\[[^\]]*\] pmie\(\d+\) Info: )`)
	// A message's time and process id differ between runs.
	pmieStamp = regexp.MustCompile(`^\[[^\]]*\] pmie\(\d+\) `)
)

// parsePmieLog reads rounds of "rule: state" lines, a blank line after
// each, and the other lines. An annotated rule is true when one of its
// instances is, unknown when all are, and false otherwise.
func parsePmieLog(log string) pmieRun {
	r := pmieRun{final: map[string]string{}}
	round := map[string]string{}
	var complaints strings.Builder
	annotated := ""
	for _, line := range strings.Split(log, "\n") {
		line = strings.TrimSpace(line)
		if m := ruleInstance.FindStringSubmatch(line); m != nil && annotated != "" {
			switch was := round[annotated]; {
			case m[1] == "true" || was == "true":
				round[annotated] = "true"
			case m[1] == "false" || was == "false":
				round[annotated] = "false"
			}
			continue
		}
		annotated = ""
		if m := ruleState.FindStringSubmatch(line); m != nil {
			switch m[2] {
			case "":
				annotated, round[m[1]] = m[1], "unknown"
			case "?":
				round[m[1]] = "unknown"
			default:
				round[m[1]] = m[2]
			}
			continue
		}
		if len(round) > 0 {
			r.rounds++
			r.final, round = round, map[string]string{}
		}
		if line != "" && !pmieOwn.MatchString(line) {
			complaints.WriteString(pmieStamp.ReplaceAllString(line, "") + "\n")
		}
	}
	if len(round) > 0 {
		r.rounds++
		r.final = round
	}
	r.complaints = complaints.String()
	return r
}

// comparePmie: with the stand-in the rules are evaluated, none ends
// unknown that pmdalinux let pmie decide, and pmie says nothing it did
// not say with pmdalinux.
func comparePmie(t *testing.T, before, after pmieRun) {
	if before.rounds < 2 || after.rounds < 2 {
		t.Fatalf("pmie evaluated %d rounds with pmdalinux, %d with the stand-in", before.rounds, after.rounds)
	}
	for rule, was := range before.final {
		now, ok := after.final[rule]
		switch {
		case !ok:
			t.Errorf("pmie rule %s: %s with pmdalinux, not evaluated with the stand-in", rule, was)
		case now == "unknown" && was != "unknown":
			t.Errorf("pmie rule %s: %s with pmdalinux, unknown with the stand-in", rule, was)
		}
	}
	for _, line := range newLines(before.complaints, after.complaints) {
		t.Errorf("pmie with the stand-in: %s", line)
	}
	t.Logf("pmie: %d rules, %d rounds with pmdalinux (%d unknown at the end), %d with the stand-in (%d unknown)",
		len(after.final), before.rounds, countState(before.final, "unknown"), after.rounds, countState(after.final, "unknown"))
}

func countState(states map[string]string, state string) int {
	n := 0
	for _, s := range states {
		if s == state {
			n++
		}
	}
	return n
}
