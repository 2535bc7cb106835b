package mmv

// Fits reports whether data is at least as long as the bytes f was parsed
// from: a file that shrank under the same generation is damaged, and the
// caller drops it until the generation changes.
func (f *File) Fits(data []byte) bool { return int64(len(data)) >= f.Size }

// Owner is the process whose lifetime bounds the values, when the writer
// asked for that (FlagProcess with a non-zero PID): pmdammv drops such a
// file once the process no longer exists, and the caller should too.
func (f *File) Owner() (pid int32, ok bool) {
	return f.PID, f.Flags&FlagProcess != 0 && f.PID != 0
}

// Exported is how pmdammv describes the metric to PCP: an elapsed time as
// a 64-bit counter of microseconds, anything else as declared.
func (m *Metric) Exported() (Type, Semantics, Units) {
	if m.Type == TypeElapsed {
		const microseconds = Units(1<<24 | 1<<12) // dimTime 1, scaleTime usec
		return Type64, SemCounter, microseconds
	}
	return m.Type, m.Semantics, m.Units
}

// Metric is the metric v holds a value of.
func (f *File) Metric(v *Value) *Metric { return &f.Metrics[v.Metric] }
