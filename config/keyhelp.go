package config

import (
	"strings"
	"unicode"
)

// helpWidth is the widest line --help writes.
const helpWidth = 78

// Help is what --help prints: the options, then the configuration
// file's keys from Keys.
func Help() string {
	var b strings.Builder
	b.WriteString(Usage + "\nConfiguration file (-c): \"key = value\" lines, \"#\" comments; shown with\n" +
		"its default or an example. On SIGHUP the agent reads it again: those marked\n" +
		"* take effect at once, the others at the next restart.\n")
	for _, k := range Keys() {
		mark := " "
		if k.OnReload == Applied {
			mark = "*"
		}
		head := k.Line()
		if k.Pattern() {
			head = k.Name + ", e.g. " + k.Line()
		}
		b.WriteString(mark + " " + head + "\n")
		for _, line := range fill(k.Describe(), helpWidth-6) {
			b.WriteString("      " + line + "\n")
		}
	}
	return b.String()
}

// fill breaks text into lines of at most width columns at spaces.
func fill(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// Describe is what the key sets and the values it takes, in sentences.
func (k Key) Describe() string {
	return capitalize(k.Help) + ". " + capitalize(k.Want()) + "."
}

func capitalize(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}
