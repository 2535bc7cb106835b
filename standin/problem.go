package standin

import "fmt"

// Kind says what kept a hostcache metric from being a twin.
type Kind string

const (
	// KindType, KindSem and KindUnits: the descriptor differs from
	// pmdalinux's.
	KindType  Kind = "type"
	KindSem   Kind = "semantics"
	KindUnits Kind = "units"
	// KindInDom: one has an instance domain and the other none, or the
	// metric's internal domain answers as another pmdalinux domain than
	// pmdalinux puts the metric in.
	KindInDom Kind = "indom"
	// KindInDomShared: two internal domains claim one pmdalinux domain;
	// one holds it and the others answer as its aliases.
	KindInDomShared Kind = "indom-shared"
)

// Problem is one reason a would-be twin is not one. Name is the hostcache
// metric, or for KindInDomShared the internal domain that lost.
type Problem struct {
	Kind Kind
	Name string
	Why  string
}

func (p Problem) String() string { return fmt.Sprintf("%s: %s: %s", p.Kind, p.Name, p.Why) }
