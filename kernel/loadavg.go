package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	f := strings.Fields(string(data))
	if len(f) < 5 {
		return la, fmt.Errorf("want 5 fields, got %d", len(f))
	}
	for i := range la.Load {
		// As a C float, the way pmdalinux's sscanf("%f") reads it, so the
		// FLOAT we publish is the same nearest float32.
		v, err := strconv.ParseFloat(f[i], 32)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return la, fmt.Errorf("bad load average %q", f[i])
		}
		la.Load[i] = v
	}
	run, threads, ok := strings.Cut(f[3], "/")
	if !ok {
		return la, fmt.Errorf("want RUNNABLE/THREADS, got %q", f[3])
	}
	var err error
	if la.Runnable, err = strconv.ParseUint(run, 10, 32); err != nil {
		return la, err
	}
	if la.NProcs, err = strconv.ParseUint(threads, 10, 32); err != nil {
		return la, err
	}
	if la.LastPID, err = strconv.ParseUint(f[4], 10, 32); err != nil {
		return la, err
	}
	return la, nil
}
