package mmv

func (p *parser) metrics() error {
	s := &p.secs[secMetrics]
	p.metricAt = make(map[int64]int, s.count)
	names := make(map[string]int64, s.count)
	items := make(map[uint32]int64, s.count)
	serials := make(map[uint32]bool, len(p.f.Indoms))
	for _, d := range p.f.Indoms {
		serials[d.Serial] = true
	}
	for k := int64(0); k < s.count; k++ {
		rec := s.off + k*s.size
		m, err := p.metric(rec, serials)
		if err != nil {
			return err
		}
		if first, dup := names[m.Name]; dup {
			return formatErr(rec, "metric name %q repeats the metric at %d", m.Name, first)
		}
		if first, dup := items[m.Item]; dup {
			return formatErr(rec, "metric item %d repeats the metric at %d", m.Item, first)
		}
		names[m.Name], items[m.Item] = rec, rec
		p.metricAt[rec] = len(p.f.Metrics)
		p.f.Metrics = append(p.f.Metrics, m)
	}
	return nil
}

// metric reads the metric record at rec. After the name (a 64-byte field
// in version 1, an 8-byte string offset later) come item, type, semantics,
// units, indom, padding and the two help offsets.
func (p *parser) metric(rec int64, serials map[uint32]bool) (Metric, error) {
	var m Metric
	var err error
	if m.Name, err = p.name(rec, "metric name"); err != nil {
		return m, err
	}
	if !validMetricName(m.Name) {
		return m, formatErr(rec,
			"metric name %q: want a letter, then letters, digits, _ and . between non-empty parts", m.Name)
	}
	at := rec + 8
	if p.version == 1 {
		at = rec + nameMax
	}
	item, _ := u32(p.data, at)
	typ, _ := u32(p.data, at+4)
	sem, _ := u32(p.data, at+8)
	units, _ := u32(p.data, at+12)
	indom, _ := u32(p.data, at+16)
	if item > maxItem {
		return m, formatErr(at, "metric %q item %d above %d", m.Name, item, maxItem)
	}
	m.Item, m.Type, m.Units = item, Type(typ), Units(units)
	if !m.Type.valid() {
		return m, formatErr(at+4, "metric %q type %d", m.Name, int32(typ))
	}
	if m.Semantics, err = semantics(sem, at+8, m.Name); err != nil {
		return m, err
	}
	if m.Indom, err = metricIndom(indom, at+16, m.Name, serials); err != nil {
		return m, err
	}
	if m.ShortHelp, err = p.help(at+24, "metric short help"); err != nil {
		return m, err
	}
	m.LongHelp, err = p.help(at+32, "metric long help")
	return m, err
}

// semantics accepts PCP's three; 0 reads as a counter, as pmdammv reads it
// (PCP's Python binding leaves it 0).
func semantics(sem uint32, at int64, name string) (Semantics, error) {
	switch s := Semantics(sem); s {
	case 0:
		return SemCounter, nil
	case SemCounter, SemInstant, SemDiscrete:
		return s, nil
	}
	return 0, formatErr(at, "metric %q semantics %d", name, sem)
}

// metricIndom is NoIndom for 0 and PM_INDOM_NULL (libpcp_mmv and pmdammv
// both read 0 as none), else a serial of the file's domains.
func metricIndom(indom uint32, at int64, name string, serials map[uint32]bool) (uint32, error) {
	if indom == 0 || indom == NoIndom {
		return NoIndom, nil
	}
	if !serials[indom] {
		return 0, formatErr(at, "metric %q names indom %d, which the file does not define", name, indom)
	}
	return indom, nil
}

// validMetricName applies pmdammv's rule (a letter, then letters, digits,
// '_' and '.') and also refuses empty parts, which no namespace can hold.
func validMetricName(name string) bool {
	if name == "" || !isLetter(name[0]) || name[len(name)-1] == '.' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		switch {
		case isLetter(c), c >= '0' && c <= '9', c == '_':
		case c == '.' && name[i-1] != '.':
		default:
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
