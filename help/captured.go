package help

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
)

// Some agents answer part of their help from their code, not from their
// compiled help: pmdaproc describes its per-process metrics (proc.psinfo.*,
// proc.memory.*, ...) so. Before the switch to the stand-in, Install asks
// the running agent for those texts and compiles them with newhelp into
// standin.<agent>.help.{dir,pag} in hostcache's PMDA directory. The texts
// are the host's own, made at install time; none ships with hostcache.
//
// newhelp drops the newlines that end a long text, and some of the
// agent's texts end with one. So every long text of a capture ends with
// a line holding one dot, after the text's own lines; reading a capture
// takes that line off again, and the text keeps its newlines.
const capturedEnd = "."

// CapturedBase is the base name of the files Install captures of an
// agent's help, in pmdasDir, PCP's $PCP_PMDAS_DIR.
func CapturedBase(pmdasDir, agent string) string {
	return filepath.Join(pmdasDir, "hostcache", "standin."+agent+".help")
}

// ReadCaptured reads the help Install captured of the agent pmcd.conf
// names agent, and returns it with the base name of its files.
func ReadCaptured(pmdasDir, agent string) (*Compiled, string, error) {
	if pmdasDir == "" {
		return nil, "", ErrNoPMDAsDir
	}
	base := CapturedBase(pmdasDir, agent)
	c, err := ReadCompiled(base)
	if err != nil {
		return nil, base, err
	}
	if err := c.dropCapturedEnds(); err != nil {
		return nil, base, fmt.Errorf("%s: %w", base, err)
	}
	return c, base, nil
}

// dropCapturedEnds takes the end line off every long text. A text
// without it is not a capture's, and neither is the file.
func (c *Compiled) dropCapturedEnds() error {
	for _, texts := range []map[uint32]entry{c.metrics, c.indoms} {
		for ident, e := range texts {
			long, ok := withoutCapturedEnd(e.long)
			if !ok {
				return fmt.Errorf("identifier %#x: the long text has no end line %q", ident, capturedEnd)
			}
			e.long = long
			texts[ident] = e
		}
	}
	return nil
}

func withoutCapturedEnd(long string) (string, bool) {
	if long == capturedEnd {
		return "", true
	}
	return strings.CutSuffix(long, "\n"+capturedEnd)
}

// Layer is top's texts, then below's for the identifiers top lacks, and
// the number below gives: the agent's compiled help over what Install
// captured of the rest. Either may be nil; both nil is nil.
func Layer(top, below *Compiled) (*Compiled, int) {
	switch {
	case below == nil:
		return top, 0
	case top == nil:
		return below, below.Len()
	}
	out := &Compiled{metrics: maps.Clone(top.metrics), indoms: maps.Clone(top.indoms)}
	added := fillFrom(out.metrics, below.metrics) + fillFrom(out.indoms, below.indoms)
	return out, added
}

// fillFrom adds to dst the entries of src it lacks, and counts them.
func fillFrom(dst, src map[uint32]entry) int {
	n := 0
	for ident, e := range src {
		if _, ok := dst[ident]; !ok {
			dst[ident] = e
			n++
		}
	}
	return n
}
