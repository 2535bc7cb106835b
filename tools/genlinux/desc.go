package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// metric is one pmdalinux metric as the table holds it.
type metric struct {
	name          string
	cluster, item uint32
	indom         cache.InDomID // serial in domain 60, or cache.InDomNone
	typ           cache.Type
	sem           cache.Sem
	units         cache.Units
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
	if pmid[0] != linuxDomain {
		return metric{}, fmt.Errorf("%s: PMID domain %d, not pmdalinux's %d", name, pmid[0], linuxDomain)
	}
	m := metric{name: name, cluster: pmid[1], item: pmid[2]}
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
	var err error
	m.indom, err = parseInDom(indom)
	return err
}

// parseInDom reads "PM_INDOM_NULL 0xffffffff" or "60.1 0xf000001".
func parseInDom(s string) (cache.InDomID, error) {
	id, _, _ := strings.Cut(s, " ")
	if id == "PM_INDOM_NULL" {
		return cache.InDomNone, nil
	}
	dom, serial, ok := strings.Cut(id, ".")
	if !ok || dom != strconv.Itoa(linuxDomain) {
		return 0, fmt.Errorf("instance domain %q is not pmdalinux's", s)
	}
	v, err := strconv.ParseUint(serial, 10, 22)
	if err != nil {
		return 0, fmt.Errorf("instance domain %q: %w", s, err)
	}
	return cache.InDomID(v), nil
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
