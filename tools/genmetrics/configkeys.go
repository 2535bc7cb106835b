package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/config"
)

// The configuration file's keys (config.Keys) write the example file
// whole, and the example blocks of the README and the manual page between
// these markers.
const (
	readmeBegin = "<!-- make generate writes the example below from config/keys.go -->"
	readmeEnd   = "<!-- end of the generated example -->"
	manBegin    = `.\" make generate writes the example below from config/keys.go`
	manEnd      = `.\" end of the generated example`
)

// configFiles returns hostcache.conf, README.md and the manual page with
// the keys written in.
func configFiles(root string) ([]genFile, error) {
	readme, err := withBlock(root, "README.md", readmeBegin, readmeEnd, "\n"+indent(exampleBlock(), "    ")+"\n")
	if err != nil {
		return nil, err
	}
	man, err := withBlock(root, filepath.Join("man", "pmdahostcache.1"), manBegin, manEnd,
		roffLines(exampleBlock()))
	if err != nil {
		return nil, err
	}
	return []genFile{{"hostcache.conf", exampleConf()}, readme, man}, nil
}

// withBlock is the file at path with the lines between its begin and end
// markers replaced by block.
func withBlock(root, path, begin, end, block string) (genFile, error) {
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return genFile{}, err
	}
	text := string(data)
	b := strings.Index(text, begin+"\n")
	e := strings.Index(text, "\n"+end+"\n")
	if b < 0 || e < b {
		return genFile{}, fmt.Errorf("%s: no lines %q ... %q to write the configuration keys between",
			path, begin, end)
	}
	return genFile{path, text[:b+len(begin)+1] + block + text[e+1:]}, nil
}

// exampleCol is where the examples' comments start; exampleWidth is
// their widest line, so the README's indented block fits 80 columns.
const (
	exampleCol   = 32
	exampleWidth = 76
)

// exampleBlock is every key's line with its help as a comment: first the
// keys a reload applies at once, then those that wait for a restart.
func exampleBlock() string {
	var b strings.Builder
	for _, group := range []struct {
		reload config.Reload
		title  string
	}{
		{config.Applied, "# On SIGHUP these take effect at once:"},
		{config.WaitsForRestart, "# These wait for a restart:"},
	} {
		b.WriteString(group.title + "\n")
		for _, k := range config.Keys() {
			if k.OnReload == group.reload {
				writeExample(&b, k.Line(), k.Help)
			}
		}
	}
	return b.String()
}

// writeExample writes line with help beside it from exampleCol, filled.
func writeExample(b *strings.Builder, line, help string) {
	pad := strings.Repeat(" ", exampleCol)
	comments := reflow(help, exampleWidth-exampleCol-2)
	if len(line) >= exampleCol {
		b.WriteString(line + "\n")
	} else {
		b.WriteString(line + pad[len(line):] + "# " + comments[0] + "\n")
		comments = comments[1:]
	}
	for _, c := range comments {
		b.WriteString(pad + "# " + c + "\n")
	}
}

// indent prefixes every line of text.
func indent(text, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+prefix) + "\n"
}

// roffLines escapes text for a no-fill block of the manual page.
func roffLines(text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		line = strings.ReplaceAll(line, `\`, `\e`)
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			line = `\&` + line
		}
		b.WriteString(line)
	}
	return b.String()
}

// confWidth is the widest comment line of hostcache.conf.
const confWidth = 76

// exampleConf is hostcache.conf: every key, commented out, with its
// default or an example, and what it sets above it.
func exampleConf() string {
	var b strings.Builder
	b.WriteString(confHeader)
	named := map[string]bool{}
	for _, k := range config.Keys() {
		text := k.Describe() + " " + placeholderNames(k.Name, named) + k.Note
		if k.OnReload == config.Applied {
			text += " SIGHUP applies it at once."
		} else {
			text += " A change waits for a restart."
		}
		b.WriteString("\n")
		for _, line := range reflow(text, confWidth-2) {
			b.WriteString("# " + line + "\n")
		}
		b.WriteString("#" + k.Line() + "\n")
	}
	return b.String()
}

const confHeader = `# hostcache.conf: the configuration of pmdahostcache(1), read at start-up
# from $PCP_PMDAS_DIR/hostcache/hostcache.conf (or the file given with -c).
# "key = value" lines; "#" starts a comment. Every line below is commented
# out and shows the default, or an example for a key that names a collector
# or an instance domain. A line the agent does not understand, a value out of
# range, or an unknown name stops it at start-up, naming the line. On SIGHUP
# it reads the file again: a file with an error changes nothing.
# make generate writes this file from config/keys.go: edit there.
`

// placeholderNames says what a key's NAME or INDOM may be, the first time
// a key has it.
func placeholderNames(name string, said map[string]bool) string {
	switch {
	case strings.Contains(name, "NAME") && !said["NAME"]:
		said["NAME"] = true
		var names []string
		for _, reg := range collector.Registry() {
			names = append(names, reg.Name)
		}
		return "NAME is a collector: " + strings.Join(names, ", ") + ". "
	case strings.Contains(name, "INDOM") && !said["INDOM"]:
		said["INDOM"] = true
		return "INDOM is an instance domain: " + strings.Join(collector.FilterKeys(), ", ") + ". "
	}
	return ""
}
