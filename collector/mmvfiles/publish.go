package mmvfiles

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// publish re-reads each file in use and sets its values and instances
// through b. A file whose generation changed, or that shrank, since the
// scan parsed it publishes nothing until the next scan parses it again.
// A value that cannot be read (past the end, a string mid-update, the
// file's sentinel) is no value this sample.
func (m *mmvFiles) publish(b *cache.Builder, now time.Time) {
	v := m.cat.load()
	for i := range v.parts {
		m.strBuf = v.parts[i].publish(b, now, m.strBuf)
	}
}

// publish sets one file's values; text is the string values' buffer,
// returned for reuse. A part the file no longer matches (a view held by
// the pace while the file went, was refused or changed) sets nothing.
func (p *mmvPart) publish(b *cache.Builder, now time.Time, text []byte) []byte {
	if f := p.file; f == nil || f.reader != p.reader || f.layout != p.layout || f.cluster != p.cluster {
		return text
	}
	data, err := p.reader.Read()
	if err != nil {
		return text
	}
	if gen, ok := mmv.Stable(data); !ok || gen != p.layout.Gen || !p.layout.Fits(data) {
		return text
	}
	for _, t := range p.tables {
		b.SetInDom(t.id, t.in)
	}
	for i := range p.sets {
		text = p.sets[i].publish(b, data, now, text)
	}
	return text
}

// publish sets one value as its type says.
func (s *mmvSet) publish(b *cache.Builder, data []byte, now time.Time, text []byte) []byte {
	v := s.value
	switch v.Type {
	case mmv.TypeU32:
		if n, ok := v.Uint32(data); ok {
			b.SetU64(s.id, s.inst, uint64(n))
		}
	case mmv.TypeU64:
		if n, ok := v.Uint64(data); ok {
			b.SetU64(s.id, s.inst, n)
		}
	case mmv.Type32:
		if n, ok := v.Int32(data); ok {
			b.SetI64(s.id, s.inst, int64(n))
		}
	case mmv.Type64:
		if n, ok := v.Int64(data); ok {
			b.SetI64(s.id, s.inst, n)
		}
	case mmv.TypeFloat:
		if x, ok := v.Float(data); ok {
			b.SetDouble(s.id, s.inst, float64(x))
		}
	case mmv.TypeDouble:
		if x, ok := v.Double(data); ok {
			b.SetDouble(s.id, s.inst, x)
		}
	case mmv.TypeElapsed:
		if n, ok := v.Elapsed(data, now); ok {
			b.SetI64(s.id, s.inst, n)
		}
	case mmv.TypeString:
		var ok bool
		if text, ok = v.AppendString(text[:0], data); ok {
			b.SetString(s.id, s.inst, string(text))
		}
	}
	return text
}
