package hostkit

import "time"

// Paced stretches a collector's once-a-minute refreshes with its sampling:
// embedded, it makes the collector an engine.Paced, and Every(d) is d at
// the source's interval and d times the idle factor while no client reads
// the source. A refresh is then a share of the samples, not of the clock,
// and a slowed-down source pays a tenth of its refreshes as it pays a
// tenth of its reads.
type Paced struct {
	factor int
}

// Pace takes the factor the source's sampling is slowed down by.
func (p *Paced) Pace(factor int) { p.factor = factor }

// Every returns the refresh period d at the current pace.
func (p *Paced) Every(d time.Duration) time.Duration {
	if p.factor <= 1 {
		return d
	}
	return d * time.Duration(p.factor)
}
