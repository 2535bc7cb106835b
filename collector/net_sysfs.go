package collector

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

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

// netIfState is what sysfs says about an interface now; re-read every
// stateRefresh samples. A has* false means the attribute is absent or
// unknown: no value.
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
//
// The changeable attributes are read through the interface's directory:
// it is opened once per refresh (O_PATH, which only resolves the path) and
// each attribute is opened relative to it, so /sys/class/net/<if> and its
// symbolic link into /sys/devices are walked once instead of five times.
// The directory is closed again at once: interfaces come and go, and a big
// host has thousands. Paths are NUL-terminated bytes built once per
// interface, and the text goes into one reused buffer, so a refresh
// allocates nothing.
type netSysfs struct {
	root string
	buf  []byte // an attribute's text, reused
}

// The changeable attributes, NUL-terminated for openat.
var (
	netAttrMTU       = []byte("mtu\x00")
	netAttrSpeed     = []byte("speed\x00")
	netAttrDuplex    = []byte("duplex\x00")
	netAttrFlags     = []byte("flags\x00")
	netAttrOperstate = []byte("operstate\x00")
)

func (s *netSysfs) path(name string, elem ...string) string {
	return filepath.Join(append([]string{s.root, "class", "net", name}, elem...)...)
}

// dir returns an interface's sysfs directory as a NUL-terminated path;
// nil without a /sys root.
func (s *netSysfs) dir(name string) []byte {
	if s.root == "" {
		return nil
	}
	return append([]byte(s.path(name)), 0)
}

// line returns an attribute's first line; false when it cannot be read
// (absent, or refused: speed and duplex fail with EINVAL on lo).
func (s *netSysfs) line(name, attr string) ([]byte, bool) {
	var err error
	if s.buf, err = readFileInto(s.path(name, attr), s.buf); err != nil {
		return nil, false
	}
	return attrLine(s.buf)
}

// lineAt is line for attr (NUL-terminated) of the directory open as dirfd.
func (s *netSysfs) lineAt(dirfd int, attr []byte) ([]byte, bool) {
	fd, ok := openAtRaw(dirfd, attr, syscall.O_RDONLY)
	if !ok {
		return nil, false
	}
	var err error
	s.buf, err = preadAll(fd, s.buf)
	syscall.Close(fd)
	if err != nil {
		return nil, false
	}
	return attrLine(s.buf)
}

// attrLine is an attribute's first line without surrounding white space;
// false when that is empty.
func attrLine(data []byte) ([]byte, bool) {
	text, _ := nextLine(data)
	text = bytes.TrimSpace(text)
	return text, len(text) > 0
}

// openAtRaw opens path (NUL-terminated) relative to dirfd (or absolute) with
// the raw system call: syscall.Openat would copy the path into a new
// NUL-terminated string on every call.
func openAtRaw(dirfd int, path []byte, flags int) (int, bool) {
	if len(path) == 0 || path[len(path)-1] != 0 {
		return -1, false // the kernel would read past the slice
	}
	for {
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd),
			uintptr(unsafe.Pointer(&path[0])), uintptr(flags|syscall.O_CLOEXEC), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		return int(fd), errno == 0
	}
}

func (s *netSysfs) exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// fixed reads the unchanging attributes of an interface.
func (s *netSysfs) fixed(name string) netIfFixed {
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
		if v, ok := parseDecimal(t); ok && v <= 0xffffffff {
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

// state reads the attributes that change while an interface exists, below
// its directory dir (from s.dir).
func (s *netSysfs) state(dir []byte) netIfState {
	var st netIfState
	if s.root == "" {
		return st
	}
	dirfd, ok := openAtRaw(unix.AT_FDCWD, dir, unix.O_PATH|unix.O_DIRECTORY)
	if !ok {
		return st // not in this /sys: no attribute can be read
	}
	defer syscall.Close(dirfd)
	if t, ok := s.lineAt(dirfd, netAttrMTU); ok {
		v, ok := parseDecimal(t)
		// pmdalinux publishes no MTU of 0.
		st.mtu, st.hasMTU = uint32(v), ok && v > 0 && v <= 0xffffffff
	}
	if t, ok := s.lineAt(dirfd, netAttrSpeed); ok {
		// -1 is SPEED_UNKNOWN (virtio, a link that is down): no value,
		// where pmdalinux shows 4294967295 Mbit/s.
		st.speed, st.hasSpeed = parseSpeed(t)
	}
	if t, ok := s.lineAt(dirfd, netAttrDuplex); ok {
		switch string(t) {
		case "half":
			st.duplex, st.hasDuplex = 1, true
		case "full":
			st.duplex, st.hasDuplex = 2, true
		}
	}
	st.up, st.running, st.hasUp, st.hasRunning = s.upRunning(dirfd)
	return st
}

// parseSpeed reads the speed attribute in Mbit/s: a positive decimal that
// fits an int64, optionally with a plus sign. Zero, negative (-1 is
// SPEED_UNKNOWN) and unreadable speeds are no value.
func parseSpeed(t []byte) (uint64, bool) {
	if len(t) > 0 && t[0] == '+' {
		t = t[1:]
	}
	v, ok := parseDecimal(t)
	return v, ok && v > 0 && v <= 1<<63-1
}

// parseFlags reads the flags attribute, which the kernel prints as "%#x"
// ("0x1003"). Anything else is read as strconv does with base 0, allocating
// only for such text.
func parseFlags(t []byte) (uint64, bool) {
	if len(t) > 2 && len(t) <= 18 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		var v uint64
		for _, c := range t[2:] {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | uint64(c-'0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | uint64(c-'a'+10)
			case c >= 'A' && c <= 'F':
				v = v<<4 | uint64(c-'A'+10)
			default:
				return parseFlagsSlow(t)
			}
		}
		return v, true
	}
	return parseFlagsSlow(t)
}

func parseFlagsSlow(t []byte) (uint64, bool) {
	v, err := strconv.ParseUint(string(t), 0, 64)
	return v, err == nil
}

// upRunning derives IFF_UP and IFF_RUNNING as SIOCGIFFLAGS reports them,
// which is what pmdalinux shows. The flags attribute holds only the
// administrative flags: the kernel computes IFF_RUNNING for the ioctl as
// "up, and operstate up or unknown", so we do the same from operstate.
func (s *netSysfs) upRunning(dirfd int) (up, running uint32, hasUp, hasRunning bool) {
	t, ok := s.lineAt(dirfd, netAttrFlags)
	if !ok {
		return 0, 0, false, false
	}
	flags, ok := parseFlags(t)
	if !ok {
		return 0, 0, false, false
	}
	if flags&iffUp != 0 {
		up = 1
	}
	oper, ok := s.lineAt(dirfd, netAttrOperstate)
	if !ok {
		return up, 0, true, false
	}
	if up == 1 && (string(oper) == "up" || string(oper) == "unknown") {
		running = 1
	}
	return up, running, true, true
}
