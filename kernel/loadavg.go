package kernel

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Loadavg is one parsed /proc/loadavg.
type Loadavg struct {
	Load                      [3]float64 // in loadPeriods order
	Runnable, NProcs, LastPID uint64
}

// ParseLoadavg reads "L1 L5 L15 RUNNABLE/THREADS LASTPID"; later fields,
// should a kernel add any, are ignored.
func ParseLoadavg(data []byte) (Loadavg, error) {
	var la Loadavg
	// Split in place: a sample a second of every load collector should not
	// allocate a string and a slice of fields each time.
	var f [5][]byte
	if n := fieldsOf(data, f[:]); n < len(f) {
		return la, fmt.Errorf("want 5 fields, got %d", n)
	}
	for i := range la.Load {
		// As a C float, the way pmdalinux's sscanf("%f") reads it, so the
		// FLOAT we publish is the same nearest float32.
		v, err := strconv.ParseFloat(string(f[i]), 32)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return la, fmt.Errorf("bad load average %q", f[i])
		}
		la.Load[i] = v
	}
	run, threads, ok := bytes.Cut(f[3], []byte("/"))
	if !ok {
		return la, fmt.Errorf("want RUNNABLE/THREADS, got %q", f[3])
	}
	var err error
	if la.Runnable, err = parseUint32(run); err != nil {
		return la, err
	}
	if la.NProcs, err = parseUint32(threads); err != nil {
		return la, err
	}
	if la.LastPID, err = parseUint32(f[4]); err != nil {
		return la, err
	}
	return la, nil
}

// parseUint32 reads a decimal that fits 32 bits.
func parseUint32(b []byte) (uint64, error) {
	if v, ok := parseUint(b); ok && v <= math.MaxUint32 {
		return v, nil
	}
	return 0, fmt.Errorf("bad count %q", b)
}
