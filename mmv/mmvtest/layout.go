// Package mmvtest builds MMV files, the memory mapped values that
// programs instrumented with PCP's libpcp_mmv write, for tests. It lays a
// file out as libpcp_mmv does (header, table of contents, instance domains,
// instances, metrics, values, strings, labels) and records where each
// record lives, so a test can corrupt a named field or rewrite a value in
// place. It does not import package mmv: it writes bytes from the format's
// description, so a reader's mistakes do not cancel the writer's.
package mmvtest

// Header fields, as offsets from the start of the file.
const (
	HdrMagic   = 0
	HdrVersion = 4
	HdrGen1    = 8
	HdrGen2    = 16
	HdrTOCs    = 24
	HdrFlags   = 28
	HdrPID     = 32
	HdrCluster = 36
	HeaderSize = 40
)

// Table of contents entries: their fields and size.
const (
	TOCType   = 0
	TOCCount  = 4
	TOCOffset = 8
	TOCSize   = 16
)

// Section types of the table of contents.
const (
	SecIndoms    = 1
	SecInstances = 2
	SecMetrics   = 3
	SecValues    = 4
	SecStrings   = 5
	SecLabels    = 6
)

// Instance domain records.
const (
	IndomSerial = 0
	IndomCount  = 4
	IndomOffset = 8
	IndomShort  = 16
	IndomLong   = 24
	IndomSize   = 32
)

// Instance records: version 1 holds the name, later versions a string offset.
const (
	InstIndom    = 0
	InstInternal = 12
	InstName     = 16
	InstSizeV1   = 80
	InstSizeV2   = 24
	NameMax      = 64
)

// Value records.
const (
	ValAtom     = 0
	ValExtra    = 8
	ValMetric   = 16
	ValInstance = 24
	ValueSize   = 32
)

// Strings and labels.
const (
	StringSize  = 256
	LabelFlags  = 0
	LabelIdent  = 4
	LabelInst   = 8
	LabelText   = 12
	LabelSize   = 256
	LabelMax    = 244
	MetricSize1 = 104
	MetricSize2 = 48
)

// MetricField names a field of a metric record.
type MetricField int

// The fields of a metric record.
const (
	MetName MetricField = iota
	MetItem
	MetType
	MetSem
	MetUnits
	MetIndom
	MetShort
	MetLong
)

// MetricFieldOffset is where field f lies in a metric record of version v:
// the name (64 bytes in version 1, an 8-byte offset later), then 4-byte
// item, type, semantics, units and indom, 4 bytes of padding and the two
// 8-byte help offsets.
func MetricFieldOffset(v int, f MetricField) int {
	base := 8
	if v == 1 {
		base = NameMax
	}
	switch {
	case f == MetName:
		return 0
	case f <= MetIndom:
		return base + 4*int(f-MetItem)
	case f == MetShort:
		return base + 24
	}
	return base + 32
}

// MetricSize is the size of a metric record of version v.
func MetricSize(v int) int {
	if v == 1 {
		return MetricSize1
	}
	return MetricSize2
}

// InstSize is the size of an instance record of version v.
func InstSize(v int) int {
	if v == 1 {
		return InstSizeV1
	}
	return InstSizeV2
}
