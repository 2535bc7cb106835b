package cache

import "sync"

// ProcControl names one of pmdaproc's process controls, which each pmcd
// client sets for itself (pmstore in its own context).
type ProcControl uint8

const (
	// ControlNone: an ordinary metric.
	ControlNone ProcControl = iota
	// ControlAllThreads: whether the clients that set nothing of their
	// own see threads (proc.control.all.threads).
	ControlAllThreads
	// ControlClientThreads: whether this client sees threads
	// (proc.control.perclient.threads).
	ControlClientThreads
	// ControlClientCgroups: the cgroup path this client stored
	// (proc.control.perclient.cgroups).
	ControlClientCgroups
)

// ProcControls keeps the process controls: the threads default and each
// client's own settings. Every server of the agent shares one, as pmcd
// numbers its clients once for all its agents. A client's settings end
// when pmcd says it has gone (Forget). It is safe for concurrent use.
type ProcControls struct {
	mu         sync.Mutex
	allThreads bool
	clients    map[int32]clientControls
}

// clientControls is what one client stored.
type clientControls struct {
	threads, hasThreads bool
	cgroup              string
}

// NewProcControls returns controls with threads off and no client's
// settings.
func NewProcControls() *ProcControls {
	return &ProcControls{clients: map[int32]clientControls{}}
}

// AllThreads reports the default of the clients that set nothing.
func (c *ProcControls) AllThreads() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.allThreads
}

// SetAllThreads sets the default of the clients that set nothing.
func (c *ProcControls) SetAllThreads(on bool) {
	c.mu.Lock()
	c.allThreads = on
	c.mu.Unlock()
}

// Threads reports whether client sees threads: its own setting, else the
// default.
func (c *ProcControls) Threads(client int32) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if own, ok := c.clients[client]; ok && own.hasThreads {
		return own.threads
	}
	return c.allThreads
}

// SetThreads sets client's own threads setting.
func (c *ProcControls) SetThreads(client int32, on bool) {
	c.mu.Lock()
	own := c.clients[client]
	own.threads, own.hasThreads = on, true
	c.clients[client] = own
	c.mu.Unlock()
}

// Cgroup returns the cgroup path client stored, or "".
func (c *ProcControls) Cgroup(client int32) string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clients[client].cgroup
}

// SetCgroup keeps the cgroup path client stored.
func (c *ProcControls) SetCgroup(client int32, path string) {
	c.mu.Lock()
	own := c.clients[client]
	own.cgroup = path
	c.clients[client] = own
	c.mu.Unlock()
}

// Forget drops client's settings: pmcd said it has gone, and may give its
// number to a new client.
func (c *ProcControls) Forget(client int32) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.clients, client)
	c.mu.Unlock()
}

// appendControl appends the value of control metric d as r's client sees
// it.
func (r *Request) appendControl(dst []Value, d *Desc) []Value {
	switch d.Control {
	case ControlAllThreads:
		return append(dst, U32Value(InstNone, boolWord(r.Controls.AllThreads())))
	case ControlClientThreads:
		return append(dst, U32Value(InstNone, boolWord(r.Controls.Threads(r.Client))))
	case ControlClientCgroups:
		return append(dst, StringValue(InstNone, r.Controls.Cgroup(r.Client)))
	}
	return dst
}

func boolWord(on bool) uint32 {
	if on {
		return 1
	}
	return 0
}
