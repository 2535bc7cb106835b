package collector

import (
	"bytes"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// mountTableRefresh is how long an unchanged mount table is trusted: the
// device links it resolves (/dev/mapper/x -> /dev/dm-0) can change under
// an unchanged table, so they are resolved again once a minute.
const mountTableRefresh = time.Minute

// mountTable is the mounts chosen from one text of mountinfo, with their
// instance ids and statfs paths. A host's mounts rarely change, so while
// the text is byte for byte the same a sample costs one comparison and
// the statfs calls, not a parse, a link resolution per device and an id
// lookup per mount.
type mountTable struct {
	raw    []byte // the mountinfo text the table was chosen from
	mounts []mount
	ids    []uint32
	paths  []string
	chosen time.Time
}

// fresh reports whether raw is the table's text and the table is young
// enough to reuse.
func (t *mountTable) fresh(raw []byte, now time.Time) bool {
	return t.mounts != nil && bytes.Equal(raw, t.raw) && now.Sub(t.chosen) < mountTableRefresh && !now.Before(t.chosen)
}

// choose selects the mounts afresh and gives them ids.
func (c *filesysCollector) choose(b *cache.Builder, raw []byte, now time.Time) error {
	infos, err := c.fs.GetMounts()
	if err != nil {
		return err
	}
	t := &c.table
	t.mounts = t.mounts[:0]
	for _, m := range selectMounts(infos, c.resolve) {
		if c.filter.Keep("filesys", m.device) {
			t.mounts = append(t.mounts, m)
		}
	}
	t.ids = c.publishInstances(b, t.mounts)
	t.paths = t.paths[:0]
	for _, m := range t.mounts {
		t.paths = append(t.paths, m.path)
	}
	t.raw, t.chosen = append(t.raw[:0], raw...), now
	return nil
}
