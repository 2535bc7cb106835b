package proc

import (
	"errors"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// errInert: a group whose process collector is disabled lists nothing.
var errInert = errors.New("the process collector is disabled")

// listPresent lists the processes below root now, for a fetch the sample
// is late for: pmdaproc lists /proc at each fetch, so a process that
// exited since the newest sample has no value in the fetch here either.
// The hot processes are among them. A thread's id is not listed in
// /proc's directory, so the threads view keeps the sample's threads.
func listPresent(root string, p *cache.Present) error {
	lister := kernel.PIDLister{Root: root}
	pids, err := lister.List(nil)
	if err != nil {
		return err
	}
	ids := make([]uint32, len(pids))
	for i, pid := range pids {
		ids[i] = uint32(pid)
	}
	p.Set(indomProcess, ids)
	p.Set(indomHot, ids) // sorted by the first Set, and only read
	return nil
}

// Present lists the processes that exist now (engine.Lister).
func (c *processCollector) Present(p *cache.Present) error {
	return listPresent(c.reader.root, p)
}

// Present lists the processes that exist now (engine.Lister).
func (c *groupCollector) Present(p *cache.Present) error {
	if c.inert {
		return errInert
	}
	return listPresent(c.rd.root, p)
}
