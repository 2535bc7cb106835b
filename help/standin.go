package help

import (
	"errors"
	"path/filepath"
	"strings"
)

// StandIn is the help of the stand-in for another agent (pmdalinux,
// pmdaproc). The agent's numbering answers with the agent's own help,
// compiled in its PMDA directory, then with the texts Install captured
// from the running agent (ReadCaptured, Layer), so that archives logged
// before and after the switch carry the same text and pmlogextract
// merges them without a warning. The placeholders have a help text of
// their own where the agent's is absent.
type StandIn struct {
	TextSource
	agent        string    // pmcd.conf's name of the agent: "linux"
	own          *Compiled // the agent's help and its capture; nil when neither is read
	placeholders map[string]bool
}

// NewStandIn answers with own (nil for none) by PMID and InDom, with
// the placeholder text for the names in placeholders, and with ours for
// the rest.
func NewStandIn(agent string, ours TextSource, own *Compiled, placeholders []string) StandIn {
	t := StandIn{ours, agent, own, map[string]bool{}}
	for _, name := range placeholders {
		t.placeholders[name] = true
	}
	return t
}

// WireText answers the agent's PMIDs and instance domains, all the
// stand-in's domain has, from the agent's help.
func (t StandIn) WireText(ident uint32, indom, long bool) (string, bool) {
	if t.own == nil {
		return "", false
	}
	if indom {
		return t.own.InDom(ident, long)
	}
	return t.own.Metric(ident, long)
}

// MetricText is a placeholder's own text, or ours.
func (t StandIn) MetricText(name string, long bool) (string, bool) {
	if !t.placeholders[name] {
		return t.TextSource.MetricText(name, long)
	}
	return placeholderText(t.agent, strings.TrimPrefix(name, namePrefix), long), true
}

// namePrefix is the root of every hostcache name.
const namePrefix = "hostcache."

// placeholderText is the help of an agent's metric hostcache does not
// sample.
func placeholderText(agent, name string, long bool) string {
	if !long {
		return "pmda" + agent + "'s " + name + ", not sampled by hostcache"
	}
	return "hostcache, standing in for pmda" + agent + ", describes " + name + " as pmda" + agent + " does, " +
		"and has no values for it: no collector of hostcache samples its source yet."
}

// ErrNoPMDAsDir says where an agent's help is cannot be known.
var ErrNoPMDAsDir = errors.New("PCP_PMDAS_DIR is not set")

// ReadAgent reads the compiled help of the agent pmcd.conf names agent
// ("linux", "proc") in pmdasDir, PCP's $PCP_PMDAS_DIR, and returns it
// with the base name of its files.
func ReadAgent(pmdasDir, agent string) (*Compiled, string, error) {
	if pmdasDir == "" {
		return nil, "", ErrNoPMDAsDir
	}
	base := filepath.Join(pmdasDir, agent, "help")
	c, err := ReadCompiled(base)
	return c, base, err
}
