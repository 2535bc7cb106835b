// Package mmv reads PCP's Memory Mapped Values files: the files programs
// instrumented with libpcp_mmv write in $PCP_TMP_DIR/mmv, which pmdammv
// serves. It knows the format (versions 1, 2 and 3: header, table of
// contents, instance domains, instances, metrics, values, strings, labels)
// and nothing of PCP's protocol or of this agent's cache.
//
// What it promises:
//   - Parse never panics and never reads outside the bytes it is given. It
//     checks every offset and count against their length with arithmetic
//     that cannot overflow, and refuses a file that breaks the format with
//     an *Error saying what is wrong and at which offset.
//   - It is at least as strict as pmdammv: it refuses what pmdammv refuses
//     or skips (a bad magic, version, cluster or item, a count or offset
//     past the end, a bad metric name, a repeated item), and also sections
//     that overlap or lie in the header, references that are not the start
//     of a record of the right section, names without their NUL, unknown
//     types and semantics, metrics of undefined domains, repeated names,
//     serials, instances and values, and labels that name nothing.
//   - Value reads take the current bytes, return ok=false rather than read
//     outside them, and do not allocate (String aside).
//
// What it does not promise: a value read while the writer updates it may
// be torn, as in pmdammv; and the file's words are read in this host's
// byte order, as the writer wrote them.
//
// # How the collector uses it
//
// For each file in the directory, Open a Reader (it refuses FIFOs,
// symbolic links and anything not a regular file without blocking). Then
// each sample:
//
//	data, err := r.Read()        // the whole file, into a reused buffer
//	gen, ok := mmv.Stable(data)  // false: being written, skip this sample
//	if f == nil || gen != f.Gen || !f.Fits(data) {
//		f, err = mmv.Parse(data, lim) // the layout: metrics, indoms, labels
//	}
//	for i := range f.Values {
//		v := &f.Values[i]            // f.Metric(v), v.Inst say what it is
//		n, ok := v.Uint64(data)      // or Uint32, Int32, Int64, Float,
//	}                                // Double, Elapsed(data, now), AppendString
//
// The layout holds while the generation holds; only values change in
// place. On each scan of the directory call r.Replaced(): a restarting
// writer unlinks and recreates its file, which the open Reader does not
// see. Drop a file whose Owner() process no longer exists (kill(pid, 0)
// or /proc/<pid>), as pmdammv does; the pid is in the writer's pid
// namespace. Names are as written: pmdammv serves them below
// "mmv.<file name>." or, with FlagNoPrefix, below "mmv."; elapsed metrics
// are served as Metric.Exported says.
//
// Errors, all matched with errors.Is:
//   - ErrNotMMV: not an MMV file; ignore it.
//   - ErrVersion: a version this package does not know; ignore it.
//   - ErrUnstable: generation zero or the two differ; retry next sample.
//   - ErrLimit: over Limits (Parse, or Read for the size); ignore the file
//     until it changes.
//   - ErrFormat: damaged or hostile; ignore the file until its generation
//     changes, and log it once.
//
// A value read with ok=false is no value for this sample: the file shrank
// (Fits is false), the value's string has no NUL mid-update, or the file
// sets FlagSentinel and the value is the sentinel (all-ones integers,
// NaN, an empty string), which pmdammv reports as no value.
package mmv
