package kernel

import "bytes"

// Memo holds the text a collector last built a sample from. When a file
// reads back byte for byte as it did (an idle host's counters, tables
// that rarely change, big hosts' thousands of quiet devices) the sample
// would set exactly the values it set before: the collector can repeat
// the previous part instead of parsing and setting them again, and pays
// one comparison of the bytes it read.
type Memo struct {
	text []byte
	ok   bool
}

// Same reports whether text is what Keep last stored.
func (m *Memo) Same(text []byte) bool {
	return m.ok && bytes.Equal(m.text, text)
}

// Keep stores text as the input of the sample just built. A collector
// calls it only once that sample has succeeded, so that a failed sample
// is never repeated.
func (m *Memo) Keep(text []byte) {
	m.text = append(m.text[:0], text...)
	m.ok = true
}

// Forget makes the next Same false, whatever it is given.
func (m *Memo) Forget() { m.ok = false }
