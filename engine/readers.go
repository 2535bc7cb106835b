package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The learner of a source's readers: which pmcd clients fetch its
// metrics, how often and when. It is pure logic, fed the fetches' times
// by the source's sampling loop, which plans its samples from it.
const (
	// maxReaders bounds the readers tracked per source; past it the one
	// seen least recently is dropped.
	maxReaders = 16
	// gapsKept is how many of a reader's last inter-fetch gaps are kept:
	// the period is their median.
	gapsKept = 5
	// agreeingGaps is how many of the newest gaps are checked against the
	// period, and leastGaps how many of them, newest first, must agree for
	// the reader to be periodic: its fourth fetch finds a fresh sample.
	agreeingGaps = 4
	leastGaps    = 2
	// sameRound is how close two fetches of one client are one round:
	// pmlogger fetches each logging group in a PDU of its own.
	sameRound = 20 * time.Millisecond
	// unknownWait is how long a reader with no period yet is kept: the
	// longest usual logging interval, with room.
	unknownWait = 15 * time.Minute
)

// readerRole is how the plan serves a reader.
type readerRole int

const (
	roleGrid    readerRole = iota // served by the grid as it falls
	rolePrimary                   // the grid's phase follows it
	roleExtra                     // extra samples before its fetches
)

// fetchReader is one client that fetches a source's metrics.
type fetchReader struct {
	client int32
	order  uint64    // when it was first seen: ties go to the first
	last   time.Time // its latest fetch (the first of a round)
	gaps   [gapsKept]time.Duration
	n      int // gaps recorded, newest at (n-1) % gapsKept
	// period is the median gap; periodic when the newest gaps, at least
	// leastGaps of the last agreeingGaps, agree with it within
	// periodTolerance, jitter their largest deviation.
	period, jitter time.Duration
	periodic       bool
	steadyAt       time.Time     // its latest fetch while periodic; zero before
	served         time.Duration // age of the sample its latest fetch got
	servedKnown    bool
	role           readerRole
}

// periodTolerance is how far a gap may be from the period and agree:
// 2 % of it, at least 10 ms.
func periodTolerance(period time.Duration) time.Duration {
	return max(10*time.Millisecond, period/50)
}

// readerSet is one source's readers. Only its sampling loop changes it,
// except forget (pmcd says a client has gone), so the loop and forget
// share a lock the fetch path never takes.
type readerSet struct {
	list  []*fetchReader
	first uint64 // readers ever added, for order
	// leadClient is the client the grid followed at the last plan, when
	// hasLead.
	leadClient int32
	hasLead    bool
}

// leader is the reader the grid followed at the last plan, while it is
// tracked; nil otherwise.
func (rs *readerSet) leader() *fetchReader {
	if !rs.hasLead {
		return nil
	}
	return rs.find(rs.leadClient)
}

// arrive records a fetch by client at at, which was served a sample
// served old (known false when no sample was published before it).
func (rs *readerSet) arrive(client int32, at time.Time, served time.Duration, known bool) {
	rd := rs.find(client)
	if rd == nil {
		rd = rs.add(client, at)
	} else {
		gap := at.Sub(rd.last)
		if gap < sameRound {
			return // the same round, or out of order
		}
		rd.gaps[rd.n%gapsKept] = gap
		rd.n++
		rd.last = at
		rd.learn()
	}
	rd.served, rd.servedKnown = served, known
}

// find returns client's reader, or nil.
func (rs *readerSet) find(client int32) *fetchReader {
	for _, rd := range rs.list {
		if rd.client == client {
			return rd
		}
	}
	return nil
}

// add starts tracking client, dropping the reader seen least recently
// when maxReaders are tracked.
func (rs *readerSet) add(client int32, at time.Time) *fetchReader {
	if len(rs.list) >= maxReaders {
		oldest := 0
		for i, rd := range rs.list {
			if rd.last.Before(rs.list[oldest].last) {
				oldest = i
			}
		}
		rs.list = slices.Delete(rs.list, oldest, oldest+1)
	}
	rs.first++
	rd := &fetchReader{client: client, order: rs.first, last: at}
	rs.list = append(rs.list, rd)
	return rd
}

