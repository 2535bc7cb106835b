package standin

import (
	"fmt"
	"sort"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// chooseInDoms gives each internal domain with twins the pmdalinux domain
// most of its twins are in (the lowest serial on a tie); a twin pmdalinux
// puts elsewhere is a twin no more.
func (b *builder) chooseInDoms() {
	for _, in := range b.twinDomains() {
		votes := map[cache.InDomID]int{}
		twins := b.twinsOn(in)
		for _, d := range twins {
			votes[b.twin[d.ID].InDom]++
		}
		chosen := mostVoted(votes)
		b.indomTo[in] = chosen
		for _, d := range twins {
			if got := b.twin[d.ID].InDom; got != chosen {
				b.demote(d,
					"its domain %s answers as %s, as %d other twins on it do; %s puts it in %s",
					b.indomText(in), b.agent.inDomText(chosen), votes[chosen], b.agent.program(),
					b.agent.inDomText(got))
			}
		}
	}
}

// settleSharedInDoms lets one internal domain hold each pmdalinux domain:
// the one with the most twins (the lowest serial on a tie). The others
// become its aliases: their twins answer in the held domain, whose
// instances are the holder's, as pmdalinux's come from one source (the
// CPUs of /proc/stat, the nodes of sysfs). Each alias numbers and names
// its instances as the holder does (the CPU or node number), so its
// values need only be limited to the holder's instances.
func (b *builder) settleSharedInDoms() {
	claims := map[cache.InDomID][]cache.InDomID{}
	for _, in := range b.twinDomains() {
		claims[b.indomTo[in]] = append(claims[b.indomTo[in]], in)
	}
	for _, serial := range sortedKeys(claims) {
		ins := claims[serial]
		if len(ins) < 2 {
			continue
		}
		holder := ins[0]
		for _, in := range ins[1:] {
			if len(b.twinsOn(in)) > len(b.twinsOn(holder)) {
				holder = in
			}
		}
		for _, in := range ins {
			if in != holder {
				b.release(in, holder, serial)
			}
		}
	}
}

// release makes internal domain in an alias of holder, which holds
// pmdalinux domain serial.
func (b *builder) release(in, holder, serial cache.InDomID) {
	b.add(KindInDomShared, b.indomText(in),
		"claims %s for %d twins; %s holds it with %d, and %s answers as its alias",
		b.agent.inDomText(serial), len(b.twinsOn(in)), b.indomText(holder), len(b.twinsOn(holder)),
		b.indomText(in))
	b.alias[in] = holder
}

// twinDomains lists the internal domains that have twins, by serial.
func (b *builder) twinDomains() []cache.InDomID {
	seen := map[cache.InDomID]bool{}
	for _, d := range b.descs {
		if _, ok := b.twin[d.ID]; ok && d.InDom != cache.InDomNone {
			seen[d.InDom] = true
		}
	}
	return sortedKeys(seen)
}

// mostVoted returns the key with the most votes, the lowest on a tie.
func mostVoted(votes map[cache.InDomID]int) cache.InDomID {
	var best cache.InDomID
	for i, k := range sortedKeys(votes) {
		if i == 0 || votes[k] > votes[best] {
			best = k
		}
	}
	return best
}

func sortedKeys[V any](m map[cache.InDomID]V) []cache.InDomID {
	keys := make([]cache.InDomID, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// indomText names an internal domain in a problem: "12 (cpusys)".
func (b *builder) indomText(in cache.InDomID) string {
	if in == cache.InDomNone {
		return "none"
	}
	if name := b.indomName[in]; name != "" {
		return fmt.Sprintf("%d (%s)", in, name)
	}
	return fmt.Sprint(uint32(in))
}

// unitsText writes units as dimensions and scales, enough to tell two apart.
func unitsText(u cache.Units) string {
	return fmt.Sprintf("dim(space %d, time %d, count %d) scale(%d, %d, %d)",
		u.DimSpace(), u.DimTime(), u.DimCount(), u.ScaleSpace(), u.ScaleTime(), u.ScaleCount())
}
