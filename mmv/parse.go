package mmv

// Parse checks data as one MMV file and returns its layout. Every offset
// and count is checked against len(data) before use; a fault is an *Error
// wrapping ErrNotMMV, ErrVersion, ErrUnstable, ErrLimit or ErrFormat.
// Parse keeps no reference to data: names and help are copied, values
// are read later from the caller's current bytes.
func Parse(data []byte, lim Limits) (*File, error) {
	if int64(len(data)) > lim.MaxBytes {
		return nil, errAt(ErrLimit, 0, "%d bytes, limit %d", len(data), lim.MaxBytes)
	}
	h, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	secs, err := parseTOC(data, h, lim)
	if err != nil {
		return nil, err
	}
	p := &parser{data: data, version: h.version, secs: secs, f: &File{
		Version: h.version, Gen: h.gen, Flags: h.flags, PID: h.pid,
		Cluster: h.cluster, Size: int64(len(data)),
	}}
	for _, step := range []func() error{p.indoms, p.metrics, p.values, p.labels} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return p.f, nil
}

// parser holds what one Parse has learnt so far.
type parser struct {
	data     []byte
	version  int
	secs     *sections
	f        *File
	indomAt  map[int64]int     // an indom record's offset → index in f.Indoms
	instAt   map[int64]instRef // an instance record's offset → its place
	metricAt map[int64]int     // a metric record's offset → index in f.Metrics
}

// instRef places an instance record in f.Indoms.
type instRef struct{ indom, inst int }

// str reads the string whose slot starts at off, which must be a record of
// the strings section holding a NUL. at is the field that points there.
func (p *parser) str(off uint64, at int64, what string) (string, error) {
	s := &p.secs[secStrings]
	if !s.has(off) {
		return "", formatErr(at, "%s at %d is not a string of the strings section", what, off)
	}
	b, ok := cstring(p.data[off : off+stringSize])
	if !ok {
		return "", formatErr(int64(off), "%s has no NUL in its %d bytes", what, stringSize)
	}
	return string(b), nil
}

// help reads an optional help text: offset 0 means none.
func (p *parser) help(at int64, what string) (string, error) {
	off, _ := u64(p.data, at)
	if off == 0 {
		return "", nil
	}
	return p.str(off, at, what)
}

// name reads a name: in a 64-byte field in version 1, else a string.
func (p *parser) name(at int64, what string) (string, error) {
	if p.version == 1 {
		b, ok := cstring(p.data[at : at+nameMax])
		if !ok {
			return "", formatErr(at, "%s has no NUL in its %d bytes", what, nameMax)
		}
		return string(b), nil
	}
	off, _ := u64(p.data, at)
	return p.str(off, at, what)
}
