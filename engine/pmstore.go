package engine

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
)

// PMStore applies a pmstore to the control metrics. Only the intervals are
// writable. Every request is checked before any is applied, so a bad value
// changes nothing.
//
// hostcache.control.interval is the default of the collectors that have no
// interval of their own; a collector's own interval (shipped, as netproto's
// 5 s, set in the configuration file, or stored into
// hostcache.control.collector.interval) survives a store of the default.
// Storing 0 goes back to what the agent started with: 0 into a collector's
// interval restores that collector's own (or none), 0 into the default
// restores the default and every collector's own.
func (r *Runner) PMStore(reqs []cache.PMStoreRequest) error {
	r.intervals.mu.Lock()
	defer r.intervals.mu.Unlock()
	for _, q := range reqs {
		if err := r.checkStore(q); err != nil {
			return err
		}
	}
	for _, q := range reqs {
		if e, st := r.storerOf(q.ID); st != nil {
			if err := st.Store(q); err != nil {
				return err
			}
			e.fresh.stale()
			continue
		}
		if q.ID == ctlRecSeconds.ID {
			if err := r.record(q); err != nil {
				return err
			}
			continue
		}
		ms := int64(int32(uint32(q.Value.Bits)))
		switch {
		case q.ID == ctlCInterval.ID:
			e := r.entries[q.Inst]
			if ms == 0 {
				ms = e.sched.startOwnMS
			}
			e.sched.ownMS.Store(ms)
		case ms == 0:
			r.intervals.defaultMS.Store(r.intervals.startDefaultMS)
			for _, e := range r.entries {
				e.sched.ownMS.Store(e.sched.startOwnMS)
			}
		default:
			r.intervals.defaultMS.Store(ms)
		}
		r.reschedule()
		r.log.Info().Str("metric", q.ID.String()).Uint32("inst", q.Inst).Int64("interval_ms", ms).
			Msg("interval stored")
	}
	return nil
}

// CheckPMStore checks requests as PMStore would, applying none: the wire
// layer checks the values before it checks who asks.
func (r *Runner) CheckPMStore(reqs []cache.PMStoreRequest) error {
	r.intervals.mu.Lock()
	defer r.intervals.mu.Unlock()
	for _, q := range reqs {
		if err := r.checkStore(q); err != nil {
			return err
		}
	}
	return nil
}

func (r *Runner) checkStore(q cache.PMStoreRequest) error {
	switch q.ID {
	case ctlRecSeconds.ID:
		return r.checkRecord(q)
	case ctlInterval.ID:
	case ctlCInterval.ID:
		if q.Inst >= uint32(len(r.entries)) {
			return cache.ErrNoInstance
		}
	default:
		if _, st := r.storerOf(q.ID); st != nil {
			return st.CheckStore(q)
		}
		if _, ok := r.schema.Desc(q.ID); !ok {
			return cache.ErrUnknownMetric
		}
		return cache.ErrReadOnly
	}
	ms := int64(int32(uint32(q.Value.Bits)))
	switch {
	case ms < 0:
		return cache.ErrNegative
	case ms == 0:
		return nil // back to the start-up setting
	case ms < MinIntervalMS || ms > MaxIntervalMS:
		return cache.ErrOutOfRange
	}
	return nil
}

// storerOf finds the collector that owns metric id, when it takes stores.
func (r *Runner) storerOf(id cache.MetricID) (*entry, Storer) {
	i, ok := r.schema.Index(id)
	if !ok {
		return nil, nil
	}
	src := r.schema.SourceOf(i)
	for _, e := range r.entries {
		if e.source == src {
			if st, ok := e.c.(Storer); ok {
				return e, st
			}
		}
	}
	return nil, nil
}

// reschedule works out every collector's interval after a store, and
// wakes those whose interval changed.
func (r *Runner) reschedule() {
	for _, e := range r.entries {
		e.sched.follow(r.intervals.defaultMS.Load())
	}
}

// Reconfigure applies a re-read configuration's schedule as a restart
// would, but keeps every collector, its history and its instance ids: the
// default and own intervals become sched's (stored ones are replaced, and
// a later store of 0 comes back to these), and so does the staleness
// limit.
func (r *Runner) Reconfigure(sched Schedule) {
	r.intervals.mu.Lock()
	defer r.intervals.mu.Unlock()
	r.intervals.startDefaultMS = sched.Default.Milliseconds()
	r.intervals.defaultMS.Store(r.intervals.startDefaultMS)
	for _, e := range r.entries {
		e.sched.startOwnMS = sched.Intervals[e.c.Name()].Milliseconds()
		e.sched.ownMS.Store(e.sched.startOwnMS)
	}
	r.intervals.staleIntervals.Store(int64(sched.StaleIntervals))
	r.setPacing(sched)
	r.reschedule()
}
