// Package cache owns the metric schema (descriptors, instance domains) and the
// immutable snapshots that collectors publish and the PDU server reads.
//
// The vocabulary mirrors PCP's pmDesc: a metric has a type, a semantics, units
// and an optional instance domain. Identifiers here carry no domain number:
// the domain is chosen at run time (-d) and belongs to the wire layer.
package cache

import "fmt"

// MetricID is a PMID without its domain: cluster<<10 | item.
type MetricID uint32

// NewMetricID builds a MetricID; cluster is 12 bits, item 10 bits.
func NewMetricID(cluster, item uint32) MetricID {
	return MetricID(cluster&0xfff<<10 | item&0x3ff)
}

// Cluster returns the cluster part of the id.
func (m MetricID) Cluster() uint32 { return uint32(m) >> 10 & 0xfff }

// Item returns the item part of the id.
func (m MetricID) Item() uint32 { return uint32(m) & 0x3ff }

func (m MetricID) String() string { return fmt.Sprintf("%d.%d", m.Cluster(), m.Item()) }

// InDomID is an instance domain serial (22 bits), without its domain.
type InDomID uint32

// InDomNone marks a metric with a single value and no instance domain.
const InDomNone InDomID = 0xffffffff

// InstNone is the instance id of a singular value (PM_IN_NULL).
const InstNone uint32 = 0xffffffff

// Type is a PCP value type (PM_TYPE_*); the numbers are the wire values.
type Type int32

const (
	TypeI32    Type = 0
	TypeU32    Type = 1
	TypeI64    Type = 2
	TypeU64    Type = 3
	TypeFloat  Type = 4
	TypeDouble Type = 5
	TypeString Type = 6
)

var typeNames = map[Type]string{
	TypeI32: "32", TypeU32: "u32", TypeI64: "64", TypeU64: "u64",
	TypeFloat: "float", TypeDouble: "double", TypeString: "string",
}

func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("type(%d)", int32(t))
}

// Sem is a PCP semantics (PM_SEM_*); the numbers are the wire values.
type Sem int32

const (
	SemCounter  Sem = 1
	SemInstant  Sem = 3
	SemDiscrete Sem = 4
)

func (s Sem) String() string {
	switch s {
	case SemCounter:
		return "counter"
	case SemInstant:
		return "instant"
	case SemDiscrete:
		return "discrete"
	}
	return fmt.Sprintf("sem(%d)", int32(s))
}
