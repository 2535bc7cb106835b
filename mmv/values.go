package mmv

// valueKey is one metric-instance pair, to refuse a second value for it.
type valueKey struct {
	metric int
	inst   int64
}

func (p *parser) values() error {
	s := &p.secs[secValues]
	seen := make(map[valueKey]int64, s.count)
	p.f.Values = make([]Value, 0, s.count)
	for k := int64(0); k < s.count; k++ {
		rec := s.off + k*valueSize
		v, instRec, err := p.value(rec)
		if err != nil {
			return err
		}
		key := valueKey{v.Metric, instRec}
		if first, dup := seen[key]; dup {
			return formatErr(rec, "second value of metric %q instance %d (first at %d)",
				p.f.Metrics[v.Metric].Name, v.Inst, first)
		}
		seen[key] = rec
		p.f.Values = append(p.f.Values, v)
	}
	return nil
}

// value reads the value record at rec: the 8-byte value, the extra word
// (a string's offset, an elapsed time's start), the metric's record and
// the instance's record (0 for a singular metric).
func (p *parser) value(rec int64) (Value, int64, error) {
	mOff, _ := u64(p.data, rec+16)
	iOff, _ := u64(p.data, rec+24)
	if !p.secs[secMetrics].has(mOff) {
		return Value{}, 0, formatErr(rec+16, "value names metric record %d, which is none", mOff)
	}
	idx := p.metricAt[int64(mOff)]
	m := &p.f.Metrics[idx]
	v := Value{Metric: idx, Inst: NoInstance, Type: m.Type, Offset: rec, sentinel: p.f.Flags&FlagSentinel != 0}
	if err := p.valueInstance(&v, m, rec, iOff); err != nil {
		return v, 0, err
	}
	if m.Type == TypeString {
		extra, _ := u64(p.data, rec+8)
		if !p.secs[secStrings].has(extra) {
			return v, 0, formatErr(rec+8,
				"string value of %q at %d is not a string of the strings section", m.Name, extra)
		}
		v.Text = int64(extra)
	}
	return v, int64(iOff), nil
}

// valueInstance checks the value's instance record against its metric:
// none for a singular metric, one of its domain's instances otherwise.
func (p *parser) valueInstance(v *Value, m *Metric, rec int64, iOff uint64) error {
	if m.Indom == NoIndom {
		if iOff != 0 {
			return formatErr(rec+24, "value of singular metric %q names instance record %d", m.Name, iOff)
		}
		return nil
	}
	ref, ok := p.instAt[int64(iOff)]
	if !ok || !p.secs[secInstances].has(iOff) {
		return formatErr(rec+24, "value of %q names instance record %d, which is none", m.Name, iOff)
	}
	d := &p.f.Indoms[ref.indom]
	if d.Serial != m.Indom {
		return formatErr(rec+24, "value of %q (indom %d) names an instance of indom %d", m.Name, m.Indom,
			d.Serial)
	}
	v.Inst = d.Instances[ref.inst].ID
	return nil
}
