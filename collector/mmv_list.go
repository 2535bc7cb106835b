package collector

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// list reads the directory's names, at most the files limit and the spare
// entries, without a stat of each (the entry's type comes with it):
// regular files not hidden (writers and editors use dot names for files
// in the making), in name order, as pmdammv takes them. Other entries are
// refused once each.
func (m *mmvFiles) list(problems []error) ([]string, []error) {
	entries, err := readDirBounded(m.dir, m.lim.files+mmvSpareEntries)
	text := ""
	if err != nil {
		text = fmt.Sprintf("mmv directory %s: %v", m.dir, err)
	} else if len(entries) == m.lim.files+mmvSpareEntries {
		text = fmt.Sprintf("mmv directory %s: %d entries looked at, the limit; any others are not", m.dir, len(entries))
	}
	if text != "" && text != m.listFail {
		problems = append(problems, fmt.Errorf("%s", text))
	}
	m.listFail = text
	var names []string
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		seen[name] = true
		why := mmvRefusal(name, e.Type())
		if why == "" {
			names = append(names, name)
			delete(m.refused, name)
			continue
		}
		if m.refused[name] != why {
			problems = append(problems, fmt.Errorf("mmv file %s: %s, ignored", name, why))
		}
		m.refused[name] = why
	}
	for name := range m.refused {
		if !seen[name] {
			delete(m.refused, name)
		}
	}
	sort.Strings(names)
	return names, problems
}

// readDirBounded reads at most n entries of dir.
func readDirBounded(dir string, n int) ([]os.DirEntry, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(n)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return entries, nil
}

// mmvRefusal says why an entry is not opened, or "" when it may be.
func mmvRefusal(name string, mode os.FileMode) string {
	if !mode.IsRegular() {
		return "not a regular file"
	}
	if !validPMNSComponent(name) {
		return "its name is no PMNS name (a letter, then letters, digits and _)"
	}
	return ""
}

// validPMNSComponent is one level of a PMNS name: a letter, then letters,
// digits and '_'. A file name with a dot would make levels of its own.
func validPMNSComponent(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
