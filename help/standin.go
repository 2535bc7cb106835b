package help

import (
	"errors"
	"path/filepath"
	"strings"
)

// StandIn is the help of the stand-in for pmdalinux. pmdalinux's
// numbering answers with pmdalinux's own help, compiled in its PMDA
// directory, so that archives logged before and after the switch carry
// the same text and pmlogextract merges them without a warning. The
// placeholders have a help text of their own where pmdalinux's is absent.
type StandIn struct {
	TextSource
	linux        *Compiled // nil when pmdalinux's help cannot be read
	placeholders map[string]bool
}

// NewStandIn answers with linux (nil for none) by PMID and InDom, with
// the placeholder text for the names in placeholders, and with ours for
// the rest.
func NewStandIn(ours TextSource, linux *Compiled, placeholders []string) StandIn {
	t := StandIn{ours, linux, map[string]bool{}}
	for _, name := range placeholders {
		t.placeholders[name] = true
	}
	return t
}

// WireText answers pmdalinux's PMIDs and instance domains, all the
// stand-in's domain has, from pmdalinux's help.
func (t StandIn) WireText(ident uint32, indom, long bool) (string, bool) {
	if t.linux == nil {
		return "", false
	}
	if indom {
		return t.linux.InDom(ident, long)
	}
	return t.linux.Metric(ident, long)
}

// MetricText is a placeholder's own text, or ours.
func (t StandIn) MetricText(name string, long bool) (string, bool) {
	if !t.placeholders[name] {
		return t.TextSource.MetricText(name, long)
	}
	return placeholderText(strings.TrimPrefix(name, namePrefix), long), true
}

// namePrefix is the root of every hostcache name.
const namePrefix = "hostcache."

// placeholderText is the help of a pmdalinux metric hostcache does not
// sample.
func placeholderText(name string, long bool) string {
	if !long {
		return "pmdalinux's " + name + ", not sampled by hostcache"
	}
	return "hostcache, standing in for pmdalinux, describes " + name + " as pmdalinux does, " +
		"and has no values for it: no collector of hostcache samples its source yet."
}

// ErrNoPMDAsDir says where pmdalinux's help is cannot be known.
var ErrNoPMDAsDir = errors.New("PCP_PMDAS_DIR is not set")

// ReadLinux reads pmdalinux's compiled help in pmdasDir, PCP's
// $PCP_PMDAS_DIR, and returns it with the base name of its files.
func ReadLinux(pmdasDir string) (*Compiled, string, error) {
	if pmdasDir == "" {
		return nil, "", ErrNoPMDAsDir
	}
	base := filepath.Join(pmdasDir, "linux", "help")
	c, err := ReadCompiled(base)
	return c, base, err
}
