package pmda

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// fetchState is the reusable scratch space of the fetch path.
type fetchState struct {
	req    Fetch
	read   cache.Request // kept here so computed metrics get it without an allocation
	sets   []ValueSet
	spans  [][2]int
	values []cache.Value
	// valuesHint is how many values the last fetch too large to keep its
	// values for had (shed): the next is given room for them at once.
	valuesHint int
	// schema is the one the last fetch read: a fetch that finds another
	// tells pmcd the names and labels changed (a dynamic source's).
	schema *cache.Schema
	// threads is set when the client sees pmdaproc's threads view.
	threads bool
	// sources are the fetch's sources, each once: marks[i] is the stamp
	// of the last fetch that listed source i.
	sources []int
	marks   []uint32
	stamp   uint32
}

// keptValues is the most values a fetch's scratch keeps between fetches
// (a Value is 32 bytes: keptBuffer's worth).
const keptValues = keptBuffer / 32

// shed lets a large fetch's values go, with the value sets that point
// into them.
func (f *fetchState) shed() {
	if cap(f.values) > keptValues {
		f.valuesHint, f.values = len(f.values), nil
		clear(f.sets[:cap(f.sets)])
	}
}

// Result flags pmcd takes from the timestamp word of a fetch's reply and
// announces to every client.
const (
	resultLabelChange = 0x08 // PMCD_LABEL_CHANGE
	resultNamesChange = 0x10 // PMCD_NAMES_CHANGE
)

// changeFlags are the result flags of a fetch that reads schema: names and
// labels changed when the schema did since the last fetch.
func (f *fetchState) changeFlags(schema *cache.Schema) int32 {
	changed := f.schema != nil && f.schema != schema
	f.schema = schema
	if changed {
		return resultNamesChange | resultLabelChange
	}
	return 0
}

func (s *Server) handleProfile(h Header, pdu []byte) ([]byte, error) {
	if err := s.profiles.decode(h.From, pdu); err != nil {
		// No reply is due to a PROFILE, even a bad one: log and carry on.
		s.cfg.Log.Warn().Err(err).Int32("from", h.From).Msg("malformed PROFILE ignored")
	}
	return nil, nil
}

// handleFetch answers a FETCH from one snapshot: every value in the reply
// comes from the same generation, and nothing here touches /proc.
func (s *Server) handleFetch(h Header, pdu []byte) ([]byte, error) {
	f := &s.fetch
	if err := f.req.Decode(pdu); err != nil {
		return nil, err
	}
	if err := s.refuseContainer(h); err != nil {
		return nil, err
	}
	// The request names the client: rates and peaks are computed over the
	// interval since this client's previous fetch of each metric. Its time
	// is the fetch's arrival, before any wait for fresh samples: a source
	// learns its readers' phases from it.
	now := s.cfg.Now()
	f.threads = s.cfg.Controls.Threads(h.From)
	present := s.freshen(s.cfg.Front.Schema(), now)
	f.read = cache.Request{Snap: s.cfg.Front.Load(), Now: now, Client: h.From, Who: s.creds.credentials(h.From),
		Controls: s.cfg.Controls, Present: present}
	prof := s.profiles.lookup(h.From, f.req.Ctx)
	f.values, f.sets, f.spans = f.values[:0], f.sets[:0], f.spans[:0]
	if f.values == nil && f.valuesHint > 0 {
		f.values = make([]cache.Value, 0, f.valuesHint+f.valuesHint/16)
	}
	for _, pmid := range f.req.PMIDs {
		set := ValueSet{PMID: pmid}
		start := len(f.values)
		if d, ok := s.metricIn(f.read.Snap.Schema, pmid); ok && !d.Unsupported {
			set.Type = d.Type
			if view, ok := f.viewOf(f.read.Snap.Schema, d); ok {
				f.values = f.read.AppendValues(f.values, view)
			} else {
				f.values = f.read.AppendValues(f.values, d)
				f.values = s.limitToHolder(f.values, start, d)
			}
			// The profile names the instances on the wire, in d's domain.
			f.values = s.applyProfile(f.values, start, d, prof)
		} else if ok {
			set.NumErr = ErrAppVersion // a name kept for its descriptor only
		} else {
			set.NumErr = ErrPMID
		}
		f.sets = append(f.sets, set)
		f.spans = append(f.spans, [2]int{start, len(f.values)})
	}
	for i := range f.sets {
		f.sets[i].Values = f.values[f.spans[i][0]:f.spans[i][1]]
	}
	if s.out == nil && s.outHint > 0 {
		s.out = make([]byte, 0, s.outHint+s.outHint/16)
	}
	reply := AppendResult(s.out[:0], f.changeFlags(f.read.Snap.Schema), f.sets)
	s.cfg.Front.Answered(s.cfg.Now().Sub(now))
	return reply, nil
}

// freshen has the sources of the fetch's metrics sampled for it when their
// newest samples are older than the agent's freshness bound: pmcd stamps
// the reply with its own time, and clients rate the counters over it. It
// returns what is known of the instances of sources still late.
func (s *Server) freshen(schema *cache.Schema, now time.Time) *cache.Present {
	f := &s.fetch
	f.sources = f.sources[:0]
	if f.stamp++; f.stamp == 0 {
		clear(f.marks) // wrapped: no mark may look current
		f.stamp = 1
	}
	for _, pmid := range f.req.PMIDs {
		d, ok := s.metricIn(schema, pmid)
		if !ok || d.Control != cache.ControlNone {
			continue // a control's value is no sample
		}
		if view, ok := f.viewOf(schema, d); ok {
			d = view
		}
		src, ok := schema.SourceOfID(d.ID)
		if !ok {
			continue
		}
		if src >= len(f.marks) {
			f.marks = append(f.marks, make([]uint32, src+1-len(f.marks))...)
		}
		if f.marks[src] != f.stamp {
			f.marks[src] = f.stamp
			f.sources = append(f.sources, src)
		}
	}
	return s.cfg.Front.Freshen(f.sources, now)
}

// viewOf is the metric the fetch reads in d's place: d's threads view
// when the client sees threads and d has one.
func (f *fetchState) viewOf(schema *cache.Schema, d *cache.Desc) (*cache.Desc, bool) {
	if !f.threads {
		return nil, false
	}
	return schema.ThreadView(d.ID)
}

// limitToHolder drops from values[start:] the instances that the holder
// of d's instance domain, when it answers as an alias, does not list.
func (s *Server) limitToHolder(values []cache.Value, start int, d *cache.Desc) []cache.Value {
	if d.InDom == cache.InDomNone {
		return values
	}
	holder, aliased := s.ids.Holder(d.InDom)
	if !aliased {
		return values
	}
	members, ok := s.fetch.read.Snap.InDom(holder)
	if !ok {
		return values[:start]
	}
	kept := start
	for _, v := range values[start:] {
		if _, ok := members.Name(v.Inst); ok {
			values[kept] = v
			kept++
		}
	}
	return values[:kept]
}

// applyProfile drops from values[start:] the instances the profile excludes.
func (s *Server) applyProfile(values []cache.Value, start int, d *cache.Desc, p *Profile) []cache.Value {
	if d.InDom == cache.InDomNone {
		return values
	}
	indom := s.wireInDom(d.InDom)
	if p.IncludesAll(indom) {
		return values
	}
	kept := start
	for _, v := range values[start:] {
		if p.Includes(indom, v.Inst) {
			values[kept] = v
			kept++
		}
	}
	return values[:kept]
}
