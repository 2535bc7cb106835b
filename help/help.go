// Package help owns the help text of every metric and instance domain. The
// text lives in PCP's help source format (hostcache.help) so the same file
// serves TEXT requests here and is what Install feeds to newhelp. The
// help of the metrics the MMV files name is assembled here too (MMV), as
// is the stand-in's, which answers with pmdalinux's compiled help
// (StandIn, Compiled); Chain joins them into the one TextSource an agent
// domain answers with.
package help

import (
	"bufio"
	"embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// sources holds the help files: hand-written ones per area, and rates.help,
// generated from them for every hostcache.rate.* metric. Instance domain
// keys are written "HOSTCACHE.serial"; Install rewrites the symbolic domain
// for newhelp.
//
//go:embed *.help
var sources embed.FS

// RateFile is the generated part of the help.
const RateFile = "rates.help"

// BaseSource returns the hand-written help, every file but RateFile.
func BaseSource() string { return concat(false) }

// Source returns the whole help source, as Install ships it.
func Source() string { return concat(true) }

func concat(withRates bool) string {
	entries, _ := sources.ReadDir(".") // sorted by name
	var b strings.Builder
	for _, e := range entries {
		if e.Name() == RateFile && !withRates {
			continue
		}
		data, _ := sources.ReadFile(e.Name())
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// SymbolicDomain is the symbol used for our domain in help and pmns sources.
const SymbolicDomain = "HOSTCACHE"

type entry struct {
	oneLine string
	long    string
}

// Texts answers help lookups for metrics by name and indoms by serial.
type Texts struct {
	metrics map[string]entry
	indoms  map[cache.InDomID]entry
}

// Parse reads a help source: "@ key one-line" starts an entry and the lines
// up to the next "@" are its long text; "#" in column one is a comment.
func Parse(src string) (*Texts, error) {
	t := &Texts{metrics: map[string]entry{}, indoms: map[cache.InDomID]entry{}}
	var key string
	var cur entry
	var long []string
	flush := func() error {
		if key == "" {
			return nil
		}
		cur.long = strings.TrimRight(strings.Join(long, "\n"), "\n ")
		return t.add(key, cur)
	}
	sc := bufio.NewScanner(strings.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@"):
			if err := flush(); err != nil {
				return nil, err
			}
			fields := strings.SplitN(strings.TrimSpace(line[1:]), " ", 2)
			if fields[0] == "" || len(fields) < 2 {
				return nil, fmt.Errorf("help line %d: want \"@ key one-line text\"", n)
			}
			key, cur, long = fields[0], entry{oneLine: strings.TrimSpace(fields[1])}, nil
		case key != "":
			long = append(long, line)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return t, sc.Err()
}

func (t *Texts) add(key string, e entry) error {
	if serial, ok := strings.CutPrefix(key, SymbolicDomain+"."); ok {
		n, err := strconv.ParseUint(serial, 10, 22)
		if err != nil {
			return fmt.Errorf("help key %s: bad indom serial", key)
		}
		t.indoms[cache.InDomID(n)] = e
		return nil
	}
	if _, dup := t.metrics[key]; dup {
		return fmt.Errorf("help key %s appears twice", key)
	}
	t.metrics[key] = e
	return nil
}

func pick(e entry, long bool) string {
	if long && e.long != "" {
		return e.long
	}
	return e.oneLine
}

// MetricText returns a metric's one-line or long help.
func (t *Texts) MetricText(name string, long bool) (string, bool) {
	e, ok := t.metrics[name]
	return pick(e, long), ok
}

// InDomText returns an instance domain's one-line or long help.
func (t *Texts) InDomText(id cache.InDomID, long bool) (string, bool) {
	e, ok := t.indoms[id]
	return pick(e, long), ok
}

// Metrics returns every metric name with help, for consistency checks.
func (t *Texts) Metrics() []string {
	out := make([]string, 0, len(t.metrics))
	for k := range t.metrics {
		out = append(out, k)
	}
	return out
}

// HasInDom reports whether an instance domain has help.
func (t *Texts) HasInDom(id cache.InDomID) bool {
	_, ok := t.indoms[id]
	return ok
}
