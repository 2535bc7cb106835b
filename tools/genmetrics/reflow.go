package main

import "strings"

// helpWidth is the widest line of generated help text: pminfo -T prints it
// as written, and newhelp splits a line past 119 characters.
const helpWidth = 76

// helpEntry is one metric's help as the generator composes it: the key
// line and the long text as whole paragraphs, which write reflows.
type helpEntry struct {
	key, oneLine string
	paragraphs   []string
}

// write appends the entry in help source form: "@ key one-line", then each
// paragraph filled to helpWidth, paragraphs separated by a blank line.
func (e helpEntry) write(b *strings.Builder) {
	b.WriteString("\n@ " + e.key + " " + e.oneLine + "\n")
	for i, p := range e.paragraphs {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, line := range reflow(p, helpWidth) {
			b.WriteString(line + "\n")
		}
	}
}

// reflow fills a paragraph's words into lines of at most width columns
// (a word longer than width gets a line to itself). A last line that would
// hold one word alone takes the word before it along, so no word is left
// hanging.
func reflow(paragraph string, width int) []string {
	var lines [][]string
	col := 0
	for _, w := range strings.Fields(paragraph) {
		if len(lines) == 0 || col+1+len(w) > width {
			lines = append(lines, []string{w})
			col = len(w)
			continue
		}
		last := len(lines) - 1
		lines[last] = append(lines[last], w)
		col += 1 + len(w)
	}
	avoidOrphan(lines, width)
	out := make([]string, len(lines))
	for i, words := range lines {
		out[i] = strings.Join(words, " ")
	}
	return out
}

// avoidOrphan moves the last word of the next-to-last line down when the
// last line holds a single word, if the two fit on one line and the line
// above keeps a word.
func avoidOrphan(lines [][]string, width int) {
	n := len(lines)
	if n < 2 || len(lines[n-1]) != 1 || len(lines[n-2]) < 2 {
		return
	}
	prev := lines[n-2]
	moved := prev[len(prev)-1]
	if len(moved)+1+len(lines[n-1][0]) > width {
		return
	}
	lines[n-2] = prev[:len(prev)-1]
	lines[n-1] = []string{moved, lines[n-1][0]}
}
