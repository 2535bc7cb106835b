package help

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
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
	maxCompiledDir  = 4 << 20  // 349525 entries: ten times a big agent's
	maxCompiledPag  = 64 << 20 // every text of such an agent, with room
)

// ReadCompiled loads base.dir and base.pag. The files are host-endian, as
// newhelp writes them on the host that reads them.
func ReadCompiled(base string) (*Compiled, error) {
	dir, err := readBounded(base+".dir", maxCompiledDir)
	if err != nil {
		return nil, err
	}
	pag, err := readBounded(base+".pag", maxCompiledPag)
	if err != nil {
		return nil, err
	}
	c, err := parseCompiled(dir, pag)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", base, err)
	}
	return c, nil
}

func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return data, nil
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
	for i := 1; i <= n; i++ {
		at := i * indexEntrySize
		one, err := textAt(pag, word(at+4))
		if err != nil {
			return nil, fmt.Errorf("entry %d: one-line text: %w", i, err)
		}
		long, err := textAt(pag, word(at+8))
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

// textAt is the NUL-terminated text at off.
func textAt(pag []byte, off uint32) (string, error) {
	if uint64(off) >= uint64(len(pag)) {
		return "", fmt.Errorf("offset %d past the %d bytes of texts", off, len(pag))
	}
	end := bytes.IndexByte(pag[off:], 0)
	if end < 0 {
		return "", fmt.Errorf("text at %d has no end", off)
	}
	return string(pag[off : int(off)+end]), nil
}

// Metric is the help of a PMID, one-line or long, and whether the agent
// that compiled it has the PMID. An empty text is what that agent
// answers, and its clients then ask for the one-line text instead.
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
