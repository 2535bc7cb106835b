package cache

import "fmt"

// threadViews maps the metrics and instance domains that have a threads
// view to the descriptors that give it: pmdaproc shows a client that asks
// for threads every thread as an instance of the process domain, and the
// agent samples the threads into metrics of their own, which a request in
// the threads view reads in the processes' place.
type threadViews struct {
	metrics map[MetricID]int // the shown metric's id: the view's schema index
	indoms  map[InDomID]InDomID
}

// buildThreadViews indexes the threads views of the schema's metrics and
// instance domains. A view of a metric the schema lacks (its collector
// disabled) is never read; a second view of one metric is an error.
func (s *Schema) buildThreadViews() error {
	s.views = threadViews{metrics: map[MetricID]int{}, indoms: map[InDomID]InDomID{}}
	for _, in := range s.indoms {
		if in.Threads {
			s.views.indoms[in.ThreadsOf] = in.ID
		}
	}
	for i, d := range s.descs {
		if !d.Threads {
			continue
		}
		if _, dup := s.views.metrics[d.ThreadsOf]; dup {
			return fmt.Errorf("metric %s: metric %s has two threads views", d.Name, d.ThreadsOf)
		}
		s.views.metrics[d.ThreadsOf] = i
	}
	return nil
}

// ThreadView returns the metric a request in the threads view reads in
// metric id's place, if id has one.
func (s *Schema) ThreadView(id MetricID) (*Desc, bool) {
	i, ok := s.views.metrics[id]
	if !ok {
		return nil, false
	}
	return &s.descs[i], true
}

// ThreadInDom returns the instance domain a client in the threads view
// lists in domain id's place, if id has one.
func (s *Schema) ThreadInDom(id InDomID) (InDomID, bool) {
	t, ok := s.views.indoms[id]
	return t, ok
}
