package proc

import (
	"bytes"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// longTextGroup is one long per-process text: psinfo.environ or
// memory.maps. Both files are the owner's alone (the kernel's ptrace
// check). Each text is cut to maxLongText and a sample's texts together
// to longTextsPerSample, so that 10,000 processes stay bounded.
type longTextGroup struct {
	desc cache.Desc
	file string
	// shape turns the bounded text read into the value; whole is false
	// when the file went on past the bound.
	shape func(text []byte, whole bool) []byte
	kept  *texts
	buf   []byte
}

var (
	environDesc = owned(psinfoRow("hostcache.proc.psinfo.environ", 47, cache.TypeString, cache.SemInstant,
		cache.UnitsNone))
	mapsDesc = owned(processRow("hostcache.proc.memory.maps", clusterMemory, 7, cache.TypeString,
		cache.SemInstant, cache.UnitsNone))
)

func newEnvironGroup() group {
	return &longTextGroup{desc: environDesc, file: "environ", shape: environText, kept: newTexts()}
}

func newMapsGroup() group {
	return &longTextGroup{desc: mapsDesc, file: "maps", shape: mapsText, kept: newTexts()}
}

func (g *longTextGroup) metrics() []cache.Desc { return []cache.Desc{g.desc} }

func (g *longTextGroup) sample(rd *reader, pids []int32, b *cache.Builder) {
	g.kept.begin()
	budget := longTextsPerSample
	for _, pid := range pids {
		text, whole, err := kernel.ReadFilePrefix(rd.pathOf(pid, g.file), g.buf, maxLongText)
		g.buf = text
		switch {
		case refusedAsEmpty(err):
			b.SetString(g.desc.ID, uint32(pid), "")
			continue
		case err != nil:
			continue
		}
		text = g.shape(text, whole)
		if len(text) > budget {
			continue
		}
		budget -= len(text)
		b.SetString(g.desc.ID, uint32(pid), g.kept.of(pid, text))
	}
	g.kept.sweep()
}

// environText is the environment as pmdaproc prints it: the variables
// apart by spaces (each NUL, the last one too, a space, and the final
// byte dropped). A cut text keeps its whole variables only.
func environText(text []byte, whole bool) []byte {
	if !whole {
		text = text[:bytes.LastIndexByte(text, 0)+1]
	}
	for i, c := range text {
		if c == 0 {
			text[i] = ' '
		}
	}
	if len(text) > 0 {
		text = text[:len(text)-1]
	}
	return text
}

// mapsText is the maps text as the file has it; a cut text keeps its
// whole lines only.
func mapsText(text []byte, whole bool) []byte {
	if !whole {
		text = text[:bytes.LastIndexByte(text, '\n')+1]
	}
	return text
}
