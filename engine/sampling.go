package engine

import (
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// sampleStats are one collector's self-metrics of sampling, which
// hostcache.control.collector.* read.
type sampleStats struct {
	samples    atomic.Uint64
	errors     atomic.Uint64
	skipped    atomic.Uint64 // ticks missed because a sample overran
	resets     atomic.Uint64 // rate intervals dropped: a counter went backwards
	panics     atomic.Uint64
	stalls     atomic.Uint64 // source operations abandoned at their deadline
	durationUS atomic.Int64
	lastOKms   atomic.Int64 // wall clock of the last good sample, ms since epoch
	// staller is the collector when it counts source operations abandoned
	// at their deadline (asserted once, as idleState.paced).
	staller interface{ Stalls() uint64 }
}

// sampleOnce runs one sample, planned at planned (zero: at once; extra: a
// sample between grid samples, for a reader), publishes it, and updates
// the self-metrics. A panic in a collector is recovered and counted: the
// agent keeps serving.
func (r *Runner) sampleOnce(e *entry, planned time.Time, extra bool) (panicked bool) {
	start := time.Now()
	panicsBefore := e.stats.panics.Load()
	err := r.collect(e, start, extra)
	e.stats.durationUS.Store(time.Since(start).Microseconds())
	e.stats.samples.Add(1)
	switch {
	case isPartial(err):
		e.stats.errors.Add(1)
		e.stats.lastOKms.Store(start.UnixMilli())
		e.warnOnce(err, "part of the sample failed; the rest is published")
	case err != nil:
		e.stats.errors.Add(1)
		e.warnOnce(err, "sample failed")
	default:
		e.warn.lastErr = ""
		e.stats.lastOKms.Store(start.UnixMilli())
	}
	if err == nil || isPartial(err) {
		e.follow.noteSample(planned, start)
	}
	// An OnDemand collector read nothing while slowed: its sample is no
	// fresh one, and the next fetch has it sample at once.
	at := start
	if e.idle.onDemand && e.idle.slowed.Load() {
		at = time.Time{}
	}
	e.fresh.sampled(at, time.Since(start))
	return e.stats.panics.Load() != panicsBefore
}

// collect takes one sample at now and publishes it; extra marks a sample
// between grid samples, which peaks take no step from.
func (r *Runner) collect(e *entry, now time.Time, extra bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			e.stats.panics.Add(1)
			err = fmt.Errorf("collector panicked: %v\n%s", p, debug.Stack())
		}
	}()
	if e.dynamic.on {
		r.refresh(e, now)
	}
	if e.builder == nil {
		e.builder = e.schemaOr(r.schema).NewBuilder(e.source, now)
		if e.dynamic.on {
			// After a refused change (refresh) the collector sets metrics
			// the schema does not have: they are left out, not the sample.
			e.builder.SkipUnknown()
		}
	}
	b := e.builder
	b.Reset(now)
	// Whether the source is read is decided before it samples, whatever
	// the sample gives: an unread source whose files fail (no NUMA nodes
	// in sysfs, no NFS) slows down too, rather than retrying at full rate
	// for good, and a Paced collector hears its pace in this very sample.
	r.idle.update(r.schema, e, time.Now())
	r.idle.pace(e)
	sampleErr := e.c.Sample(b, now)
	if sampleErr != nil && !isPartial(sampleErr) {
		return sampleErr
	}
	defer func() {
		if err == nil {
			err = sampleErr // published what it had; the failure still counts
		}
	}()
	if n, why := b.Skipped(); n > 0 {
		e.warnEvery(fmt.Errorf("%d values left out: %w", n, why),
			"values of metrics the schema does not hold were left out")
	}
	return r.publish(e, now, extra)
}

// publish adds the sample built for e at now to its history and
// publishes it.
func (r *Runner) publish(e *entry, now time.Time, extra bool) error {
	part, err := e.builder.Part()
	if err != nil {
		return err
	}
	// Staleness counts in the intervals the source samples at from now:
	// one slowed down for want of readers is not stale between samples.
	part.StaleAfter = time.Duration(r.intervals.staleIntervals.Load()) * r.idle.effectiveInterval(e)
	part.Seq = e.hist().add(part, now, extra)
	r.budget.note(r.entries, e)
	r.front.Publish(e.source, part)
	e.follow.publishedAt = time.Now()
	if r.ids != nil {
		r.ids.SaveAll(now) // new instance ids, written once per sample
	}
	e.stats.resets.Store(e.hist().resetsOf.Load())
	if e.stats.staller != nil {
		e.stats.stalls.Store(e.stats.staller.Stalls())
	}
	return nil
}
