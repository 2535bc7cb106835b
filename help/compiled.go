package help

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/pmdahostcache/pmdahostcache/internal/regularfile"
)

// Compiled is another agent's help as newhelp compiles it: base.dir, an
// index of (identifier, offset of the one-line text, offset of the long
// text) triples, and base.pag, the NUL-terminated texts. The stand-in
// reads pmdalinux's, so pmdalinux's names keep pmdalinux's help and
// archives logged before and after the switch carry the same text.
type Compiled struct {
	metrics map[uint32]entry // by PMID
	indoms  map[uint32]entry // by InDom
}

// The index's first triple is a header: a magic number, a version word,
// and the number of triples that follow. An instance domain's triple has
// the identifier's top bit set, which no PMID has.
const (
	compiledMagic   = 0x50635068
	compiledVersion = 0x31320000
	compiledInDom   = 1 << 31
	indexEntrySize  = 12
	maxCompiledDir  = 1 << 20 // 87381 entries: sixty times pmdalinux's
	maxCompiledPag  = 8 << 20 // fifty times pmdalinux's texts
)

// ReadCompiled loads base.dir and base.pag. The files are host-endian, as
// newhelp writes them on the host that reads them.
func ReadCompiled(base string) (*Compiled, error) {
	dir, err := regularfile.Read(base+".dir", maxCompiledDir)
	if err != nil {
		return nil, err
	}
	pag, err := regularfile.Read(base+".pag", maxCompiledPag)
	if err != nil {
		return nil, err
	}
	c, err := parseCompiled(dir, pag)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", base, err)
	}
	return c, nil
}

var errCompiled = errors.New("not a compiled help index")

func parseCompiled(dir, pag []byte) (*Compiled, error) {
	if len(dir) < indexEntrySize {
		return nil, errCompiled
	}
	word := func(i int) uint32 { return binary.NativeEndian.Uint32(dir[i:]) }
	if word(0) != compiledMagic || word(4)&0xffff0000 != compiledVersion {
		return nil, errCompiled
	}
	n := int(word(8))
	if n < 0 || n > len(dir)/indexEntrySize-1 {
		return nil, fmt.Errorf("index of %d entries in %d bytes", n, len(dir))
	}
	c := &Compiled{metrics: map[uint32]entry{}, indoms: map[uint32]entry{}}
	texts := newTextPages(pag)
	for i := 1; i <= n; i++ {
		at := i * indexEntrySize
		one, err := texts.at(word(at + 4))
		if err != nil {
			return nil, fmt.Errorf("entry %d: one-line text: %w", i, err)
		}
		long, err := texts.at(word(at + 8))
		if err != nil {
			return nil, fmt.Errorf("entry %d: long text: %w", i, err)
		}
		c.add(word(at), entry{oneLine: one, long: long})
	}
	return c, nil
}

// add indexes an entry. An identifier may have several (a help source
// that names a metric twice); libpcp_pmda answers a metric with its first
// and an instance domain with its last, and so does Compiled.
func (c *Compiled) add(ident uint32, e entry) {
	if ident&compiledInDom != 0 {
		c.indoms[ident&^compiledInDom] = e
		return
	}
	if _, seen := c.metrics[ident]; !seen {
		c.metrics[ident] = e
	}
}

// textPages is the .pag file as one string, with the offset of each of
// its NULs: every text is a substring, found by a binary search for the
// NUL that ends it. However the index points into the file, reading it
// costs one copy of the file and a search per entry.
type textPages struct {
	all  string
	nuls []uint32
}

func newTextPages(pag []byte) textPages {
	t := textPages{all: string(pag)}
	for i, b := range pag {
		if b == 0 {
			t.nuls = append(t.nuls, uint32(i))
		}
	}
	return t
}

// at is the NUL-terminated text at off.
func (t textPages) at(off uint32) (string, error) {
	if uint64(off) >= uint64(len(t.all)) {
		return "", fmt.Errorf("offset %d past the %d bytes of texts", off, len(t.all))
	}
	i, _ := slices.BinarySearch(t.nuls, off)
	if i == len(t.nuls) {
		return "", fmt.Errorf("text at %d has no end", off)
	}
	return t.all[off:t.nuls[i]], nil
}

// Metric is the help of a PMID, one-line or long, and whether the agent
// that compiled it has the PMID. An empty text is what that agent
// answers: an empty TEXT, after which its clients ask for the one-line
// text.
func (c *Compiled) Metric(pmid uint32, long bool) (string, bool) {
	e, ok := c.metrics[pmid]
	return e.exact(long), ok
}

// InDom is the help of an instance domain, one-line or long, and whether
// the agent that compiled it has the domain.
func (c *Compiled) InDom(indom uint32, long bool) (string, bool) {
	e, ok := c.indoms[indom]
	return e.exact(long), ok
}

func (e entry) exact(long bool) string {
	if long {
		return e.long
	}
	return e.oneLine
}

// Len is the number of metrics and instance domains with help.
func (c *Compiled) Len() int { return len(c.metrics) + len(c.indoms) }
