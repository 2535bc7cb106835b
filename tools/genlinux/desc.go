package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// metric is one metric as the table holds it.
type metric struct {
	name          string
	cluster, item uint32
	indom         cache.InDomID // serial in the agent's domain, or cache.InDomNone
	typ           cache.Type
	sem           cache.Sem
	units         cache.Units
	// domains are the PMID's and the instance domain's (the PMID's when
	// none), which must be the agent's.
	domains [2]uint32
}

// The words pminfo prints (pmTypeStr, pmSemStr) for the types and
// semantics a cache.Desc can hold.
var (
	typeWords = map[string]cache.Type{
		"32-bit int": cache.TypeI32, "32-bit unsigned int": cache.TypeU32,
		"64-bit int": cache.TypeI64, "64-bit unsigned int": cache.TypeU64,
		"float": cache.TypeFloat, "double": cache.TypeDouble, "string": cache.TypeString,
	}
	semWords = map[string]cache.Sem{
		"counter": cache.SemCounter, "instant": cache.SemInstant, "discrete": cache.SemDiscrete,
	}
)

// parseDescs reads pminfo -md output: per metric a "NAME PMID: D.C.I"
// line, a "Data Type: T  InDom: I 0x..." line and a "Semantics: S  Units:
// U" line, records separated by blank lines.
func parseDescs(out string) ([]metric, error) {
	var ms []metric
	for _, rec := range strings.Split(strings.TrimSpace(out), "\n\n") {
		m, err := parseRecord(strings.Split(strings.TrimSpace(rec), "\n"))
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// parseRecord reads the three lines of one metric.
func parseRecord(lines []string) (metric, error) {
	if len(lines) != 3 {
		return metric{}, fmt.Errorf("pminfo -md record of %d lines, want 3: %q", len(lines), lines)
	}
	name, pmid, err := parseHeader(lines[0])
	if err != nil {
		return metric{}, err
	}
	m := metric{name: name, cluster: pmid[1], item: pmid[2], domains: [2]uint32{pmid[0], pmid[0]}}
	if err := m.parseTypeLine(strings.TrimSpace(lines[1])); err != nil {
		return metric{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := m.parseSemLine(strings.TrimSpace(lines[2])); err != nil {
		return metric{}, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// parseTypeLine reads "Data Type: 64-bit unsigned int  InDom: 60.1 0xf000001".
func (m *metric) parseTypeLine(line string) error {
	rest, ok := strings.CutPrefix(line, "Data Type: ")
	typ, indom, ok2 := strings.Cut(rest, "  InDom: ")
	if !ok || !ok2 {
		return fmt.Errorf("not a Data Type line: %q", line)
	}
	if m.typ, ok = typeWords[typ]; !ok {
		return fmt.Errorf("type %q is none a cache.Desc holds", typ)
	}
	indomDomain, id, err := parseInDom(indom)
	if err != nil {
		return err
	}
	if id != cache.InDomNone {
		m.domains[1] = indomDomain
	}
	m.indom = id
	return nil
}

// parseInDom reads "PM_INDOM_NULL 0xffffffff" or "60.1 0xf000001": the
// domain and the serial.
func parseInDom(s string) (uint32, cache.InDomID, error) {
	id, _, _ := strings.Cut(s, " ")
	if id == "PM_INDOM_NULL" {
		return 0, cache.InDomNone, nil
	}
	dom, serial, ok := strings.Cut(id, ".")
	d, err1 := strconv.ParseUint(dom, 10, 9)
	v, err2 := strconv.ParseUint(serial, 10, 22)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("instance domain %q is not domain.serial", s)
	}
	return uint32(d), cache.InDomID(v), nil
}

// checkDomains fails on a metric whose PMID or instance domain is not in
// the agent's domain.
func checkDomains(a agent, ms []metric) error {
	for _, m := range ms {
		if m.domains != [2]uint32{a.domain, a.domain} {
			return fmt.Errorf("%s: PMID and instance domains %v, not %s's %d",
				m.name, m.domains, a.name, a.domain)
		}
	}
	return nil
}

// parseSemLine reads "Semantics: counter  Units: Kbyte".
func (m *metric) parseSemLine(line string) error {
	rest, ok := strings.CutPrefix(line, "Semantics: ")
	sem, units, ok2 := strings.Cut(rest, "  Units: ")
	if !ok || !ok2 {
		return fmt.Errorf("not a Semantics line: %q", line)
	}
	if m.sem, ok = semWords[sem]; !ok {
		return fmt.Errorf("semantics %q is none a cache.Desc holds", sem)
	}
	var err error
	m.units, err = parseUnits(units)
	return err
}
