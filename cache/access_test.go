package cache

import (
	"slices"
	"testing"
	"time"
)

// accessSnapshot publishes one value of three metrics, one for each
// Access, on two processes: 100 owned by uid 1000 gid 100, 1 by root.
func accessSnapshot(t *testing.T) (*Snapshot, []Desc) {
	t.Helper()
	descs := []Desc{
		{Name: "all", ID: NewMetricID(3, 0), Type: TypeU64, Sem: SemInstant, InDom: 9},
		{Name: "known", ID: NewMetricID(3, 1), Type: TypeU64, Sem: SemInstant, InDom: 9, Access: AccessKnown},
		{Name: "owner", ID: NewMetricID(3, 2), Type: TypeU64, Sem: SemCounter, InDom: 9, Access: AccessOwner},
	}
	s, err := NewSchema(Source{Name: "proc", Metrics: descs, InDoms: []InDomDesc{{ID: 9, Name: "proc"}}})
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBuilder(0, time.Now())
	b.SetInDom(9, NewInstances([]Instance{
		{ID: 1, Name: "000001 init"},
		{ID: 100, Name: "000100 sh", Owner: Owner{UID: 1000, GID: 100}},
	}))
	for _, d := range descs {
		b.SetU64(d.ID, 1, 7)
		b.SetU64(d.ID, 100, 8)
	}
	p, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	front := NewFront(s)
	front.Publish(0, p)
	return front.Load(), descs
}

// Each client gets what pmdaproc, answering as that client's user, would
// give it: a client pmcd named nothing about gets the public metrics
// only, another user no owner-only value of root's process, root every
// value.
func TestAccessWithholdsByClient(t *testing.T) {
	snap, descs := accessSnapshot(t)
	cases := []struct {
		name string
		who  Credentials
		want [3][]uint32 // instances of all, known, owner
	}{
		{"no credentials", Credentials{}, [3][]uint32{{1, 100}, nil, nil}},
		{"root", Credentials{Known: true}, [3][]uint32{{1, 100}, {1, 100}, {1, 100}}},
		{"the owner", Credentials{UID: 1000, GID: 100, Known: true}, [3][]uint32{{1, 100}, {1, 100}, {100}}},
		{"the owner's uid in another group", Credentials{UID: 1000, GID: 5, Known: true},
			[3][]uint32{{1, 100}, {1, 100}, nil}},
		{"nobody", Credentials{UID: 65534, GID: 65534, Known: true}, [3][]uint32{{1, 100}, {1, 100}, nil}},
	}
	for _, c := range cases {
		r := Request{Snap: snap, Now: time.Now(), Client: NoClient, Who: c.who}
		for i := range descs {
			var got []uint32
			for _, v := range r.AppendValues(nil, &descs[i]) {
				got = append(got, v.Inst)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want[i]) {
				t.Errorf("%s reads %s on instances %v, want %v", c.name, descs[i].Name, got, c.want[i])
			}
		}
	}
}

// Values appended before the metric's own are never touched.
func TestAccessKeepsEarlierValues(t *testing.T) {
	snap, descs := accessSnapshot(t)
	r := Request{Snap: snap, Now: time.Now(), Client: NoClient, Who: Credentials{UID: 1, GID: 1, Known: true}}
	dst := r.AppendValues([]Value{{Inst: 42}}, &descs[2])
	if len(dst) != 1 || dst[0].Inst != 42 {
		t.Errorf("got %v, want the earlier value alone", dst)
	}
}
