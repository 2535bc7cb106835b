package kernel

import (
	"strconv"
	"strings"
)

// TTYDriver is one line of /proc/tty/drivers: a driver's device path and
// the major number and minor range it covers.
type TTYDriver struct {
	Path      string // as the file prints it: /dev/pts
	Major     uint64
	Low, High uint64 // the minor numbers, Low == High for one device
}

// ParseTTYDrivers reads "name /dev/path major minor[-minor] type" lines;
// a line that is not one is skipped.
func ParseTTYDrivers(data []byte) []TTYDriver {
	var out []TTYDriver
	for _, line := range strings.Split(string(data), "\n") {
		if d, ok := parseTTYDriver(line); ok {
			out = append(out, d)
		}
	}
	return out
}

func parseTTYDriver(line string) (TTYDriver, bool) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return TTYDriver{}, false
	}
	major, err := strconv.ParseUint(f[2], 10, 32)
	if err != nil {
		return TTYDriver{}, false
	}
	lo, hi, ranged := strings.Cut(f[3], "-")
	low, err1 := strconv.ParseUint(lo, 10, 32)
	high, err2 := low, error(nil)
	if ranged {
		high, err2 = strconv.ParseUint(hi, 10, 32)
	}
	if err1 != nil || err2 != nil {
		return TTYDriver{}, false
	}
	return TTYDriver{Path: f[1], Major: major, Low: low, High: high}, true
}
