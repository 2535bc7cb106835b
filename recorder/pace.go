package recorder

import "time"

// pacer keeps the writer to a share of one CPU: after each slice of work
// it sleeps long enough that work is at most duty of the time. The fetch
// path then shares the machine with a writer that never takes a whole
// CPU, at the cost of the archive taking longer.
type pacer struct {
	duty  float64
	start time.Time
}

// slice is how much work goes between two sleeps: short enough that a
// fetch never waits long behind the writer on a busy machine.
const slice = 2 * time.Millisecond

func newPacer(duty float64) *pacer { return &pacer{duty: duty, start: time.Now()} }

// step is called after each unit of work.
func (p *pacer) step() {
	if p.duty <= 0 || p.duty >= 1 {
		return
	}
	work := time.Since(p.start)
	if work < slice {
		return
	}
	time.Sleep(time.Duration(float64(work) * (1 - p.duty) / p.duty))
	p.start = time.Now()
}
