package cache

// Units is a PCP pmUnits word exactly as it travels on the wire: three signed
// 4-bit dimensions (space, time, count) then three 4-bit scales.
type Units uint32

// Space and time scales (PM_SPACE_*, PM_TIME_*).
const (
	SpaceByte  = 0
	SpaceKByte = 1
	SpaceMByte = 2
	TimeNSec   = 0
	TimeUSec   = 1
	TimeMSec   = 2
	TimeSec    = 3
)

// MakeUnits packs dimensions and scales into a Units word.
func MakeUnits(dimSpace, dimTime, dimCount int, scaleSpace, scaleTime, scaleCount int) Units {
	nib := func(v int) uint32 { return uint32(v) & 0xf }
	return Units(nib(dimSpace)<<28 | nib(dimTime)<<24 | nib(dimCount)<<20 |
		nib(scaleSpace)<<16 | nib(scaleTime)<<12 | nib(scaleCount)<<8)
}

func signed4(v uint32) int {
	v &= 0xf
	if v&0x8 != 0 {
		return int(v) - 16
	}
	return int(v)
}

// DimSpace, DimTime and DimCount return the signed dimensions.
func (u Units) DimSpace() int { return signed4(uint32(u) >> 28) }
func (u Units) DimTime() int  { return signed4(uint32(u) >> 24) }
func (u Units) DimCount() int { return signed4(uint32(u) >> 20) }

// ScaleSpace, ScaleTime and ScaleCount return the scales.
func (u Units) ScaleSpace() int { return int(uint32(u) >> 16 & 0xf) }
func (u Units) ScaleTime() int  { return int(uint32(u) >> 12 & 0xf) }
func (u Units) ScaleCount() int { return signed4(uint32(u) >> 8) }

// Units used by the metrics we export.
var (
	UnitsNone        = Units(0)
	UnitsCount       = MakeUnits(0, 0, 1, 0, 0, 0)
	UnitsKByte       = MakeUnits(1, 0, 0, SpaceKByte, 0, 0)
	UnitsByte        = MakeUnits(1, 0, 0, SpaceByte, 0, 0)
	UnitsMSec        = MakeUnits(0, 1, 0, 0, TimeMSec, 0)
	UnitsSec         = MakeUnits(0, 1, 0, 0, TimeSec, 0)
	UnitsCountPerSec = MakeUnits(0, -1, 1, 0, TimeSec, 0)
)

// secondsPerTimeScale converts one unit of a PM_TIME_* scale to seconds.
var secondsPerTimeScale = [...]float64{1e-9, 1e-6, 1e-3, 1, 60, 3600}

// RateOf returns the units of the per-second rate of a counter with units u,
// and the factor that converts a delta/second in u into those units.
//
// Per second means one less time dimension. A time counter (milliseconds of
// CPU, say) therefore becomes dimensionless: its rate is seconds per second,
// which is how PCP's own rate() and pmval present time counters, so the
// delta is scaled from the counter's time scale to seconds.
func RateOf(u Units) (Units, float64) {
	dt := u.DimTime()
	scaleTime := u.ScaleTime()
	factor := 1.0
	if dt == 1 {
		if scaleTime < len(secondsPerTimeScale) {
			factor = secondsPerTimeScale[scaleTime]
		}
		scaleTime = 0
	} else {
		scaleTime = TimeSec
	}
	scaleSpace := 0
	if u.DimSpace() != 0 {
		scaleSpace = u.ScaleSpace()
	}
	scaleCount := 0
	if u.DimCount() != 0 {
		scaleCount = u.ScaleCount()
	}
	return MakeUnits(u.DimSpace(), dt-1, u.DimCount(), scaleSpace, scaleTime, scaleCount), factor
}
