//go:build linux

package integration

import (
	"regexp"
	"testing"
)

// The parsers of the tools' output accept every figure the tools can
// print, per their sources in PCP 6.0.3, and no mark of a missing value.
// They need no PCP: the lines are what the tools print.
func TestStatRowsAcceptWhatTheToolsPrint(t *testing.T) {
	for _, c := range []struct {
		tool, line string
		row        bool
	}{
		{"pmstat", "   0.35      0 1440856  12345 654321    0    0    4   96  312  781   3   2  95", true},
		// More than 10,000 context switches a second prints 13K; a million
		// Kbyte free prints 1234m, a thousand times that 5g.
		{"pmstat", "  12.07   2048  1234m 102400     5g    0    0  12K  1M 9999  13K  50  45   5", true},
		{"pmstat", "   1.00     0 999999      0      0 10000    0    0    0    0    0   0   0 100", true},
		{"pmstat", "   0.35      ? 1440856  12345 654321    0    0    4   96  312  781   3   2  95", false},
		{"pmstat", "   0.35      0 1440856  12345 654321    0    0    4   96  312  781   ?   ?   ?", false},
		{"pcp-dstat", "  3   2  95   0   0|   0   512k|  66B  802B|   0     0 |1235  13k ", true},
		{"pcp-dstat", "  3   2  95   0   0|1.5M   2T |  66B 1.2G|   0     0 |  12k 1.3M", true},
		{"pcp-dstat", "  3   2  95   0   0|   -      |  66B  802B|   0     0 |1235  13k ", false},
		{"pcp-iostat", "vda            0.00    3.00    0.00    5.00     0.00    36.00     7.200     0.00     0.40     0.00     0.40     0.20", true},
		{"pcp-iostat", "dm-0          -1.00    0.00    0.00    0.00     0.00     0.00     0.000     0.00     0.00     0.00     0.00     0.00", true},
		{"pcp-iostat", "vda                 ?       ?       ?       ?        ?        ?         ?        ?        ?        ?        ?        ?", false},
		{"pcp-mpstat", "14:10:31  \tall\t4.0  \t0.0   \t2.5  \t0.0     \t0.0  \t0.0   \t0.0    \t0.0    \t0.0   \t93.54 ", true},
		{"pcp-mpstat", "14:10:31  \tall\t-0.0 \t0.0   \t2.5  \t0.0     \t0.0  \t0.0   \t0.0    \t0.0    \t0.0   \t100.0 ", true},
		{"pcp-mpstat", "14:10:31  \tall\t?    \t0.0   \t2.5  \t0.0     \t0.0  \t0.0   \t0.0    \t0.0    \t0.0   \t93.54 ", false},
		{"pcp-free", "Mem:        4009028      -12345     1440856        1024     2212345     3456789", true},
		{"pcp-free", "Mem:        4009028      412345     1440856        1024     2212345     3456789", true},
		{"pcp-uptime", " 14:10:31 up 2 days,  3:04,  1 user,  load average: 0.35, 0.41, 0.40", true},
	} {
		if got := regexp.MustCompile(statRows[c.tool]).MatchString(c.line); got != c.row {
			t.Errorf("%s row %q: matched %v, want %v", c.tool, c.line, got, c.row)
		}
	}
}

// pmrep's cells: numbers, a value too wide for its column, infinities and
// NaN are values; N/A is none.
func TestViewFiguresAcceptWhatPmrepPrints(t *testing.T) {
	s := finalSample("12:00:00  1.50  -3  xxx  inf  -inf  NaN  N/A  42\n")
	if s.figures != 7 || s.missing != 1 {
		t.Errorf("figures %d, missing %d; want 7 and 1", s.figures, s.missing)
	}
}

// pmie -V's rule lines: a state, "?" for no value, and a value annotated
// per host and instance on the lines after the rule's name.
func TestPmieLogAcceptsWhatPmiePrints(t *testing.T) {
	r := parsePmieLog("Log for pmie on host\n" +
		"cpu.util: false\n" +
		"disk.util: ?\n" +
		"per_disk: \n    localhost: [vda] false\n    localhost: [vdb] true\n" +
		"per_net: \n    localhost: [eth0] unknown\n" +
		"\n" +
		"cpu.util: true\n" +
		"disk.util: unknown\n" +
		"per_disk: \n    localhost: [vda] false\n    localhost: [vdb] false\n" +
		"per_net: \n    localhost: [eth0] unknown\n    localhost: [lo] false\n")
	want := map[string]string{"cpu.util": "true", "disk.util": "unknown", "per_disk": "false", "per_net": "false"}
	if r.rounds != 2 || r.complaints != "" {
		t.Errorf("%d rounds, complaints %q; want 2 and none", r.rounds, r.complaints)
	}
	for rule, state := range want {
		if r.final[rule] != state {
			t.Errorf("%s: %q, want %q (all %v)", rule, r.final[rule], state, r.final)
		}
	}
}
