package mmvtest

// writer fills in the records of a Built, taking string slots in turn.
type writer struct {
	b    *Built
	s    Spec
	next int // the next free string slot
}

// str stores text in the next string slot and returns its offset; empty
// text is no string (offset 0), as for absent help.
func (w *writer) str(text string) uint64 {
	if text == "" {
		return 0
	}
	return uint64(w.slot(text))
}

// slot stores text in the next string slot even when it is empty.
func (w *writer) slot(text string) int {
	at := w.next
	copy(w.b.Data[at:at+StringSize-1], text)
	w.next += StringSize
	return at
}

func (w *writer) indoms(p plan) {
	inst := p.instances
	size := InstSize(w.s.Version)
	w.b.Instances = make([][]int, len(w.s.Indoms))
	for i, d := range w.s.Indoms {
		rec := p.indoms + i*IndomSize
		w.b.Indoms = append(w.b.Indoms, rec)
		w.b.PutU32(rec+IndomSerial, d.Serial)
		w.b.PutU32(rec+IndomCount, uint32(len(d.Instances)))
		w.b.PutU64(rec+IndomOffset, uint64(inst))
		w.b.PutU64(rec+IndomShort, w.str(d.Short))
		w.b.PutU64(rec+IndomLong, w.str(d.Long))
		for _, in := range d.Instances {
			w.b.PutU64(inst+InstIndom, uint64(rec))
			w.b.PutU32(inst+InstInternal, uint32(in.ID))
			w.name(inst+InstName, in.Name)
			w.b.Instances[i] = append(w.b.Instances[i], inst)
			inst += size
		}
	}
}

// name writes a name in its 64-byte field (version 1, truncated to leave
// the NUL) or as a string whose offset goes in the field.
func (w *writer) name(at int, name string) {
	if w.s.Version == 1 {
		copy(w.b.Data[at:at+NameMax-1], name)
		return
	}
	w.b.PutU64(at, uint64(w.slot(name)))
}

func (w *writer) metrics(p plan) {
	v := w.s.Version
	for i, m := range w.s.Metrics {
		rec := p.metrics + i*MetricSize(v)
		w.b.Metrics = append(w.b.Metrics, rec)
		w.name(rec+MetricFieldOffset(v, MetName), m.Name)
		w.b.PutU32(rec+MetricFieldOffset(v, MetItem), m.Item)
		w.b.PutU32(rec+MetricFieldOffset(v, MetType), uint32(m.Type))
		w.b.PutU32(rec+MetricFieldOffset(v, MetSem), m.Sem)
		w.b.PutU32(rec+MetricFieldOffset(v, MetUnits), m.Units)
		w.b.PutU32(rec+MetricFieldOffset(v, MetIndom), m.Indom)
		w.b.PutU64(rec+MetricFieldOffset(v, MetShort), w.str(m.Short))
		w.b.PutU64(rec+MetricFieldOffset(v, MetLong), w.str(m.Long))
	}
}

func (w *writer) values(p plan) {
	rec := p.values
	for i, m := range w.s.Metrics {
		d := w.indom(m.Indom)
		for k, val := range m.Values {
			at := ValueAt{Metric: m.Name, Record: rec}
			w.b.PutU64(rec+ValAtom, val.Bits)
			w.b.PutU64(rec+ValExtra, uint64(val.Extra))
			w.b.PutU64(rec+ValMetric, uint64(w.b.Metrics[i]))
			if d >= 0 && k < len(w.b.Instances[d]) {
				at.Inst = w.s.Indoms[d].Instances[k].Name
				w.b.PutU64(rec+ValInstance, uint64(w.b.Instances[d][k]))
			}
			if m.Type == TypeString {
				at.String = w.slot(val.Text)
				w.b.PutU64(rec+ValExtra, uint64(at.String))
				w.b.PutU64(rec+ValAtom, uint64(len(val.Text)))
			}
			w.b.Values = append(w.b.Values, at)
			rec += ValueSize
		}
	}
}

// indom is the index of the domain with serial, or -1.
func (w *writer) indom(serial uint32) int {
	for i, d := range w.s.Indoms {
		if d.Serial == serial {
			return i
		}
	}
	return -1
}

func (w *writer) labels(p plan) {
	for i, l := range w.s.Labels {
		rec := p.labels + i*LabelSize
		w.b.Labels = append(w.b.Labels, rec)
		w.b.PutU32(rec+LabelFlags, l.Flags)
		w.b.PutU32(rec+LabelIdent, l.Identity)
		w.b.PutU32(rec+LabelInst, uint32(l.Instance))
		copy(w.b.Data[rec+LabelText:rec+LabelText+LabelMax-1], l.Text)
	}
}
