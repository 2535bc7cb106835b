package mmv

// Limits bound what Parse accepts from one file, so a hostile or runaway
// writer costs bounded memory and time. A count is the number of records
// its section declares.
type Limits struct {
	MaxBytes     int64 // the file's size
	MaxMetrics   int
	MaxIndoms    int
	MaxInstances int // all instances of all domains
	MaxValues    int
	MaxStrings   int
	MaxLabels    int
}

// DefaultLimits are far above what instrumented programs write: pmdammv
// itself takes at most 1023 metrics and 255 labels per file, and a file
// with a thousand metrics over a thousand instances each stays under the
// value and byte bounds.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:     64 << 20,
		MaxMetrics:   1024,
		MaxIndoms:    1024,
		MaxInstances: 1 << 16,
		MaxValues:    1 << 20,
		MaxStrings:   1 << 17,
		MaxLabels:    1024,
	}
}
