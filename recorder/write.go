package recorder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/archive"
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// PCP's null identifiers on the wire and on disk.
const (
	inDomNull = 0xffffffff
	idNull    = 0xffffffff
	instNull  = 0xffffffff
)

// result is what a write produced.
type result struct {
	path    string
	records int
	bytes   int64
	kept    int64 // bytes of every archive kept, this one included
}

// step is one sample of one source, in the order the archive holds them.
type step struct {
	src, sample int
	at          time.Time
}

// write turns the histories into an archive named after now.
func (r *Recorder) write(now time.Time, hist []engine.SourceHistory) (result, error) {
	steps := order(hist)
	if len(steps) == 0 {
		return result{}, errors.New("the histories keep no sample of the span asked for")
	}
	if err := os.MkdirAll(r.cfg.Dir, 0o755); err != nil {
		return result{}, err
	}
	start := steps[0].at
	w, err := archive.Create(archiveName(r.cfg.Dir, now), archive.LogLabel{
		PID: int32(os.Getpid()), Start: start, Host: r.cfg.Host, TZ: timezone(start),
	})
	if err != nil {
		return result{}, err
	}
	a := &assembly{cfg: &r.cfg, schema: schemaOf(&r.cfg, hist), w: w, hist: hist,
		indoms: map[cache.InDomID]*cache.Instances{}, started: map[int]bool{}}
	if err := a.metadata(start); err != nil {
		w.Abort()
		return result{}, err
	}
	pace := newPacer(r.cfg.Duty)
	for _, st := range steps {
		if err := a.step(st); err != nil {
			w.Abort()
			return result{}, err
		}
		if w.Bytes > r.cfg.MaxBytes {
			w.Abort()
			return result{}, r.tooLarge()
		}
		pace.step()
	}
	path, err := w.Commit()
	if err != nil {
		return result{}, err
	}
	if err := r.chown(path); err != nil {
		return result{}, err
	}
	return r.keep(result{path: path, records: w.Records, bytes: w.Bytes})
}

// tooLarge is why an archive that would take more than the whole bound is
// not kept: keeping it would mean removing every other, and still not fit.
func (r *Recorder) tooLarge() error {
	return fmt.Errorf(
		"the span asked for makes an archive larger than record_max_mb (%d MB) alone: ask for fewer seconds",
		r.cfg.MaxBytes>>20)
}

// keep removes the oldest of the recorder's archives until those left,
// the new one included, fit in MaxBytes. The new one is removed instead
// when its last index entry took it past the bound.
func (r *Recorder) keep(res result) (result, error) {
	if res.bytes > r.cfg.MaxBytes {
		files, _ := filepath.Glob(res.path + ".*")
		for _, f := range files {
			os.Remove(f)
		}
		return result{}, r.tooLarge()
	}
	total, removed, err := retain(r.cfg.Dir, r.ownerUID(), res.path, r.cfg.MaxBytes)
	if err != nil {
		r.cfg.Log.Warn().Err(err).Msg("flight recorder: the oldest archives could not be removed")
	}
	for _, old := range removed {
		r.cfg.Log.Info().Str("archive", old).Msg("flight recorder: removed to stay within record_max_mb")
	}
	res.kept = total
	return res, nil
}

// order lists every kept sample of every source by time.
func order(hist []engine.SourceHistory) []step {
	var steps []step
	for src, sh := range hist {
		for i, s := range sh.Samples {
			steps = append(steps, step{src: src, sample: i, at: s.At()})
		}
	}
	slices.SortStableFunc(steps, func(a, b step) int { return a.at.Compare(b.at) })
	return steps
}

// chown gives the archive's files to the configured owner.
func (r *Recorder) chown(path string) error {
	if r.cfg.UID < 0 || os.Geteuid() != 0 {
		return nil
	}
	files, _ := filepath.Glob(path + ".*")
	for _, f := range files {
		if err := os.Chown(f, r.cfg.UID, r.cfg.GID); err != nil {
			return fmt.Errorf("archive written as %s, but: %w", path, err)
		}
	}
	return nil
}

// assembly writes one archive's records.
type assembly struct {
	cfg     *Config
	schema  *cache.Schema // as the write began: a dynamic source's changes with its metrics
	w       *archive.Writer
	hist    []engine.SourceHistory
	indoms  map[cache.InDomID]*cache.Instances // as last written
	started map[int]bool                       // sources whose first sample is written
	scratch []cache.Value
	// sets are reused from record to record, with their values' arrays,
	// so writing makes little garbage for the fetch path's collector.
	sets []archive.ValueSet
}

// schemaOf is the schema the histories are described with: the dynamic
// source's history's, whose metrics may have changed since (the other
// sources' are alike in every schema), else the configuration's.
func schemaOf(cfg *Config, hist []engine.SourceHistory) *cache.Schema {
	for _, sh := range hist {
		if sh.Dynamic && sh.Schema != nil {
			return sh.Schema
		}
	}
	return cfg.schema()
}

