package pmda

// maxCredClients bounds the clients whose credentials are kept: as many
// as the engine keeps intervals for (engine.DefaultMaxClients), since
// pmcd numbers its clients from 0 and reuses the numbers. Past it the
// client heard from least recently is forgotten: its stores are refused
// until pmcd describes it again.
const maxCredClients = 256

// credTable keeps what pmcd's ATTR PDUs said about each client. It is
// used by the server's one goroutine only.
type credTable struct {
	byClient map[int32]*clientCreds
	max      int
	clock    uint64
}

// clientCreds is one client's user and group, each set once pmcd said it,
// and the container whose view it asked for ("" for the host).
type clientCreds struct {
	uid, gid       uint32
	hasUID, hasGID bool
	container      string
	refusalLogged  bool
	used           uint64
}

func newCredTable(max int) *credTable {
	return &credTable{byClient: map[int32]*clientCreds{}, max: max}
}

// set records one attribute of client from; those that do not identify
// the client are ignored. A value that is not an id is an error and
// changes nothing.
func (t *credTable) set(a *Attr) error {
	if a.Key == AttrContainer {
		t.entry(a.From).container = a.Text()
		return nil
	}
	if a.Key != AttrUserID && a.Key != AttrGroupID {
		return nil
	}
	id, err := a.ID()
	if err != nil {
		return err
	}
	c := t.entry(a.From)
	if a.Key == AttrUserID {
		c.uid, c.hasUID = id, true
	} else {
		c.gid, c.hasGID = id, true
	}
	return nil
}

// entry returns client from's credentials, making room for them if new.
func (t *credTable) entry(from int32) *clientCreds {
	t.clock++
	if c, ok := t.byClient[from]; ok {
		c.used = t.clock
		return c
	}
	if len(t.byClient) >= t.max {
		t.evictOldest()
	}
	c := &clientCreds{used: t.clock}
	t.byClient[from] = c
	return c
}

func (t *credTable) evictOldest() {
	var oldest int32
	var at uint64
	first := true
	for from, c := range t.byClient {
		if first || c.used < at {
			oldest, at, first = from, c.used, false
		}
	}
	delete(t.byClient, oldest)
}

// container is the container whose view client from asked for, if any.
func (t *credTable) container(from int32) (string, bool) {
	c, ok := t.byClient[from]
	if !ok || c.container == "" {
		return "", false
	}
	return c.container, true
}

// noteRefusal reports whether client from's container refusal is the
// first to be logged, and marks it logged.
func (t *credTable) noteRefusal(from int32) bool {
	c, ok := t.byClient[from]
	if !ok || c.refusalLogged {
		return false
	}
	c.refusalLogged = true
	return true
}

// drop forgets client from: pmcd said it has gone.
func (t *credTable) drop(from int32) { delete(t.byClient, from) }
