package mmv

// Type is a metric's value type, numbered as PCP numbers pmDesc types;
// TypeElapsed is MMV's own.
type Type int32

// The types an MMV metric may have.
const (
	TypeNoSupport Type = -1 // declared but without values
	Type32        Type = 0
	TypeU32       Type = 1
	Type64        Type = 2
	TypeU64       Type = 3
	TypeFloat     Type = 4
	TypeDouble    Type = 5
	TypeString    Type = 6
	TypeElapsed   Type = 9 // microseconds, see Value.Elapsed
)

func (t Type) valid() bool {
	return t >= TypeNoSupport && t <= TypeString || t == TypeElapsed
}

// Semantics is PCP's PM_SEM_* number.
type Semantics uint32

// The semantics an MMV metric may have.
const (
	SemCounter  Semantics = 1
	SemInstant  Semantics = 3
	SemDiscrete Semantics = 4
)

// Units is PCP's pmUnits as one word: dimensions of space, time and count
// in the top three nibbles, their scales in the next three, the extra
// unit in the low byte. It is the word of PCP's wire and archives.
type Units uint32

// Flags are the header's flags.
type Flags uint32

// The header flags libpcp_mmv defines; other bits are kept but mean nothing.
const (
	FlagNoPrefix Flags = 1 // names go below "mmv." without the file's name
	FlagProcess  Flags = 2 // the values live only as long as process PID
	FlagSentinel Flags = 4 // all-ones integers, NaN and "" mean no value
)

// NoIndom is the Indom of a singular metric (PCP's PM_INDOM_NULL).
const NoIndom uint32 = 0xffffffff

// NoInstance is the Inst of a singular metric's value and the Instance of a
// label that names none (PCP's PM_IN_NULL).
const NoInstance int32 = -1

// File is the layout of one MMV file at one generation.
type File struct {
	Version int
	Gen     uint64 // both generation numbers
	Flags   Flags
	PID     int32  // the writer's process, in its own pid namespace
	Cluster uint32 // the cluster the writer asks for; 0 lets the reader choose
	Size    int64  // the length Parse was given
	Metrics []Metric
	Indoms  []Indom
	Values  []Value
	Labels  []Label
}

// Metric is one metric's description.
type Metric struct {
	Name      string // as written, without any prefix
	Item      uint32 // below 1024, unique in the file
	Type      Type
	Semantics Semantics // 0 in the file reads as SemCounter, as pmdammv does
	Units     Units
	Indom     uint32 // the serial of its domain, or NoIndom
	ShortHelp string
	LongHelp  string
}

// Indom is one instance domain.
type Indom struct {
	Serial    uint32 // below 1<<22, neither 0 nor NoIndom
	Instances []Instance
	ShortHelp string
	LongHelp  string
}

// Instance is one instance of a domain.
type Instance struct {
	ID   int32
	Name string
}

// LabelKind says what a label attaches to (PCP's PM_LABEL_* bit).
type LabelKind uint32

// The label kinds an MMV file may hold.
const (
	LabelIndom     LabelKind = 1 << 2 // Identity is an indom serial
	LabelCluster   LabelKind = 1 << 3 // Identity is the header's cluster: all metrics
	LabelItem      LabelKind = 1 << 4 // Identity is a metric item
	LabelInstances LabelKind = 1 << 5 // Identity is an indom serial, Instance an instance
	labelOptional            = 1 << 7
)

// Label is one label: a name and its JSON value.
type Label struct {
	Kind     LabelKind
	Optional bool // PCP's PM_LABEL_OPTIONAL: extrinsic, not part of identity
	Identity uint32
	Instance int32 // for LabelInstances, else NoInstance
	Name     string
	Value    string // JSON text: "\"s\"", 1, true, null, [...] or {...}
}

// Value says where one metric-instance value lives in the file. Reads take
// the file's current bytes and return ok=false instead of reading outside
// them.
type Value struct {
	Metric int   // index into File.Metrics
	Inst   int32 // the instance's ID, NoInstance for a singular metric
	Type   Type  // the metric's type
	Offset int64 // of the 8-byte value; the extra word follows it
	// Text is the offset of a string value's 256-byte slot, else 0.
	Text     int64
	sentinel bool
}
