package collector

import (
	"bytes"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// mountTableRefresh is how long an unchanged mount table is trusted: the
// device links it resolves (/dev/mapper/x -> /dev/dm-0) can change under
// an unchanged table, so they are checked again once a minute (longer
// while no client reads the source: paced): the links resolved again, the
// names that were not links by the stamps of their directories.
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
	paths  []string // the mounts' paths, then the tmpfs mounts'
	chosen time.Time
	// links is every device name the choice resolved, with what it
	// resolved to: once a minute they are resolved again, and the table
	// is chosen afresh only if one now leads elsewhere.
	links []resolvedLink
	// stamps are the directories on the way to the names that resolved
	// to themselves (filesys_stamps.go); while they hold and are trusted,
	// only the names that are links are resolved again.
	stamps        []dirStamp
	stampsTrusted bool
	// tmpfs and tmpfsIDs are the tmpfs mounts, named by mount point: no
	// link to resolve again.
	tmpfs    []mount
	tmpfsIDs []uint32
}

// resolvedLink is a device name as mountinfo gives it and where it led.
type resolvedLink struct {
	name, to string
}

// fresh reports whether raw is the table's text and the table is younger
// than refresh.
func (t *mountTable) fresh(raw []byte, now time.Time, refresh time.Duration) bool {
	return t.mounts != nil && bytes.Equal(raw, t.raw) && now.Sub(t.chosen) < refresh && !now.Before(t.chosen)
}

// linksHold reports, for a table whose text is unchanged but whose minute
// is up, whether every device name still resolves where it did; if so the
// table is trusted for another minute without parsing mountinfo again.
func (c *filesysCollector) linksHold(raw []byte, now time.Time) bool {
	t := &c.table
	if t.mounts == nil || !bytes.Equal(raw, t.raw) {
		return false
	}
	if t.stampsTrusted && stampsHold(t.stamps) {
		for _, l := range t.links {
			if l.name != l.to && c.resolve(l.name) != l.to {
				return false
			}
		}
		t.chosen = now
		return true
	}
	stamps := c.newStamps()
	for _, l := range t.links {
		if l.name == l.to {
			stamps.add(l.name)
		}
		if c.resolve(l.name) != l.to {
			return false
		}
	}
	t.stamps, t.stampsTrusted = stamps.stamps, stamps.trusted
	t.chosen = now
	return true
}

// newStamps starts the stamps of a table's device names.
func (c *filesysCollector) newStamps() *stampSet {
	return newStampSet(c.devRoot, c.wall)
}

// choose selects the mounts afresh and gives them ids.
func (c *filesysCollector) choose(b *cache.Builder, raw []byte, now time.Time) error {
	infos, err := c.fs.GetMounts()
	if err != nil {
		return err
	}
	t := &c.table
	t.mounts, t.links = t.mounts[:0], t.links[:0]
	stamps := c.newStamps()
	resolve := func(name string) string {
		// Stamped first: a change after the stamp shows in it.
		stamps.add(name)
		to := c.resolve(name)
		t.links = append(t.links, resolvedLink{name, to})
		return to
	}
	for _, m := range selectMounts(infos, resolve) {
		if c.filter.Keep("filesys", m.device) {
			t.mounts = append(t.mounts, m)
		}
	}
	t.ids = c.publishInstances(b, t.mounts)
	t.tmpfs = selectTmpfs(infos)
	t.tmpfsIDs = c.publishTmpfs(b, t.tmpfs)
	t.paths = t.paths[:0]
	for _, ms := range [][]mount{t.mounts, t.tmpfs} {
		for _, m := range ms {
			t.paths = append(t.paths, m.path)
		}
	}
	t.raw, t.chosen = append(t.raw[:0], raw...), now
	t.stamps, t.stampsTrusted = stamps.stamps, stamps.trusted
	return nil
}
