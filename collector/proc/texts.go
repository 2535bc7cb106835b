package proc

// Limits on the strings the groups keep. Only the newest sample of a
// string is kept (strings have no history), and a process's string is
// made again only when its text changed, so that the samples the fetches
// still read share it with the newest.
const (
	// maxLongText bounds one process's maps or environ text: longer
	// ones are cut at the last whole line or variable that fits.
	maxLongText = 64 << 10
	// longTextsPerSample bounds all the maps (or environ) texts of one
	// sample together: past it, the remaining processes (in PID order)
	// have no value. 10,000 processes of 3 KiB fit.
	longTextsPerSample = 32 << 20
	// maxShortText bounds the one-line files (cgroup, attr/current,
	// wchan): a longer one is odd, and has no value.
	maxShortText = 8 << 10
)

// texts keeps each process's newest string of one metric.
type texts struct {
	byPID map[int32]keptText
	gen   uint64
}

type keptText struct {
	s   string
	gen uint64 // the sample that last used it
}

func newTexts() *texts { return &texts{byPID: map[int32]keptText{}} }

// begin starts a sample.
func (t *texts) begin() { t.gen++ }

// of returns the process's string for text, the kept one when the text
// is the same.
func (t *texts) of(pid int32, text []byte) string {
	k, ok := t.byPID[pid]
	if !ok || k.s != string(text) { // the comparison makes no string
		k.s = string(text)
	}
	k.gen = t.gen
	t.byPID[pid] = k
	return k.s
}

// sweep forgets the strings this sample did not use: processes gone, or
// whose file could not be read.
func (t *texts) sweep() {
	for pid, k := range t.byPID {
		if k.gen != t.gen {
			delete(t.byPID, pid)
		}
	}
}
