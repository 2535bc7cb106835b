package engine

import "time"

// warnings are what one collector logged last: a failure that persists
// is said once a minute, not once a sample. Only the entry's loop uses
// them (and Sources, before the loops start).
type warnings struct {
	// lastErr and lastErrAt are the failure logged last.
	lastErr   string
	lastErrAt time.Time
	// warned is when each condition of warnEvery was last logged.
	warned map[string]time.Time
}

// warnEvery logs a condition of the source's metrics (a refused change,
// figures past their bound, values left out) at most once a minute for
// each msg: these persist across samples that succeed, which clear
// warnOnce's memory.
func (e *entry) warnEvery(err error, msg string) {
	if at, ok := e.warn.warned[msg]; ok && time.Since(at) < time.Minute {
		return
	}
	if e.warn.warned == nil {
		e.warn.warned = map[string]time.Time{}
	}
	e.warn.warned[msg] = time.Now()
	e.log.Warn().Err(err).Msg(msg)
}

// warnOnce logs a failure when it differs from the last one logged, or a
// minute after: a file missing for good is said once a minute, not once a
// sample.
func (e *entry) warnOnce(err error, msg string) {
	text := err.Error()
	if text == e.warn.lastErr && time.Since(e.warn.lastErrAt) < time.Minute {
		return
	}
	e.warn.lastErr, e.warn.lastErrAt = text, time.Now()
	e.log.Warn().Err(err).Msg(msg)
}
