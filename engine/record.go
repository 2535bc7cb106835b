package engine

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Recorder writes the recent history out as an archive, off the fetch
// path: Start returns at once (cache.ErrBusy while an archive is being
// written, or when who asked for one too recently), and Status says how
// the last one went.
type Recorder interface {
	Start(span time.Duration, who cache.Credentials) error
	Status() RecordStatus
}

// RecordStatus is what the flight recorder reports under
// hostcache.control.record.
type RecordStatus struct {
	Busy      bool
	Archives  uint64 // archives written whole
	Errors    uint64 // archives abandoned on an error
	Records   uint64 // results in the last archive written
	Bytes     uint64 // bytes of the last archive written
	Last      string // path of the last archive written
	LastError string // the last error, "" when none
	Span      uint32 // seconds asked for by the last request
}

// MaxRecordSeconds bounds a request: a day, far beyond any history kept.
const MaxRecordSeconds = 86400

// The flight recorder's controls (cluster 0, items 30-37).
var (
	ctlRecSeconds = Row{Name: "hostcache.control.record.seconds", Cluster: clusterControl, Item: 30,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsSec, InDom: cache.InDomNone}.Desc()
	ctlRecBusy = Row{Name: "hostcache.control.record.busy", Cluster: clusterControl, Item: 31,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlRecArchives = Row{Name: "hostcache.control.record.archives", Cluster: clusterControl, Item: 32,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlRecErrors = Row{Name: "hostcache.control.record.errors", Cluster: clusterControl, Item: 33,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlRecRecords = Row{Name: "hostcache.control.record.records", Cluster: clusterControl, Item: 34,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlRecBytes = Row{Name: "hostcache.control.record.bytes", Cluster: clusterControl, Item: 35,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc()
	ctlRecLast = Row{Name: "hostcache.control.record.last", Cluster: clusterControl, Item: 36,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	ctlRecError = Row{Name: "hostcache.control.record.last_error", Cluster: clusterControl, Item: 37,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
)

// SetRecorder gives the runner its flight recorder, before it runs.
func (r *Runner) SetRecorder(rec Recorder) { r.recorder = rec }

// recordMetrics are the recorder's controls, read from its status.
func (r *Runner) recordMetrics() []cache.Desc {
	status := func(d cache.Desc, value func(st RecordStatus) cache.Value) cache.Desc {
		d.Compute = func(_ *cache.Request, dst []cache.Value) []cache.Value {
			if r.recorder == nil {
				return dst
			}
			return append(dst, value(r.recorder.Status()))
		}
		return d
	}
	u64 := func(v uint64) cache.Value { return cache.U64Value(cache.InstNone, v) }
	return []cache.Desc{
		status(ctlRecSeconds,
			func(st RecordStatus) cache.Value { return cache.U32Value(cache.InstNone, st.Span) }),
		status(ctlRecBusy, func(st RecordStatus) cache.Value {
			if st.Busy {
				return cache.U32Value(cache.InstNone, 1)
			}
			return cache.U32Value(cache.InstNone, 0)
		}),
		status(ctlRecArchives, func(st RecordStatus) cache.Value { return u64(st.Archives) }),
		status(ctlRecErrors, func(st RecordStatus) cache.Value { return u64(st.Errors) }),
		status(ctlRecRecords, func(st RecordStatus) cache.Value { return u64(st.Records) }),
		status(ctlRecBytes, func(st RecordStatus) cache.Value { return u64(st.Bytes) }),
		status(ctlRecLast,
			func(st RecordStatus) cache.Value { return cache.StringValue(cache.InstNone, st.Last) }),
		status(ctlRecError, func(st RecordStatus) cache.Value {
			return cache.StringValue(cache.InstNone, st.LastError)
		}),
	}
}

// checkRecord checks a store into hostcache.control.record.seconds.
func (r *Runner) checkRecord(q cache.PMStoreRequest) error {
	if r.recorder == nil {
		return cache.ErrReadOnly
	}
	secs := int64(int32(uint32(q.Value.Bits)))
	switch {
	case secs < 0:
		return cache.ErrNegative
	case secs == 0 || secs > MaxRecordSeconds:
		return cache.ErrOutOfRange
	}
	return nil
}

// record starts the recorder on the last secs seconds, for q's client.
func (r *Runner) record(q cache.PMStoreRequest) error {
	secs := time.Duration(uint32(q.Value.Bits)) * time.Second
	if err := r.recorder.Start(secs, q.Who); err != nil {
		return err
	}
	r.log.Info().Dur("span", secs).Uint32("uid", q.Who.UID).Bool("uid_known", q.Who.Known).
		Msg("recording the recent history")
	return nil
}
