package mmvtest

import "math"

// Metric types, as PCP numbers them (Elapsed is MMV's own).
const (
	TypeNoSupport = -1
	Type32        = 0
	TypeU32       = 1
	Type64        = 2
	TypeU64       = 3
	TypeFloat     = 4
	TypeDouble    = 5
	TypeString    = 6
	TypeElapsed   = 9
)

// Semantics, as PCP numbers them.
const (
	SemCounter  = 1
	SemInstant  = 3
	SemDiscrete = 4
)

// Header flags and label flags.
const (
	FlagNoPrefix = 1
	FlagProcess  = 2
	FlagSentinel = 4

	LabelIndom     = 1 << 2
	LabelCluster   = 1 << 3
	LabelItem      = 1 << 4
	LabelInstances = 1 << 5
	LabelOptional  = 1 << 7
)

// NoIndom is PCP's null instance domain; a metric with it is singular.
const NoIndom = 0xffffffff

// Spec describes a file to build.
type Spec struct {
	Version int    // 1, 2 or 3
	Gen     uint64 // both generation numbers; 0 means 1
	Flags   uint32
	PID     int32
	Cluster uint32
	Indoms  []Indom
	Metrics []Metric
	Labels  []Label
}

// Indom is an instance domain with its instances.
type Indom struct {
	Serial      uint32
	Instances   []Instance
	Short, Long string
}

// Instance is one instance of a domain.
type Instance struct {
	ID   int32
	Name string
}

// Metric is a metric with one value per instance of its domain, in the
// domain's order, or one value when Indom is NoIndom.
type Metric struct {
	Name        string
	Item        uint32
	Type        int32
	Sem         uint32
	Units       uint32
	Indom       uint32
	Short, Long string
	Values      []Val
}

// Val is one value: the 8-byte atom's bits and the extra word for numbers
// and elapsed times, the text for strings.
type Val struct {
	Bits  uint64
	Extra int64
	Text  string
}

// Label is one label record; Text is its JSON payload.
type Label struct {
	Flags    uint32
	Identity uint32
	Instance int32
	Text     string
}

// U32 and the functions below make the value of each type.
func U32(v uint32) Val { return Val{Bits: uint64(v)} }

// I32 is a 32-bit signed value (its sign is not extended into the atom).
func I32(v int32) Val { return Val{Bits: uint64(uint32(v))} }

// U64 is a 64-bit unsigned value.
func U64(v uint64) Val { return Val{Bits: v} }

// I64 is a 64-bit signed value.
func I64(v int64) Val { return Val{Bits: uint64(v)} }

// F32 is a float.
func F32(v float32) Val { return Val{Bits: uint64(math.Float32bits(v))} }

// F64 is a double.
func F64(v float64) Val { return Val{Bits: math.Float64bits(v)} }

// Str is a string value.
func Str(s string) Val { return Val{Text: s} }

// Elapsed is an elapsed time: acc microseconds accumulated and, while an
// interval runs, start as the negated start time in microseconds.
func Elapsed(acc, start int64) Val { return Val{Bits: uint64(acc), Extra: start} }

// AllTypes is a version's spec with one metric of every type, an instance
// domain of three instances, help on metrics and the domain, and for
// version 3 a label of each kind.
func AllTypes(version int) Spec {
	three := []Instance{{1, "one"}, {2, "two"}, {30, "thirty"}}
	s := Spec{Version: version, Gen: 0x6500000000012345, Flags: FlagProcess, PID: 4242, Cluster: 7,
		Indoms: []Indom{{Serial: 5, Instances: three, Short: "three things",
			Long: "Three things, one per line."}},
		Metrics: []Metric{
			{Name: "u32", Item: 1, Type: TypeU32, Sem: SemCounter, Units: 0x00100000, Indom: NoIndom,
				Short: "a u32", Long: "A 32-bit counter.", Values: []Val{U32(4000000000)}},
			{Name: "i32", Item: 2, Type: Type32, Sem: SemInstant, Indom: NoIndom, Values: []Val{I32(-7)}},
			{Name: "u64", Item: 3, Type: TypeU64, Sem: SemCounter, Units: 0x10000000, Indom: 5,
				Values: []Val{U64(1 << 40), U64(2), U64(3)}},
			{Name: "i64", Item: 4, Type: Type64, Sem: SemDiscrete, Indom: NoIndom,
				Values: []Val{I64(-1 << 40)}},
			{Name: "float", Item: 5, Type: TypeFloat, Sem: SemInstant, Indom: NoIndom,
				Values: []Val{F32(1.5)}},
			{Name: "double", Item: 6, Type: TypeDouble, Sem: SemInstant, Indom: 5,
				Values: []Val{F64(0.25), F64(-2), F64(1e300)}},
			{Name: "string", Item: 7, Type: TypeString, Sem: SemDiscrete, Indom: 5, Short: "a string",
				Values: []Val{Str("alpha"), Str(""), Str("gamma")}},
			{Name: "sub.elapsed", Item: 8, Type: TypeElapsed, Sem: SemCounter, Indom: NoIndom,
				Values: []Val{Elapsed(1500, 0)}},
		},
	}
	if version >= 3 {
		s.Labels = []Label{
			{Flags: LabelCluster, Identity: 7, Instance: -1, Text: `{"app":"test"}`},
			{Flags: LabelItem | LabelOptional, Identity: 3, Instance: -1, Text: `{"units":"bytes"}`},
			{Flags: LabelIndom, Identity: 5, Instance: -1, Text: `{"kind":"things"}`},
			{Flags: LabelInstances, Identity: 5, Instance: 30, Text: `{"big":true}`},
		}
	}
	return s
}
