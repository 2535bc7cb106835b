package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/help"
)

// checkFilled reports how lines break a paragraph's words wrongly: a line
// past width holding more than one word, a word lost or added, a line
// that could have taken the next line's first word (the next-to-last line
// may give one word to the last), or a last line with one word alone.
func checkFilled(t *testing.T, paragraph string, lines []string, width int) {
	t.Helper()
	if got := strings.Fields(strings.Join(lines, " ")); !slices.Equal(got, strings.Fields(paragraph)) {
		t.Errorf("words changed:\n%q\nbecame\n%q", paragraph, lines)
	}
	for i, line := range lines {
		if len(line) > width && strings.Contains(line, " ") {
			t.Errorf("line %d is %d columns, over %d: %q", i, len(line), width, line)
		}
		if i+2 < len(lines) && len(line)+1+len(strings.Fields(lines[i+1])[0]) <= width {
			t.Errorf("line %d breaks early, before %q fits: %q", i, strings.Fields(lines[i+1])[0], line)
		}
	}
	if n := len(lines); n > 1 && len(strings.Fields(lines[n-1])) < 2 {
		t.Errorf("last line holds one word alone: %q", lines)
	}
}

func TestReflowFillsLines(t *testing.T) {
	paragraphs := []string{
		"Per-second rate of hostcache.network.interface.total.bytes over the client's interval. " +
			"The counter: bytes received and sent on each interface since boot, as /proc/net/dev counts them.",
		"one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen",
		"hostcache.a.metric.name.so.long.that.it.cannot.fit.on.one.line.of.the.width.at.all and more words",
		"short",
	}
	for _, width := range []int{20, 40, helpWidth} {
		for _, p := range paragraphs {
			checkFilled(t, p, reflow(p, width), width)
		}
	}
}

// A last word left alone takes the word before it along.
func TestReflowMovesAnOrphanDown(t *testing.T) {
	got := reflow("aaaa bbbb cccc dddd eeee", 20)
	want := []string{"aaaa bbbb cccc", "dddd eeee"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Every generated entry is whole sentences in filled paragraphs, and says
// which interval it covers exactly once.
func TestGeneratedHelpIsFilledSentences(t *testing.T) {
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	var rates string
	for _, f := range files {
		if f.path == filepath.Join("help", help.RateFile) {
			rates = f.text
		}
	}
	entries := strings.Split(rates, "\n@ ")[1:]
	if len(entries) < 1000 {
		t.Fatalf("%d generated entries, want the rates and peaks of every metric", len(entries))
	}
	for _, e := range entries {
		key, body, _ := strings.Cut(e, "\n")
		for _, para := range strings.Split(strings.TrimRight(body, "\n"), "\n\n") {
			lines := strings.Split(para, "\n")
			joined := strings.Join(lines, " ")
			if !strings.HasSuffix(joined, ".") {
				t.Errorf("%s: a paragraph ends inside a sentence: %q", key, lines)
			}
			checkFilled(t, joined, lines, helpWidth)
		}
		flat := strings.Join(strings.Fields(body), " ")
		if n := strings.Count(flat, intervalText); n != 1 {
			t.Errorf("%s says its interval %d times", key, n)
		}
	}
}
