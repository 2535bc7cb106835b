package kernel

import (
	"fmt"
	"math"
	"strconv"
)

// ParseUptime reads "UPTIME IDLE" (seconds since boot, and idle seconds
// summed over CPUs). Later fields, should a kernel add any, are ignored.
func ParseUptime(data []byte) (up, idle float64, err error) {
	var f [2][]byte // split in place: no string or slice allocated a sample
	if n := fieldsOf(data, f[:]); n < len(f) {
		return 0, 0, fmt.Errorf("want 2 fields, got %d", n)
	}
	if up, err = parseSeconds(f[0]); err != nil {
		return 0, 0, err
	}
	if idle, err = parseSeconds(f[1]); err != nil {
		return 0, 0, err
	}
	return up, idle, nil
}

// parseSeconds parses a non-negative, finite number of seconds; ParseFloat
// alone would accept "NaN" and "-Inf".
func parseSeconds(s []byte) (float64, error) {
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return 0, err
	}
	if v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("bad seconds %q", s)
	}
	return v, nil
}
