package mmv

func (p *parser) indoms() error {
	s := &p.secs[secIndoms]
	p.indomAt = make(map[int64]int, s.count)
	p.instAt = make(map[int64]instRef, p.secs[secInstances].count)
	serials := make(map[uint32]int64, s.count)
	for k := int64(0); k < s.count; k++ {
		rec := s.off + k*indomSize
		serial, _ := u32(p.data, rec)
		if serial == 0 || serial == NoIndom || serial > maxSerial {
			return formatErr(rec, "indom serial %d: 0, PM_INDOM_NULL or above %d", serial, maxSerial)
		}
		if first, dup := serials[serial]; dup {
			return formatErr(rec, "indom serial %d repeats the indom at %d", serial, first)
		}
		serials[serial] = rec
		d, err := p.indom(rec, serial, len(p.f.Indoms))
		if err != nil {
			return err
		}
		p.indomAt[rec] = len(p.f.Indoms)
		p.f.Indoms = append(p.f.Indoms, d)
	}
	if n, sec := int64(len(p.instAt)), p.secs[secInstances]; n != sec.count {
		return formatErr(sec.entry, "%d instances, %d of them in no indom", sec.count, sec.count-n)
	}
	return nil
}

// indom reads domain index idx from its record at rec, with its instances.
func (p *parser) indom(rec int64, serial uint32, idx int) (Indom, error) {
	d := Indom{Serial: serial}
	var err error
	if d.ShortHelp, err = p.help(rec+16, "indom short help"); err != nil {
		return d, err
	}
	if d.LongHelp, err = p.help(rec+24, "indom long help"); err != nil {
		return d, err
	}
	count, _ := u32(p.data, rec+4)
	first, _ := u64(p.data, rec+8)
	if count == 0 {
		return d, nil
	}
	s := &p.secs[secInstances]
	if !s.has(first) || int64(count) > (s.end-int64(first))/s.size {
		return d, formatErr(rec+8, "%d instances at %d are not records of the instances section", count, first)
	}
	d.Instances = make([]Instance, 0, count)
	ids := make(map[int32]bool, count)
	names := make(map[string]bool, count)
	for j := int64(0); j < int64(count); j++ {
		in, err := p.instance(int64(first)+j*s.size, rec, ids, names)
		if err != nil {
			return d, err
		}
		p.instAt[int64(first)+j*s.size] = instRef{idx, len(d.Instances)}
		d.Instances = append(d.Instances, in)
	}
	return d, nil
}

// instance reads the instance record at at, which must point back to the
// domain at rec and repeat none of its ids and names.
func (p *parser) instance(at, rec int64, ids map[int32]bool, names map[string]bool) (Instance, error) {
	back, _ := u64(p.data, at)
	if back != uint64(rec) {
		return Instance{}, formatErr(at, "instance names indom %d, listed by indom %d", back, rec)
	}
	id, _ := u32(p.data, at+12)
	name, err := p.name(at+16, "instance name")
	if err != nil {
		return Instance{}, err
	}
	if name == "" {
		return Instance{}, formatErr(at+16, "empty instance name")
	}
	if ids[int32(id)] || names[name] {
		return Instance{}, formatErr(at, "instance %d %q repeats an id or name of its indom", int32(id), name)
	}
	ids[int32(id)], names[name] = true, true
	return Instance{ID: int32(id), Name: name}, nil
}
