package cache

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Desc describes one metric: the PMNS name and a pmDesc without the domain.
type Desc struct {
	Name  string // full PMNS name, e.g. "hostcache.kernel.all.cpu.user"
	ID    MetricID
	Type  Type
	Sem   Sem
	Units Units
	InDom InDomID
	// Labels are the metric's own item labels, sorted by name, where
	// pmdalinux gives its twin some (device_type "cpu" on kernel.all.cpu.*);
	// the collector label is added to them for every metric.
	Labels []Label
	// Compute, when set, produces the values at read time instead of
	// taking them from a published part: the age of published data, or a
	// rate over the asking client's own interval. It must append to dst
	// and must not allocate in steady state.
	Compute func(r *Request, dst []Value) []Value
	// Peaks asks the engine for hostcache.max.X and hostcache.min.X twins
	// of this instant metric: its highest and lowest sample inside each
	// client's interval.
	Peaks bool
	// Unsupported marks a name kept for its descriptor only: no source
	// provides its values on this kernel, and a fetch answers
	// PM_ERR_APPVERSION for it, as pmdalinux does for swap.in.
	Unsupported bool
	// Access says which clients may read the values (AccessAll: every
	// client). A metric's rate and peaks keep its access.
	Access Access
	// Threads marks the threads view of metric ThreadsOf: a fetch for a
	// client that sees threads (ProcControls.Threads) reads this metric
	// in its place (Schema.ThreadView). No client looks up its name.
	Threads   bool
	ThreadsOf MetricID
	// Control marks one of the per-client process controls: its value is
	// the asking client's setting (Request.Controls), never a sample.
	Control ProcControl
}

// InDomDesc names an instance domain; Name is used in logs and help keys.
// Labels are the domain's own (pmdalinux's indom_name and device_type for
// the domains it shares with us), sorted by name. NameLabel and IDLabel,
// when set, give every instance a label that identifies it, as pmdalinux
// does: the instance name as a string (device_name, interface) or the
// instance id as a number (cpu). Derive, when set, works out further
// identifying labels from the instance's name when they are asked for, so
// that a domain of hundreds of thousands of instances ("LOC::cpu7")
// stores none of them.
type InDomDesc struct {
	ID        InDomID
	Name      string
	Labels    []Label
	NameLabel string
	IDLabel   string
	Derive    func(x Instance) []Label
	// Access says which clients may list the members (AccessAll: every
	// client; AccessKnown: those pmcd named a user for, as pmdaproc lists
	// its processes to those alone).
	Access Access
	// Alias, when set, gives the name to look up for a name that found no
	// member: the form a twin's users type ("1234" for pmdaproc's
	// "001234 sshd").
	Alias func(name string) (string, bool)
	// Threads marks the threads view of domain ThreadsOf: a client that
	// sees threads lists this domain's members in its place.
	Threads   bool
	ThreadsOf InDomID
}

// Source is the registration of one publisher (a collector) in a schema.
// A Dynamic source's metrics can change while the agent runs (WithSource):
// they come after every other source's in the schema, so that a change
// leaves every other metric's schema index, and so its published parts
// and history, as they are.
type Source struct {
	Name    string
	Metrics []Desc
	InDoms  []InDomDesc
	Dynamic bool
	// CountersOnly says the source's history keeps its counters (and
	// instants with peaks) alone: its other instants keep the newest
	// sample, as strings do. Process tables set it: at 10,000 processes
	// their sizes and states would cost the history three times what
	// the counters' rates need.
	CountersOnly bool
}

