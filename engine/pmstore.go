package engine

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
)

// PMStore applies a pmstore to the control metrics. Only the intervals are
// writable. Every request is checked before any is applied, so a bad value
// changes nothing.
func (r *Runner) PMStore(reqs []cache.PMStoreRequest) error {
	for _, q := range reqs {
		if err := r.checkStore(q); err != nil {
			return err
		}
	}
	for _, q := range reqs {
		ms := int64(int32(uint32(q.Value.Bits)))
		if q.ID == ctlInterval.ID {
			r.defaultMS.Store(ms)
			for _, e := range r.entries {
				e.setInterval(ms)
			}
		} else {
			r.entries[q.Inst].setInterval(ms)
		}
		r.log.Info().Str("metric", q.ID.String()).Uint32("inst", q.Inst).Int64("interval_ms", ms).Msg("interval stored")
	}
	return nil
}

func (r *Runner) checkStore(q cache.PMStoreRequest) error {
	switch q.ID {
	case ctlInterval.ID:
	case ctlCInterval.ID:
		if q.Inst >= uint32(len(r.entries)) {
			return cache.ErrNoInstance
		}
	default:
		if _, ok := r.schema.Desc(q.ID); !ok {
			return cache.ErrUnknownMetric
		}
		return cache.ErrReadOnly
	}
	ms := int64(int32(uint32(q.Value.Bits)))
	switch {
	case ms < 0:
		return cache.ErrNegative
	case ms < MinIntervalMS || ms > MaxIntervalMS:
		return cache.ErrOutOfRange
	}
	return nil
}

func (e *entry) setInterval(ms int64) {
	e.intervalMS.Store(ms)
	select {
	case e.wake <- struct{}{}:
	default:
	}
}
