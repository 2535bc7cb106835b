package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/config"
)

// reloadProse is where a document's prose lists the keys a SIGHUP reload
// applies at once and those that wait for a restart: each list runs from
// its first phrase to its second, and token finds the keys in it.
type reloadProse struct {
	path            string
	atOnce, restart [2]string
	token           *regexp.Regexp
	fontChange      *regexp.Regexp
}

// The README's and the manual page's reload paragraphs name each key in
// the list its reload rule puts it in, and nothing else that looks like a
// key.
func TestReloadProseFollowsTheKeys(t *testing.T) {
	for _, doc := range []reloadProse{{
		path:    "README.md",
		atOnce:  [2]string{"To change the configuration without a restart", "take effect at once"},
		restart: [2]string{"only a restart can apply", "waits for the next restart"},
		token:   regexp.MustCompile("`([^`\\s]+)`"),
	}, {
		path:       filepath.Join("man", "pmdahostcache.1"),
		atOnce:     [2]string{".B SIGHUP", "take effect at once"},
		restart:    [2]string{"A changed", "applied at the next restart"},
		token:      regexp.MustCompile(`\\f3(\S+?)\\f1`),
		fontChange: regexp.MustCompile(`\\f[0-9RBI]`),
	}} {
		data, err := os.ReadFile(filepath.Join(root, doc.path))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(data)), " ")
		for rule, span := range map[config.Reload][2]string{config.Applied: doc.atOnce, config.WaitsForRestart: doc.restart} {
			names, err := doc.names(text, span)
			if err != nil {
				t.Errorf("%s: %v", doc.path, err)
				continue
			}
			for _, problem := range checkList(names, rule) {
				t.Errorf("%s, the list from %q: %s", doc.path, span[0], problem)
			}
		}
	}
}

// names are the key-like words between the span's two phrases.
func (doc reloadProse) names(text string, span [2]string) ([]string, error) {
	from := strings.Index(text, span[0])
	to := strings.Index(text[max(from, 0):], span[1])
	if from < 0 || to < 0 {
		return nil, fmt.Errorf("no text from %q to %q: reword the test with the prose", span[0], span[1])
	}
	var names []string
	for _, m := range doc.token.FindAllStringSubmatch(text[from:from+to], -1) {
		name := m[1]
		if doc.fontChange != nil {
			name = doc.fontChange.ReplaceAllString(name, "")
		}
		if keyLike().MatchString(name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// keyLike matches a word that may name a key; a command, with its spaces
// and dashes, does not.
func keyLike() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z_]+(\.[A-Za-z_.]+)?(\.\*)?$`)
}

// checkList says what is wrong with a list of the keys of one reload rule.
func checkList(names []string, rule config.Reload) []string {
	var problems []string
	covered := map[string]bool{}
	for _, name := range names {
		keys := keysNamed(name)
		if len(keys) == 0 {
			problems = append(problems, name+" is no key")
		}
		for _, k := range keys {
			if k.OnReload != rule {
				problems = append(problems, name+" is in the wrong list")
			}
			covered[k.Name] = true
		}
	}
	for _, k := range config.Keys() {
		if k.OnReload == rule && !covered[k.Name] {
			problems = append(problems, k.Name+" is missing")
		}
	}
	return problems
}

// keysNamed are the keys a word of prose names: one key written out, or
// with NAME, or every key under a prefix ending in ".*".
func keysNamed(name string) []config.Key {
	var keys []config.Key
	prefix, wild := strings.CutSuffix(name, "*")
	for _, k := range config.Keys() {
		if k.Matches(name) || wild && strings.HasPrefix(k.Name, prefix) {
			keys = append(keys, k)
		}
	}
	return keys
}