// Schema is the immutable set of metrics and instance domains, with the
// source that owns each. It is built at start-up; a dynamic source's
// change makes a new one (WithSource) that shares the record of reads.
type Schema struct {
	sources []string
	regs    []Source // as registered, for WithSource
	// epochs count each source's changes (WithSource): a part built
	// before its source's last change is not published.
	epochs   []uint64
	descs    []Desc // sorted by ID
	srcOf    []int  // source index of each desc, parallel to descs
	span     []span // per source: the range of descs indexes it owns
	byID     map[MetricID]int
	dense    [][]int32 // by cluster, then item: descs index + 1 (0: none)
	byName   map[string]int
	owner    map[MetricID]int
	indoms   []InDomDesc
	indomOwn map[InDomID]int
	views    threadViews
	use      usage // when each source was last read (see usage.go)
	// collectorLabels adds each metric's and domain's collector as a
	// label; off, they carry their own labels only.
	collectorLabels bool
}

// CollectorLabel names the label that says which collector samples a
// metric or an instance domain.
const CollectorLabel = "collector"

// SchemaOptions say how a schema labels its metrics.
type SchemaOptions struct {
	// NoCollectorLabels leaves out the collector label: an agent standing
	// in for pmdalinux gives its names pmdalinux's labels, no more, as an
	// extra label changes a series' identity in pmseries and grafana.
	NoCollectorLabels bool
}

// NewSchema checks that ids and names are unique and builds the schema,
// with the collector labels.
func NewSchema(sources ...Source) (*Schema, error) {
	return NewSchemaWith(SchemaOptions{}, sources...)
}

// NewSchemaWith builds the schema with opts.
func NewSchemaWith(opts SchemaOptions, sources ...Source) (*Schema, error) {
	s, err := buildSchema(opts, sources)
	if err != nil {
		return nil, err
	}
	s.use = newUsage(len(s.sources))
	return s, nil
}

// WithSource returns the schema with dynamic source i's registration
// replaced by src (of the same name), sharing the record of reads. Every
// metric of the other sources keeps its index.
func (s *Schema) WithSource(i int, src Source) (*Schema, error) {
	if i < 0 || i >= len(s.regs) || !s.regs[i].Dynamic || src.Name != s.regs[i].Name {
		return nil, fmt.Errorf("source %d is no dynamic source named %s", i, src.Name)
	}
	src.Dynamic = true
	regs := slices.Clone(s.regs)
	regs[i] = src
	n, err := buildSchema(SchemaOptions{NoCollectorLabels: !s.collectorLabels}, regs)
	if err != nil {
		return nil, err
	}
	n.use = s.use
	n.epochs = slices.Clone(s.epochs)
	n.epochs[i]++
	return n, nil
}

// Dynamic reports whether metric id belongs to a dynamic source.
func (s *Schema) Dynamic(id MetricID) bool {
	src, ok := s.owner[id]
	return ok && s.regs[src].Dynamic
}

// Epoch counts the changes of source i (WithSource) this schema follows:
// two schemas with the same epoch of a source index its metrics alike.
func (s *Schema) Epoch(i int) uint64 { return s.epochs[i] }

func countDynamic(sources []Source) int {
	n := 0
	for _, src := range sources {
		if src.Dynamic {
			n++
		}
	}
	return n
}

