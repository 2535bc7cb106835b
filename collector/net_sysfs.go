package collector

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// iffUp is IFF_UP of <linux/if.h>, the administrative "up" flag.
const iffUp = 0x1

// netIfFixed is what sysfs says about an interface that cannot change while
// it exists. It is read once, when the interface is first seen, and
// forgotten when it leaves /proc/net/dev.
type netIfFixed struct {
	inSys    bool // /sys/class/net/<if> exists: the other fields are known
	virtual  bool // no hardware behind it: /sys/devices/virtual/net/<if>
	wireless bool
	typ      uint32 // ARPHRD_* link type
	hasType  bool
	labels   []cache.Label
}

// netIfState is what sysfs says about an interface now; read every sample.
// A has* false means the attribute is absent or unknown: no value.
type netIfState struct {
	mtu        uint32
	speed      uint64 // Mbit/s
	duplex     uint32 // 1 half, 2 full
	up         uint32
	running    uint32
	hasMTU     bool
	hasSpeed   bool
	hasDuplex  bool
	hasUp      bool
	hasRunning bool
}

// netSysfs reads interface attributes below a /sys root; "" reads nothing.
type netSysfs struct{ root string }

func (s netSysfs) path(name string, elem ...string) string {
	return filepath.Join(append([]string{s.root, "class", "net", name}, elem...)...)
}

// line returns an attribute's first line; false when it cannot be read
// (absent, or refused: speed and duplex fail with EINVAL on lo).
func (s netSysfs) line(name, attr string) (string, bool) {
	data, err := readFile(s.path(name, attr))
	if err != nil {
		return "", false
	}
	text, _, _ := strings.Cut(string(data), "\n")
	text = strings.TrimSpace(text)
	return text, text != ""
}

func (s netSysfs) exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// fixed reads the unchanging attributes of an interface.
func (s netSysfs) fixed(name string) netIfFixed {
	var f netIfFixed
	if s.root == "" || !s.exists(s.path(name)) {
		return f
	}
	f.inSys = true
	// pmdalinux's test for network.interface.virtual: the kernel files every
	// software interface (lo, bridges, veth, tun, bonds, vlans) here.
	f.virtual = s.exists(filepath.Join(s.root, "devices", "virtual", "net", name))
	f.wireless = s.exists(s.path(name, "wireless"))
	if t, ok := s.line(name, "type"); ok {
		if v, err := strconv.ParseUint(t, 10, 32); err == nil {
			f.typ, f.hasType = uint32(v), true
		}
	}
	// The driver is the last element of the device's driver link
	// (".../bus/virtio/drivers/virtio_net"); virtual interfaces have none.
	if target, err := os.Readlink(s.path(name, "device", "driver")); err == nil {
		f.labels = append(f.labels, cache.StringLabel("driver", filepath.Base(target)))
	}
	f.labels = append(f.labels, cache.Label{Name: "virtual", Value: strconv.FormatBool(f.virtual)})
	return f
}

// state reads the attributes that change while an interface exists.
func (s netSysfs) state(name string) netIfState {
	var st netIfState
	if s.root == "" {
		return st
	}
	if t, ok := s.line(name, "mtu"); ok {
		v, err := strconv.ParseUint(t, 10, 32)
		// pmdalinux publishes no MTU of 0.
		st.mtu, st.hasMTU = uint32(v), err == nil && v > 0
	}
	if t, ok := s.line(name, "speed"); ok {
		// -1 is SPEED_UNKNOWN (virtio, a link that is down): no value,
		// where pmdalinux shows 4294967295 Mbit/s.
		v, err := strconv.ParseInt(t, 10, 64)
		st.speed, st.hasSpeed = uint64(v), err == nil && v > 0
	}
	if t, ok := s.line(name, "duplex"); ok {
		switch t {
		case "half":
			st.duplex, st.hasDuplex = 1, true
		case "full":
			st.duplex, st.hasDuplex = 2, true
		}
	}
	st.up, st.running, st.hasUp, st.hasRunning = s.upRunning(name)
	return st
}

// upRunning derives IFF_UP and IFF_RUNNING as SIOCGIFFLAGS reports them,
// which is what pmdalinux shows. The flags attribute holds only the
// administrative flags: the kernel computes IFF_RUNNING for the ioctl as
// "up, and operstate up or unknown", so we do the same from operstate.
func (s netSysfs) upRunning(name string) (up, running uint32, hasUp, hasRunning bool) {
	t, ok := s.line(name, "flags")
	if !ok {
		return 0, 0, false, false
	}
	flags, err := strconv.ParseUint(t, 0, 64)
	if err != nil {
		return 0, 0, false, false
	}
	if flags&iffUp != 0 {
		up = 1
	}
	oper, ok := s.line(name, "operstate")
	if !ok {
		return up, 0, true, false
	}
	if up == 1 && (oper == "up" || oper == "unknown") {
		running = 1
	}
	return up, running, true, true
}
