package proc

import (
	"fmt"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// pmstore of the hotproc controls, as pmdaproc takes them: root alone
// may store; refresh in seconds, config a predicate ("" turns hotproc
// off), reload_config any value to read hotproc.conf again.

// CheckStore checks a store of a hotproc control.
func (c *processCollector) CheckStore(q cache.PMStoreRequest) error {
	_, err := c.hotRequest(q)
	if err != nil && q.ID == hotConfigCtl.ID {
		c.hot.warn(fmt.Errorf("hostcache.hotproc.control.config not stored: %w", err))
	}
	return err
}

// Store applies a checked store of a hotproc control.
func (c *processCollector) Store(q cache.PMStoreRequest) error {
	p, err := c.hotRequest(q)
	if err != nil {
		return err
	}
	h := c.hot
	switch q.ID {
	case hotRefreshCtl.ID:
		h.mu.Lock()
		h.refresh = uint32(q.Value.Bits)
		h.mu.Unlock()
	case hotConfigCtl.ID:
		h.set(p)
	case hotReloadCtl.ID:
		h.load()
	}
	return nil
}

// hotRequest checks a request, and parses a stored configuration.
func (c *processCollector) hotRequest(q cache.PMStoreRequest) (predicate, error) {
	switch q.ID {
	case hotRefreshCtl.ID, hotConfigCtl.ID, hotReloadCtl.ID:
	default:
		return nil, cache.ErrReadOnly
	}
	if !q.Who.Known || q.Who.UID != 0 {
		return nil, fmt.Errorf("%w: only root may store the hotproc controls", cache.ErrNotAllowed)
	}
	switch q.ID {
	case hotRefreshCtl.ID:
		if v := uint32(q.Value.Bits); v < 1 || v > maxHotRefresh {
			return nil, fmt.Errorf("%w: refresh %d: 1 to %d seconds", cache.ErrOutOfRange, v, maxHotRefresh)
		}
	case hotConfigCtl.ID:
		p, err := parsePredicate(q.Value.Str)
		if err != nil {
			return nil, fmt.Errorf("%w: hotproc predicate: %v", cache.ErrOutOfRange, err)
		}
		return p, nil
	}
	return nil, nil
}
