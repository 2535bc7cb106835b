package collector

import (
	"errors"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// stub stands in for a collector still being written. Delete with the last one.
type stub struct{ name string }

func newStub(name string) Collector                   { return stub{name} }
func (s stub) Name() string                           { return s.name }
func (s stub) Source() cache.Source                   { return cache.Source{Name: s.name} }
func (s stub) Sample(*cache.Builder, time.Time) error { return errors.New("not implemented") }
