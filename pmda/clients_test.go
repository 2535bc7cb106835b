package pmda

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// tClient is a computed metric whose value is the client it is read for.
var tClient = cache.Desc{Name: "t.client", ID: cache.NewMetricID(2, 0), Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone,
	Compute: func(r *cache.Request, dst []cache.Value) []cache.Value {
		return append(dst, cache.I32Value(cache.InstNone, r.Client))
	}}

// forgetting records the clients the server was told have gone.
type forgetting struct {
	mu     sync.Mutex
	forgot []int32
}

func (f *forgetting) Forget(c int32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgot = append(f.forgot, c)
}

func (f *forgetting) list() []int32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int32(nil), f.forgot...)
}

// A fetch's computed metrics are read for the client pmcd names in the
// header (its from), and pmcd's NOTCONN for a client reaches Clients.
func TestFetchIsReadForItsClient(t *testing.T) {
	schema, err := cache.NewSchema(cache.Source{Name: "c", Metrics: []cache.Desc{tClient}})
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	clients := &forgetting{}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := NewServer(Config{Name: "hostcache", Domain: testDomain, Front: front, Texts: testTexts{},
		Clients: clients, Log: testLog(t), MaxLen: 4096}, inR, outW)
	p := &pmcdSide{t: t, toSrv: inW, fromS: outR, done: make(chan error, 1)}
	go func() {
		err := srv.Handshake(4242)
		if err == nil {
			err = srv.Serve(context.Background())
		}
		outW.Close()
		p.done <- err
	}()
	p.read()
	p.send(capture(t, "creds_pmcd"))
	t.Cleanup(func() { inW.Close() })

	req := (&Fetch{PMIDs: []uint32{wirePMID(tClient)}}).Append(nil)
	for _, from := range []int32{0, 3, 17} {
		_, reply := p.roundTrip(withFrom(req, from))
		var res Result
		if err := res.Decode(reply); err != nil || len(res.Sets) != 1 || int32(res.Sets[0].Values[0].Word) != from {
			t.Errorf("fetch from client %d read for %s", from, words(reply))
		}
	}
	p.send(withFrom(capture(t, "notconn"), 17)) // no reply is due
	_, reply := p.roundTrip(withFrom(req, 3))   // the stream is still in step
	var res Result
	if res.Decode(reply) != nil || int32(res.Sets[0].Values[0].Word) != 3 {
		t.Errorf("after NOTCONN: %s", words(reply))
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(clients.list()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := clients.list(); len(got) != 1 || got[0] != 17 {
		t.Errorf("forgotten clients %v, want [17]", got)
	}
}
