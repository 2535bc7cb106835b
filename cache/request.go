package cache

import "time"

// Request is one read of the cache: the snapshot it reads, the time it is
// read at, and the pmcd client asking. Metrics computed over a client's own
// interval (rates, peaks) use Client to find where that client left off.
type Request struct {
	Snap   *Snapshot
	Now    time.Time
	Client int32 // pmcd's client index (a PDU's from), or NoClient
	// Who is the client's user, as pmcd described it: metrics whose
	// Access is not AccessAll give it only the values it may read.
	Who Credentials
	// Controls are the process controls: the control metrics give the
	// client's settings from them. Nil reads as every control off.
	Controls *ProcControls
	// Present, when set, lists the instances that exist as of the fetch
	// for domains whose source is late: the others are left out.
	Present *Present
}

// NoClient marks a read made on no client's behalf: metrics computed over a
// client's interval treat it as a first fetch, and remember nothing of it.
const NoClient int32 = -1

// AppendValues appends the values of metric d, as this request sees them,
// to dst.
func (r *Request) AppendValues(dst []Value, d *Desc) []Value {
	if d.Control != ControlNone {
		// A control's value is the client's setting: no source is read.
		return r.appendControl(dst, d)
	}
	if r.Client != NoClient {
		if i, ok := r.Snap.Schema.index(d.ID); ok {
			r.Snap.Schema.noteRead(i, r.Client, r.Now)
		}
	}
	start := len(dst)
	if d.Compute != nil {
		dst = d.Compute(r, dst)
	} else {
		dst = r.Snap.published(dst, d, r.Now)
	}
	dst = r.withhold(dst, start, d)
	return r.Present.keep(dst, start, d.InDom)
}

// Clients is told when a pmcd client goes away, so that whatever was kept
// for its interval can be freed.
type Clients interface {
	Forget(client int32)
}
