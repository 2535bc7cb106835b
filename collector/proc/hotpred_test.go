package proc

import (
	"strings"
	"testing"
)

// Predicates parse as pmdaproc's grammar does and are given back as
// pmdaproc writes them into hotproc.control.config.
func TestPredicateParsesAndDumpsAsPmdaproc(t *testing.T) {
	for text, want := range map[string]string{
		`uname != "root" || cpuburn > 0.05`:              `((uname != "root") || (cpuburn > 0.050000))`,
		"Version 1.0\n# a comment\ncpuburn > 0.2\n":      `(cpuburn > 0.200000)`,
		`cpuburn > 0.2 && (uname == "root" || uid == 0)`: `((cpuburn > 0.200000) && ((uname == "root") || (uid == 0)))`,
		`! fname ~ /pmda/ && true`:                       `((! (fname ~ "pmda")) && (true))`,
		`psargs !~ /[fF](o)+bar/ || false`:               `((psargs !~ "[fF](o)+bar") || (false))`,
		`a == b`:                                         "", // words that are not variables: an error below
	} {
		p, err := parsePredicate(text)
		if want == "" {
			if err == nil {
				t.Errorf("%q parsed", text)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := dumpPredicate(p); got != want {
			t.Errorf("%q gives %q, want %q", text, got, want)
		}
	}
}

// A text without a predicate turns hotproc off; a wrong one says where.
func TestPredicateErrorsNameTheLine(t *testing.T) {
	for _, text := range []string{"", "  \n# only a comment\n"} {
		if p, err := parsePredicate(text); p != nil || err != nil {
			t.Errorf("%q: %v, %v; want nothing", text, p, err)
		}
	}
	for text, want := range map[string]string{
		"cpuburn >\n":                  "line 2: the predicate ends",
		"Version 2.0 cpuburn > 1":      "only version 1.0",
		"\nuid == \"root\"":            `line 2: "\"root\"" where the predicate wants a number`,
		"syscalls > 10":                "Linux counts no system calls",
		"fname ~ /unclosed\n":          "has no closing /",
		"fname ~ /(/":                  "pattern /(/",
		"cpuburn > 1 uid":              "the end of the predicate",
		"cpuburn @ 1":                  `"@" is no character`,
		"(cpuburn > 1":                 "a closing parenthesis",
		strings.Repeat(" ", 70000):     "more than",
		`uname == "root" && fname == `: "ends where it wants a string",
	} {
		_, err := parsePredicate(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one with %q", text, err, want)
		}
	}
}

// The predicate evaluates with C's precedence: ! before && before ||.
func TestPredicateEvaluates(t *testing.T) {
	v := &hotVars{}
	v.num[varCPUBurn], v.num[varUID] = 0.5, 1000
	v.str[varUname], v.str[varFname], v.str[varPsargs] = "alice", "python3", "python3 -m http.server"
	for text, want := range map[string]bool{
		`cpuburn > 0.4 && uid == 1000`:         true,
		`cpuburn > 0.6 || uname == "alice"`:    true,
		`! cpuburn > 0.4 || false`:             false,
		`psargs ~ /http\.server$/`:             true,
		`fname !~ /^py/`:                       false,
		`true || false && false`:               true,
		`(true || false) && false`:             false,
		`uname != "root" && residentsize == 0`: true,
	} {
		p, err := parsePredicate(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := p.eval(v); got != want {
			t.Errorf("%q = %v, want %v", text, got, want)
		}
	}
}
