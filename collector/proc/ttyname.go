package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// ttyNames names terminals as pmdaproc's psinfo.ttyname does, from the
// drivers /proc/tty/drivers lists: "?" for none, the driver's path when
// it covers one minor number, else the path and the minor ("pts/3").
type ttyNames struct {
	drivers []kernel.TTYDriver
	byDev   map[uint64]string
}

// maxTTYNames bounds the names kept: a host has few terminals.
const maxTTYNames = 1024

// newTTYNames reads the drivers once, as pmdaproc does at start; a tree
// without the file names every terminal "?".
func newTTYNames(procRoot string) *ttyNames {
	n := &ttyNames{byDev: map[uint64]string{}}
	if data, err := os.ReadFile(filepath.Join(procRoot, "tty", "drivers")); err == nil {
		n.drivers = kernel.ParseTTYDrivers(data)
	}
	return n
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
		if d.Major != major || minor < d.Low || minor > d.High {
			continue
		}
		path := strings.TrimPrefix(d.Path, "/dev/")
		if d.Low == d.High {
			s = path
		} else {
			s = path + "/" + strconv.FormatUint(minor, 10)
		}
		break
	}
	if len(n.byDev) < maxTTYNames {
		n.byDev[dev] = s
	}
	return s
}
