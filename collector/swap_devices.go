package collector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// readSwaps reads and parses /proc/swaps into c.areas; a kernel without
// swap support has no such file, which is no swap areas.
func (c *swapCollector) readSwaps() error {
	var err error
	c.buf, err = c.swaps.Read(c.buf)
	if errors.Is(err, fs.ErrNotExist) {
		c.areas = c.areas[:0]
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading swaps: %w", err)
	}
	if c.areas, err = kernel.ParseSwaps(c.buf, c.areas); err != nil {
		return fmt.Errorf("reading swaps: %w", err)
	}
	return nil
}

// publishSwapdevs publishes the swap areas. As pmdalinux does, it takes
// only lines naming a path (starting with "/"), names each area by that
// path as the kernel prints it, and ignores a repeated name. The area's
// kind ("partition" or "file") is its "type" label.
//
// Which areas are shown, under which ids and labels, depends only on the
// names and types of the lines, in order: while those are as in the last
// sample (as they nearly always are), the instances are kept as they are
// and only the sizes are read.
func (c *swapCollector) publishSwapdevs(b *cache.Builder, areas []kernel.SwapArea) {
	key := c.nextKey[:0]
	for _, a := range areas {
		key = binary.AppendUvarint(key, uint64(len(a.Name)))
		key = append(key, a.Name...)
		key = binary.AppendUvarint(key, uint64(len(a.Type)))
		key = append(key, a.Type...)
	}
	if c.insts == nil || !bytes.Equal(key, c.key) {
		c.chooseSwapdevs(areas)
		c.key, key = key, c.key
	}
	c.nextKey = key
	b.SetInDom(indomSwapdev, c.insts)
	for _, sh := range c.shown {
		s, id := &areas[sh.line], sh.id
		size, used := uint64(max(s.Size, 0)), uint64(max(s.Used, 0))
		b.SetU64(swapdevFree.ID, id, size-min(used, size))
		b.SetU64(swapdevLength.ID, id, size)
		b.SetU64(swapdevMaxSwap.ID, id, size)
		// pmdalinux always reports 0: Linux has no virtual swap.
		b.SetU64(swapdevVLength.ID, id, 0)
		b.SetI64(swapdevPriority.ID, id, s.Priority)
	}
}

// chooseSwapdevs picks the areas to publish and their instances.
func (c *swapCollector) chooseSwapdevs(areas []kernel.SwapArea) {
	list := make([]cache.Instance, 0, len(areas))
	c.shown = c.shown[:0]
	seen := map[string]bool{}
	for i, a := range areas {
		name := string(a.Name)
		if !strings.HasPrefix(name, "/") || seen[name] || !c.filter.Keep("swapdev", name) {
			continue
		}
		seen[name] = true
		id := c.ids.ID(name)
		c.shown = append(c.shown, swapShown{line: i, id: id})
		list = append(list, cache.Instance{
			ID: id, Name: name,
			Labels: []cache.Label{cache.StringLabel("type", string(a.Type))},
		})
	}
	if c.insts == nil || !hostkit.SameHostInstances(c.insts.All(), list) {
		c.insts = cache.NewInstances(list)
	}
}