// buildSchema checks and indexes the sources' registrations.
func buildSchema(opts SchemaOptions, sources []Source) (*Schema, error) {
	s := &Schema{
		byID: map[MetricID]int{}, byName: map[string]int{},
		owner: map[MetricID]int{}, indomOwn: map[InDomID]int{},
		collectorLabels: !opts.NoCollectorLabels,
	}
	s.regs = slices.Clone(sources)
	s.epochs = make([]uint64, len(sources))
	dynamic := map[int]bool{}
	if n := countDynamic(sources); n > 1 {
		// Two would share the end of the index, and one's change would
		// move the other's indexes under its published parts.
		return nil, fmt.Errorf("%d dynamic sources; one at most", n)
	}
	for i, src := range sources {
		s.sources = append(s.sources, src.Name)
		dynamic[i] = src.Dynamic
		for _, d := range src.Metrics {
			if _, dup := s.owner[d.ID]; dup {
				return nil, fmt.Errorf("metric %s: id %s already used", d.Name, d.ID)
			}
			s.owner[d.ID] = i
			s.descs = append(s.descs, d)
		}
		for _, in := range src.InDoms {
			if _, dup := s.indomOwn[in.ID]; dup {
				return nil, fmt.Errorf("indom %s: serial %d already used", in.Name, in.ID)
			}
			s.indomOwn[in.ID] = i
			// The collector is an indom label too: pmseries keeps item
			// labels for singular metrics only, indom labels for instances.
			if s.collectorLabels {
				in.Labels = withLabel(in.Labels, StringLabel(CollectorLabel, src.Name))
			}
			s.indoms = append(s.indoms, in)
		}
	}
	// By id, the dynamic sources' after all others (see Source).
	sort.Slice(s.descs, func(a, b int) bool {
		da, db := dynamic[s.owner[s.descs[a].ID]], dynamic[s.owner[s.descs[b].ID]]
		if da != db {
			return db
		}
		return s.descs[a].ID < s.descs[b].ID
	})
	sort.Slice(s.indoms, func(a, b int) bool { return s.indoms[a].ID < s.indoms[b].ID })
	for i, d := range s.descs {
		if _, dup := s.byName[d.Name]; dup {
			return nil, fmt.Errorf("metric name %s used twice", d.Name)
		}
		if d.InDom != InDomNone {
			if _, ok := s.indomOwn[d.InDom]; !ok {
				return nil, fmt.Errorf("metric %s: unknown indom %d", d.Name, d.InDom)
			}
		}
		s.byID[d.ID] = i
		s.byName[d.Name] = i
		s.srcOf = append(s.srcOf, s.owner[d.ID])
	}
	s.buildDense()
	if err := s.buildThreadViews(); err != nil {
		return nil, err
	}
	s.span = make([]span, len(sources))
	for i := range s.span {
		s.span[i] = span{lo: 0, hi: -1}
	}
	for i, src := range s.srcOf {
		sp := &s.span[src]
		if sp.hi < sp.lo {
			sp.lo = i
		}
		sp.hi = i
	}
	return s, nil
}

// span is a range of schema indexes, hi included; empty when hi < lo.
type span struct{ lo, hi int }

// buildDense makes a two-level table lookup of metric ids, by cluster and
// then by item: every published value and every fetched PMID is looked up,
// and two slice indexes are several times cheaper than a map. Only the
// clusters in use get a table (1024 items, 4 KB each), so the peaks'
// clusters above 2048 cost no more than the others.
func (s *Schema) buildDense() {
	for i, d := range s.descs {
		c := d.ID.Cluster()
		if int(c) >= len(s.dense) {
			s.dense = append(s.dense, make([][]int32, int(c)+1-len(s.dense))...)
		}
		if s.dense[c] == nil {
			s.dense[c] = make([]int32, 1<<10)
		}
		s.dense[c][d.ID.Item()] = int32(i + 1)
	}
}

// Index returns id's position in Descs (its schema index).
func (s *Schema) Index(id MetricID) (int, bool) { return s.index(id) }

// SourceOf returns the index of the source that publishes the metric at
// schema index i.
func (s *Schema) SourceOf(i int) int { return s.srcOf[i] }

// CountersOnly reports whether source src's history keeps its counters
// alone (Source.CountersOnly).
func (s *Schema) CountersOnly(src int) bool {
	return src >= 0 && src < len(s.regs) && s.regs[src].CountersOnly
}

// index returns id's position in descs.
func (s *Schema) index(id MetricID) (int, bool) {
	c := id.Cluster()
	if uint32(id)>>22 != 0 || int(c) >= len(s.dense) || s.dense[c] == nil {
		return 0, false
	}
	i := s.dense[c][id.Item()]
	return int(i) - 1, i != 0
}

// Desc returns the descriptor of id.
func (s *Schema) Desc(id MetricID) (*Desc, bool) {
	i, ok := s.index(id)
	if !ok {
		return nil, false
	}
	return &s.descs[i], true
}

// Lookup returns the descriptor of a metric by its PMNS name.
func (s *Schema) Lookup(name string) (*Desc, bool) {
	i, ok := s.byName[name]
	if !ok {
		return nil, false
	}
	return &s.descs[i], true
}

