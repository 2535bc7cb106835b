package network

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/kernel"

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
	// keepAll keeps interfaces' files open on any filesystem (keep_files);
	// they are kept on sysfs anyway. kept counts the interfaces whose
	// files are open, at most maxKept: a host with more interfaces than
	// the fd limit allows reads the rest through their directories.
	keepAll bool
	kept    int
	maxKept int
}

// netIfFiles are an interface's changeable attributes, kept open as /proc
// files are (kernel.File): on a host with a thousand interfaces, opening
// them by path at each refresh was most of the collector's cost.
type netIfFiles struct {
	flags, oper, mtu, speed, duplex *kernel.File
}

// netIfFileCount is how many fds an interface's kept files take.
const netIfFileCount = 5

// openFiles returns an interface's kept files, or nil when no more fds
// may be kept (the directory path is then used).
func (s *netSysfs) openFiles(name string) *netIfFiles {
	if s.root == "" || s.kept >= s.maxKept {
		return nil
	}
	s.kept++
	file := func(attr string) *kernel.File { return kernel.NewFileKept(s.root, s.path(name, attr), s.keepAll) }
	return &netIfFiles{flags: file("flags"), oper: file("operstate"), mtu: file("mtu"), speed: file("speed"),
		duplex: file("duplex")}
}

// keptInterfaceLimit is how many interfaces may keep their files open: a
// quarter of the fd limit (which Go raises to the hard limit at start),
// leaving the rest to the other collectors, pmcd's pipes and the log.
func keptInterfaceLimit() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return int(min(lim.Cur/4/netIfFileCount, 1<<20))
}

// closeFiles closes a forgotten interface's files.
func (s *netSysfs) closeFiles(f *netIfFiles) {
	if f == nil {
		return
	}
	for _, k := range []*kernel.File{f.flags, f.oper, f.mtu, f.speed, f.duplex} {
		k.Close()
	}
	s.kept--
}

// keptLine is an attribute's first line from its kept file. A read that
// fails with ENODEV is tried once more: an interface re-created under the
// same name leaves the fd on the old one's attribute, and the file opens
// afresh. Other failures (speed and duplex refused on lo) are final.
func (s *netSysfs) keptLine(f *kernel.File) ([]byte, bool) {
	var err error
	if s.buf, err = f.ReadAttr(s.buf); errors.Is(err, syscall.ENODEV) {
		s.buf, err = f.ReadAttr(s.buf)
	}
	if err != nil {
		return nil, false
	}
	return kernel.AttrLine(s.buf)
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
	if s.buf, err = kernel.ReadFileInto(s.path(name, attr), s.buf); err != nil {
		return nil, false
	}
	return kernel.AttrLine(s.buf)
}

// lineAt is line for attr (NUL-terminated) of the directory open as dirfd.
func (s *netSysfs) lineAt(dirfd int, attr []byte) ([]byte, bool) {
	fd, ok := kernel.OpenAt(dirfd, attr, syscall.O_RDONLY)
	if !ok {
		return nil, false
	}
	var err error
	s.buf, err = kernel.PreadAll(fd, s.buf)
	syscall.Close(fd)
	if err != nil {
		return nil, false
	}
	return kernel.AttrLine(s.buf)
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
		if v, ok := kernel.ParseDecimal(t); ok && v <= 0xffffffff {
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

// state reads the attributes that change while an interface exists: from
// its kept files when it has them (files, from s.openFiles), otherwise
// below its directory dir (from s.dir).
//
// With all false only up and running are read again (flags and operstate:
// what a cable pulled or an interface downed changes) and the link
// settings (mtu, speed, duplex) are kept from prev.
func (s *netSysfs) state(dir []byte, files *netIfFiles, prev netIfState, all bool) netIfState {
	st := netIfState{}
	if !all {
		st = prev
	}
	if s.root == "" {
		return netIfState{}
	}
	if files != nil {
		if all {
			st = s.linkKept(files)
		}
		st.up, st.running, st.hasUp, st.hasRunning = s.upRunningKept(files)
		if !st.hasUp {
			return netIfState{} // gone from this /sys, as by path below
		}
		return st
	}
	dirfd, ok := kernel.OpenAt(unix.AT_FDCWD, dir, unix.O_PATH|unix.O_DIRECTORY)
	if !ok {
		return netIfState{} // not in this /sys: no attribute can be read
	}
	defer syscall.Close(dirfd)
	if !all {
		st.up, st.running, st.hasUp, st.hasRunning = s.upRunning(dirfd)
		return st
	}
	st.setMTU(s.lineAt(dirfd, netAttrMTU))
	st.setSpeed(s.lineAt(dirfd, netAttrSpeed))
	st.setDuplex(s.lineAt(dirfd, netAttrDuplex))
	st.up, st.running, st.hasUp, st.hasRunning = s.upRunning(dirfd)
	return st
}

// linkKept reads the link settings from an interface's kept files.
func (s *netSysfs) linkKept(f *netIfFiles) netIfState {
	var st netIfState
	st.setMTU(s.keptLine(f.mtu))
	st.setSpeed(s.keptLine(f.speed))
	st.setDuplex(s.keptLine(f.duplex))
	return st
}

// setMTU takes the mtu attribute's text (ok false: unreadable).
func (st *netIfState) setMTU(t []byte, ok bool) {
	if !ok {
		return
	}
	v, ok := kernel.ParseDecimal(t)
	// pmdalinux publishes no MTU of 0.
	st.mtu, st.hasMTU = uint32(v), ok && v > 0 && v <= 0xffffffff
}

// setSpeed takes the speed attribute's text. -1 is SPEED_UNKNOWN (virtio,
// a link that is down): no value, where pmdalinux shows 4294967295 Mbit/s.
func (st *netIfState) setSpeed(t []byte, ok bool) {
	if ok {
		st.speed, st.hasSpeed = kernel.ParseSpeed(t)
	}
}

// setDuplex takes the duplex attribute's text.
func (st *netIfState) setDuplex(t []byte, ok bool) {
	if !ok {
		return
	}
	switch string(t) {
	case "half":
		st.duplex, st.hasDuplex = 1, true
	case "full":
		st.duplex, st.hasDuplex = 2, true
	}
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
	flags, ok := kernel.ParseFlags(t)
	if !ok {
		return 0, 0, false, false
	}
	oper, okOper := s.lineAt(dirfd, netAttrOperstate)
	return upRunningOf(flags, oper, okOper)
}

// upRunningKept is upRunning from an interface's kept files.
func (s *netSysfs) upRunningKept(f *netIfFiles) (up, running uint32, hasUp, hasRunning bool) {
	t, ok := s.keptLine(f.flags)
	if !ok {
		return 0, 0, false, false
	}
	flags, ok := kernel.ParseFlags(t)
	if !ok {
		return 0, 0, false, false
	}
	oper, okOper := s.keptLine(f.oper)
	return upRunningOf(flags, oper, okOper)
}

// upRunningOf derives up and running from the administrative flags and
// the operstate text (okOper false: it could not be read).
func upRunningOf(flags uint64, oper []byte, okOper bool) (up, running uint32, hasUp, hasRunning bool) {
	if flags&iffUp != 0 {
		up = 1
	}
	if !okOper {
		return up, 0, true, false
	}
	if up == 1 && (string(oper) == "up" || string(oper) == "unknown") {
		running = 1
	}
	return up, running, true, true
}
