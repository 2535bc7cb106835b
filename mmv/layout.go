package mmv

// Sizes and field offsets of the on-disk records (mmv_dev.h in PCP). All
// words are in the writer's byte order, which is this host's.
const (
	headerSize  = 40
	tocSize     = 16
	indomSize   = 32
	inst1Size   = 80 // name in a 64-byte field
	inst2Size   = 24 // name as a string offset
	metric1Size = 104
	metric2Size = 48
	valueSize   = 32
	stringSize  = 256
	labelSize   = 256
	nameMax     = 64
	labelMax    = 244
)

// Section types of the table of contents.
const (
	secIndoms    = 1
	secInstances = 2
	secMetrics   = 3
	secValues    = 4
	secStrings   = 5
	secLabels    = 6
	secTypes     = 6
)

// Limits the format itself sets, through PCP's identifiers.
const (
	maxItem    = 1<<10 - 1 // a PMID's item field
	maxSerial  = 1<<22 - 1 // an indom's serial field
	maxCluster = 1<<12 - 1 // a PMID's cluster field
)

func sectionName(t uint32) string {
	switch t {
	case secIndoms:
		return "indoms"
	case secInstances:
		return "instances"
	case secMetrics:
		return "metrics"
	case secValues:
		return "values"
	case secStrings:
		return "strings"
	case secLabels:
		return "labels"
	}
	return "unknown"
}
