package proc

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ttyDriver is one line of /proc/tty/drivers: a device path and the
// major and minor numbers it covers.
type ttyDriver struct {
	path      string // without /dev/
	major     uint64
	low, high uint64
}

// ttyNames names terminals as pmdaproc's psinfo.ttyname does, from the
// drivers /proc/tty/drivers lists: "?" for none, the driver's path when
// it covers one minor number, else the path and the minor ("pts/3").
type ttyNames struct {
	drivers []ttyDriver
	byDev   map[uint64]string
}

// maxTTYNames bounds the names kept: a host has few terminals.
const maxTTYNames = 1024

// newTTYNames reads the drivers once, as pmdaproc does at start; a tree
// without the file names every terminal "?".
func newTTYNames(procRoot string) *ttyNames {
	n := &ttyNames{byDev: map[uint64]string{}}
	data, err := os.ReadFile(filepath.Join(procRoot, "tty", "drivers"))
	if err != nil {
		return n
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if d, ok := parseTTYDriver(sc.Text()); ok {
			n.drivers = append(n.drivers, d)
		}
	}
	return n
}

// parseTTYDriver reads "name /dev/path major minor[-minor] type".
func parseTTYDriver(line string) (ttyDriver, bool) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return ttyDriver{}, false
	}
	major, err := strconv.ParseUint(f[2], 10, 32)
	if err != nil {
		return ttyDriver{}, false
	}
	lo, hi, ranged := strings.Cut(f[3], "-")
	low, err1 := strconv.ParseUint(lo, 10, 32)
	high, err2 := low, error(nil)
	if ranged {
		high, err2 = strconv.ParseUint(hi, 10, 32)
	}
	if err1 != nil || err2 != nil {
		return ttyDriver{}, false
	}
	return ttyDriver{path: strings.TrimPrefix(f[1], "/dev/"), major: major, low: low, high: high}, true
}

// name gives the terminal of a stat tty_nr.
func (n *ttyNames) name(dev uint64) string {
	if dev == 0 {
		return "?"
	}
	if s, ok := n.byDev[dev]; ok {
		return s
	}
	major, minor := (dev>>8)&0xfff, (dev&0xff)|((dev>>12)&0xfff00)
	s := "?"
	for _, d := range n.drivers {
		if d.major != major || minor < d.low || minor > d.high {
			continue
		}
		if d.low == d.high {
			s = d.path
		} else {
			s = d.path + "/" + strconv.FormatUint(minor, 10)
		}
		break
	}
	if len(n.byDev) < maxTTYNames {
		n.byDev[dev] = s
	}
	return s
}