// Descs returns every descriptor, ordered by id, the dynamic sources'
// last. Callers must not modify it.
func (s *Schema) Descs() []Desc { return s.descs }

// InDoms returns every instance domain, ordered by serial.
func (s *Schema) InDoms() []InDomDesc { return s.indoms }

// InDomsOf lists the instance domains a source owns, by serial.
func (s *Schema) InDomsOf(source int) []InDomID {
	var out []InDomID
	for _, in := range s.indoms {
		if s.indomOwn[in.ID] == source {
			out = append(out, in.ID)
		}
	}
	return out
}

// InDom returns the description of an instance domain.
func (s *Schema) InDom(id InDomID) (*InDomDesc, bool) {
	i, ok := sort.Find(len(s.indoms), func(i int) int {
		switch {
		case id < s.indoms[i].ID:
			return -1
		case id > s.indoms[i].ID:
			return 1
		}
		return 0
	})
	if !ok {
		return nil, false
	}
	return &s.indoms[i], true
}

// MetricSource returns the name of the source that publishes a metric.
func (s *Schema) MetricSource(id MetricID) (string, bool) {
	i, ok := s.owner[id]
	if !ok {
		return "", false
	}
	return s.sources[i], true
}

// HasInDom reports whether serial is a known instance domain.
func (s *Schema) HasInDom(id InDomID) bool {
	_, ok := s.indomOwn[id]
	return ok
}

// Sources returns the source names in registration order.
func (s *Schema) Sources() []string { return s.sources }

// SourceIndex returns the index of a source by name.
func (s *Schema) SourceIndex(name string) (int, bool) {
	for i, n := range s.sources {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// InstanceLabels are the labels of instance x of domain d, sorted by name:
// the one that identifies it where the domain has one (intrinsic, as
// pmdalinux's device_name, interface and cpu), and those its collector
// attached, which describe the thing measured and are optional.
func (d *InDomDesc) InstanceLabels(x Instance) []Label {
	out := make([]Label, 0, len(x.Labels)+1)
	for _, l := range x.Labels {
		l.Optional = true
		out = append(out, l)
	}
	if d.Derive != nil {
		for _, l := range d.Derive(x) {
			out = upsertLabel(out, l)
		}
		slices.SortFunc(out, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	}
	var id Label
	switch {
	case d.NameLabel != "":
		id = StringLabel(d.NameLabel, x.Name)
	case d.IDLabel != "":
		id = Label{Name: d.IDLabel, Value: strconv.FormatUint(uint64(x.ID), 10)}
	default:
		return out
	}
	i, found := slices.BinarySearchFunc(out, id.Name, func(l Label, name string) int {
		return strings.Compare(l.Name, name)
	})
	if found {
		out[i] = id // a collector's label of the same name gives way
		return out
	}
	return slices.Insert(out, i, id)
}

// upsertLabel replaces the label of l's name in out, or appends l.
func upsertLabel(out []Label, l Label) []Label {
	for i := range out {
		if out[i].Name == l.Name {
			out[i] = l
			return out
		}
	}
	return append(out, l)
}

// ItemLabels are a metric's own labels and the collector that samples it,
// sorted by name.
func (s *Schema) ItemLabels(d *Desc) []Label {
	src, ok := s.MetricSource(d.ID)
	if !ok || !s.collectorLabels {
		return slices.Clone(d.Labels)
	}
	return withLabel(d.Labels, StringLabel(CollectorLabel, src))
}

// withLabel returns a copy of ls, sorted by name, with l in its place
// (replacing a label of the same name).
func withLabel(ls []Label, l Label) []Label {
	out := slices.Clone(ls)
	i, found := slices.BinarySearchFunc(out, l.Name, func(x Label, name string) int {
		return strings.Compare(x.Name, name)
	})
	if found {
		out[i] = l
		return out
	}
	return slices.Insert(out, i, l)
}