// nextSet appends a set for metric d, reusing an earlier record's arrays.
func (a *assembly) nextSet(d cache.Desc) *archive.ValueSet {
	n := len(a.sets)
	if n < cap(a.sets) {
		a.sets = a.sets[:n+1]
	} else {
		a.sets = append(a.sets, archive.ValueSet{})
	}
	set := &a.sets[n]
	set.PMID, set.Type, set.Values = a.pmid(d.ID), int32(d.Type), set.Values[:0]
	return set
}

func (a *assembly) pmid(id cache.MetricID) uint32 { return a.cfg.Domain<<22 | uint32(id) }

func (a *assembly) indom(id cache.InDomID) uint32 {
	if id == cache.InDomNone {
		return inDomNull
	}
	return a.cfg.Domain<<22 | uint32(id)
}

// metadata writes what does not change over the archive: descriptors,
// help text, and the context, domain, indom and item labels, as of the
// first sample.
func (a *assembly) metadata(at time.Time) error {
	w := a.w
	if len(a.cfg.Context) > 0 {
		ctxSets := []archive.LabelSet{{Inst: instNull, Labels: labels(a.cfg.Context)}}
		if err := w.Labels(at, archive.LabelContext, idNull, ctxSets); err != nil {
			return err
		}
	}
	agent := []archive.LabelSet{{Inst: instNull, Labels: []archive.Label{{Name: "agent", Value: `"hostcache"`}}}}
	if err := w.Labels(at, archive.LabelDomain, a.cfg.Domain, agent); err != nil {
		return err
	}
	for _, sh := range a.hist {
		for _, d := range slices.Concat(sh.Metrics, sh.Strings, sh.Computed) {
			if d.Threads {
				continue
			}
			if err := a.describe(at, d); err != nil {
				return err
			}
		}
		for _, id := range sh.InDoms {
			if a.threadsView(id) {
				continue
			}
			if err := a.describeInDom(at, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// describe writes a metric's descriptor, help text and item labels.
func (a *assembly) describe(at time.Time, d cache.Desc) error {
	w := a.w
	err := w.Desc(archive.Desc{PMID: a.pmid(d.ID), Type: int32(d.Type), InDom: a.indom(d.InDom),
		Sem: int32(d.Sem), Units: uint32(d.Units), Names: []string{d.Name}})
	if err != nil {
		return err
	}
	if text, ok := a.cfg.Texts.MetricText(d.Name, false); ok {
		w.Text(archive.TextOneLine|archive.TextPMID, a.pmid(d.ID), text)
	}
	if text, ok := a.cfg.Texts.MetricText(d.Name, true); ok {
		w.Text(archive.TextHelp|archive.TextPMID, a.pmid(d.ID), text)
	}
	if ls := a.schema.ItemLabels(&d); len(ls) > 0 {
		return w.Labels(at, archive.LabelItem, a.pmid(d.ID),
			[]archive.LabelSet{{Inst: instNull, Labels: labels(ls)}})
	}
	return nil
}

// describeInDom writes an instance domain's help text and labels.
func (a *assembly) describeInDom(at time.Time, id cache.InDomID) error {
	if text, ok := a.cfg.Texts.InDomText(id, false); ok {
		a.w.Text(archive.TextOneLine|archive.TextInDom, a.indom(id), text)
	}
	if text, ok := a.cfg.Texts.InDomText(id, true); ok {
		a.w.Text(archive.TextHelp|archive.TextInDom, a.indom(id), text)
	}
	desc, ok := a.schema.InDom(id)
	if !ok || len(desc.Labels) == 0 {
		return nil
	}
	sets := []archive.LabelSet{{Inst: instNull, Labels: labels(desc.Labels)}}
	return a.w.Labels(at, archive.LabelInDom, a.indom(id), sets)
}

// step writes one sample: its instance domains where they changed, then
// its values, with the source's strings (as they are now) the first time,
// and the rates and derived figures over the step from the source's
// sample before it, as a client fetching at each sample would have been
// given them. (Their peaks, over one step, are the figures themselves.)
func (a *assembly) step(st step) error {
	sh := &a.hist[st.src]
	s := sh.Samples[st.sample]
	for k, id := range sh.InDoms {
		if in := s.InDom(k); in != nil && !a.threadsView(id) && !sameTable(a.indoms[id], in) {
			if err := a.writeInDom(st.at, id, in); err != nil {
				return err
			}
			a.indoms[id] = in
		}
	}
	a.sets = a.sets[:0]
	for m, d := range sh.Metrics {
		if d.Threads {
			continue
		}
		insts, bits := s.Values(m)
		set := a.nextSet(d)
		for i := range insts {
			set.Values = append(set.Values, archive.Value{Inst: insts[i], Bits: bits[i]})
		}
	}
	if !a.started[st.src] && sh.Newest != nil {
		a.sets = append(a.sets, a.strings(sh)...)
	}
	for c, d := range sh.Computed {
		if d.Threads {
			continue
		}
		set := a.nextSet(d)
		a.scratch = sh.StepValues(c, st.sample, a.scratch[:0])
		for _, v := range a.scratch {
			set.Values = append(set.Values, archive.Value{Inst: v.Inst, Bits: v.Bits})
		}
	}
	if err := a.describedOnly(st.at, sh, s); err != nil {
		return err
	}
	a.started[st.src] = true
	if !anyValue(a.sets) {
		// An empty record is a <mark>: a gap in every metric, across
		// which PCP's clients interpolate nothing.
		return nil
	}
	return a.w.Result(st.at, a.sets)
}

// describedOnly keeps in the step's sets only the instances the archive
// describes by then. A source that reads another's instances (the
// process groups take the proc collector's PIDs) keeps no table of its
// own: the first table any history keeps for that domain is written at
// this step, and the values of instances it lacks are left out. A value
// of an instance the archive does not name would make PCP's clients
// print "???" and pmseries refuse the record.
func (a *assembly) describedOnly(at time.Time, sh *engine.SourceHistory, s engine.RecordedSample) error {
	for i := range a.sets {
		set := &a.sets[i]
		d, ok := a.schema.Desc(cache.MetricID(set.PMID & (1<<22 - 1)))
		if !ok || d.InDom == cache.InDomNone || len(set.Values) == 0 {
			continue
		}
		if k := slices.Index(sh.InDoms, d.InDom); k >= 0 && s.InDom(k) != nil {
			continue // written above from the sample itself
		}
		table, err := a.someTable(at, d.InDom)
		if err != nil {
			return err
		}
		set.Values = slices.DeleteFunc(set.Values, func(v archive.Value) bool {
			if table == nil {
				return true
			}
			_, named := table.Name(v.Inst)
			return !named
		})
	}
	return nil
}

// someTable is the instance domain's table as the archive has it, written
// at at from the first sample of any history that keeps one when the
// archive has none yet. It is nil (naming nothing) when no history keeps
// one.
func (a *assembly) someTable(at time.Time, id cache.InDomID) (*cache.Instances, error) {
	if in := a.indoms[id]; in != nil {
		return in, nil
	}
	for _, sh := range a.hist {
		k := slices.Index(sh.InDoms, id)
		if k < 0 {
			continue
		}
		for _, s := range sh.Samples {
			if in := s.InDom(k); in != nil {
				a.indoms[id] = in
				return in, a.writeInDom(at, id, in)
			}
		}
	}
	return nil, nil
}

// threadsView says whether an instance domain is the threads' view of
// the processes'. The threads views are what a client that sees threads
// reads in the processes' place, under the processes' names; they have no
// names of their own to log them by, and a recording holds the processes.
func (a *assembly) threadsView(id cache.InDomID) bool {
	d, ok := a.schema.InDom(id)
	return ok && d.Threads
}

// anyValue reports whether any of the sets has a value.
func anyValue(sets []archive.ValueSet) bool {
	for _, s := range sets {
		if len(s.Values) > 0 {
			return true
		}
	}
	return false
}

// strings are a source's string values from its newest part.
func (a *assembly) strings(sh *engine.SourceHistory) []archive.ValueSet {
	var sets []archive.ValueSet
	for _, d := range sh.Strings {
		if d.Threads {
			continue
		}
		i, ok := a.schema.Index(d.ID)
		if !ok {
			continue
		}
		set := archive.ValueSet{PMID: a.pmid(d.ID), Type: int32(d.Type)}
		for _, v := range sh.Newest.AppendValues(nil, i) {
			set.Values = append(set.Values, archive.Value{Inst: v.Inst, Str: v.Str})
		}
		sets = append(sets, set)
	}
	return sets
}

// writeInDom writes an instance domain as it is from at on, with the
// labels of its instances.
func (a *assembly) writeInDom(at time.Time, id cache.InDomID, in *cache.Instances) error {
	all := in.All()
	insts := make([]archive.Instance, len(all))
	sets := make([]archive.LabelSet, len(all))
	desc, _ := a.schema.InDom(id)
	for i, x := range all {
		insts[i] = archive.Instance{ID: x.ID, Name: x.Name}
		sets[i] = archive.LabelSet{Inst: x.ID}
		if desc != nil {
			sets[i].Labels = labels(desc.InstanceLabels(x))
		}
	}
	if err := a.w.InDom(at, a.indom(id), insts); err != nil {
		return err
	}
	return a.w.Labels(at, archive.LabelInstances, a.indom(id), sets)
}

// sameTable reports whether two instance tables hold the same members.
func sameTable(a, b *cache.Instances) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return slices.EqualFunc(a.All(), b.All(), func(x, y cache.Instance) bool {
		return x.ID == y.ID && x.Name == y.Name && slices.Equal(x.Labels, y.Labels)
	})
}

func labels(ls []cache.Label) []archive.Label {
	out := make([]archive.Label, len(ls))
	for i, l := range ls {
		out[i] = archive.Label{Name: l.Name, Value: l.Value, Optional: l.Optional}
	}
	return out
}
