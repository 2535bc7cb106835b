package collector

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/prometheus/procfs"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// readSwaps reads /proc/swaps; a kernel without swap support has no such
// file, which is no swap areas.
func readSwaps(pfs procfs.FS) ([]*procfs.Swap, error) {
	swaps, err := pfs.Swaps()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading swaps: %w", err)
	}
	return swaps, nil
}

// publishSwapdevs publishes the swap areas. As pmdalinux does, it takes
// only lines naming a path (starting with "/"), names each area by that
// path as the kernel prints it, and ignores a repeated name. The area's
// kind ("partition" or "file") is its "type" label.
func (c *swapCollector) publishSwapdevs(b *cache.Builder, swaps []*procfs.Swap) {
	list := make([]cache.Instance, 0, len(swaps))
	var areas []*procfs.Swap
	seen := map[string]bool{}
	for _, s := range swaps {
		if !strings.HasPrefix(s.Filename, "/") || seen[s.Filename] || !c.filter.Keep("swapdev", s.Filename) {
			continue
		}
		seen[s.Filename] = true
		areas = append(areas, s)
		list = append(list, cache.Instance{
			ID: c.ids.ID(s.Filename), Name: s.Filename,
			Labels: []cache.Label{cache.StringLabel("type", s.Type)},
		})
	}
	if c.insts == nil || !sameHostInstances(c.insts.All(), list) {
		c.insts = cache.NewInstances(list)
	}
	b.SetInDom(indomSwapdev, c.insts)
	for i, s := range areas {
		id := list[i].ID
		size, used := uint64(max(s.Size, 0)), uint64(max(s.Used, 0))
		b.SetU64(swapdevFree.ID, id, size-min(used, size))
		b.SetU64(swapdevLength.ID, id, size)
		b.SetU64(swapdevMaxSwap.ID, id, size)
		// pmdalinux always reports 0: Linux has no virtual swap.
		b.SetU64(swapdevVLength.ID, id, 0)
		b.SetI64(swapdevPriority.ID, id, int64(s.Priority))
	}
}