// learn works out the reader's period, whether it is periodic and its
// jitter, from its last gaps.
func (rd *fetchReader) learn() {
	kept := min(rd.n, gapsKept)
	sorted := rd.gaps // a copy: the gaps stay in arrival order
	slices.Sort(sorted[:kept])
	rd.period = sorted[kept/2]
	rd.periodic, rd.jitter = false, 0
	if rd.n < leastGaps {
		return
	}
	// The newest gaps count, back to the first that disagrees: one odd
	// gap (a client's first fetch after connecting, a stall under load)
	// stops counting there instead of hiding the steady gaps after it.
	tol := periodTolerance(rd.period)
	agree := 0
	for k := 1; k <= min(rd.n, agreeingGaps); k++ {
		dev := (rd.gaps[(rd.n-k)%gapsKept] - rd.period).Abs()
		if dev > tol {
			break
		}
		rd.jitter = max(rd.jitter, dev)
		agree++
	}
	rd.periodic = agree >= leastGaps
	if !rd.periodic {
		rd.jitter = 0
	} else {
		rd.steadyAt = rd.last
	}
}

// steadyLately reports whether the reader was periodic at one of its last
// agreeingGaps fetches: a stall under load makes a reader aperiodic for a
// few fetches; one that stays so has changed its ways.
func (rd *fetchReader) steadyLately() bool {
	lately := agreeingGaps * (rd.period + periodTolerance(rd.period))
	return rd.periodic || (!rd.steadyAt.IsZero() && rd.last.Sub(rd.steadyAt) <= lately)
}

// expire releases the readers gone quiet by now: no fetch for two
// periods and a second, or for unknownWait before a period is known.
func (rs *readerSet) expire(now time.Time) {
	rs.list = slices.DeleteFunc(rs.list, func(rd *fetchReader) bool {
		wait := unknownWait
		if rd.n > 0 {
			wait = 2*rd.period + time.Second
		}
		return now.Sub(rd.last) > wait
	})
}

// forget releases client's reader: pmcd says the client has gone.
func (rs *readerSet) forget(client int32) {
	rs.list = slices.DeleteFunc(rs.list, func(rd *fetchReader) bool { return rd.client == client })
}

// nextFetch is the reader's first predicted fetch after t.
func (rd *fetchReader) nextFetch(t time.Time) time.Time {
	f := rd.last.Add(rd.period)
	if f.After(t) {
		return f
	}
	k := t.Sub(f)/rd.period + 1
	return f.Add(k * rd.period)
}

// periodicCount is how many tracked readers are periodic.
func (rs *readerSet) periodicCount() int {
	n := 0
	for _, rd := range rs.list {
		if rd.periodic {
			n++
		}
	}
	return n
}

// oldestServed is the largest age of the sample a periodic reader's
// latest fetch got; false when no periodic reader has one.
func (rs *readerSet) oldestServed() (time.Duration, bool) {
	var oldest time.Duration
	found := false
	for _, rd := range rs.list {
		if rd.periodic && rd.servedKnown {
			oldest, found = max(oldest, rd.served), true
		}
	}
	return oldest, found
}

// describe says, for an administrator, each reader with a known period:
// its period and phase, its jitter, how old its latest sample was, and
// how the plan serves it.
func (rs *readerSet) describe() string {
	var b strings.Builder
	for _, rd := range rs.list {
		if rd.n == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "client %d: ", rd.client)
		if rd.periodic {
			phase := time.Duration(rd.last.UnixNano()) % rd.period
			fmt.Fprintf(&b, "every %d ms at +%d ms, jitter %d ms",
				rd.period.Milliseconds(), phase.Milliseconds(), rd.jitter.Milliseconds())
		} else {
			fmt.Fprintf(&b, "not periodic (median gap %d ms)", rd.period.Milliseconds())
		}
		if rd.servedKnown {
			fmt.Fprintf(&b, ", served %d ms old", rd.served.Milliseconds())
		}
		b.WriteString(rd.role.words())
	}
	return b.String()
}

// words says how a reader is served, for describe.
func (role readerRole) words() string {
	switch role {
	case rolePrimary:
		return ", the grid follows it"
	case roleExtra:
		return ", extra samples"
	}
	return ", from the grid"
}
