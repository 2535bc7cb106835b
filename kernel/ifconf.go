package kernel

import (
	"net/netip"
	"syscall"
	"unsafe"
)

// IfAddr is an IPv4 address the kernel lists for an interface or one of
// its labels ("eth0", "eth0:1").
type IfAddr struct {
	Name string
	Addr netip.Addr
}

// ifreq is struct ifreq as SIOCGIFCONF fills it on 64-bit Linux: the
// name, then a struct sockaddr_in in a 24-byte union.
type ifreq struct {
	name   [16]byte
	family uint16
	port   uint16
	addr   [4]byte
	_      [16]byte
}

// ifconf is struct ifconf: a length and a pointer to the ifreq array.
type ifconf struct {
	len int32
	_   int32
	buf uintptr
}

const siocgifconf = 0x8912

// IPv4Addrs asks SIOCGIFCONF, as ifconfig and pmdalinux do, for the IPv4
// addresses of the agent's network namespace: one entry per address, by
// interface or label name, the primary address of a name first.
func IPv4Addrs() ([]IfAddr, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	for n := 32; ; n *= 2 {
		reqs := make([]ifreq, n)
		conf := ifconf{len: int32(n * int(unsafe.Sizeof(ifreq{}))), buf: uintptr(unsafe.Pointer(&reqs[0]))}
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), siocgifconf,
			uintptr(unsafe.Pointer(&conf)))
		if errno != 0 {
			return nil, errno
		}
		got := int(conf.len) / int(unsafe.Sizeof(ifreq{}))
		if got == n && n < 1<<16 {
			continue // perhaps more than fitted: ask again with room
		}
		out := make([]IfAddr, 0, got)
		for _, r := range reqs[:got] {
			if r.family != syscall.AF_INET {
				continue
			}
			out = append(out, IfAddr{Name: cString(r.name[:]), Addr: netip.AddrFrom4(r.addr)})
		}
		return out, nil
	}
}

// cString is b up to its first NUL.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
