package network

import (
	"errors"
	"net/netip"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// fixedIPv4 answers as SIOCGIFCONF would: eth0 with a secondary address
// and a labelled alias.
func fixedIPv4() ([]kernel.IfAddr, error) {
	return []kernel.IfAddr{
		{Name: "lo", Addr: netip.MustParseAddr("127.0.0.1")},
		{Name: "eth0", Addr: netip.MustParseAddr("192.0.2.2")},
		{Name: "eth0", Addr: netip.MustParseAddr("192.0.2.3")},
		{Name: "eth0:1", Addr: netip.MustParseAddr("10.1.2.3")},
	}, nil
}

func newAddrHarness(t *testing.T, ipv4 func() ([]kernel.IfAddr, error)) *netHarness {
	t.Helper()
	h := newNetHarness(t, NewNetAddrCollector, "t0", netIDs(t))
	h.C.(*netAddrCollector).ipv4 = ipv4
	return h
}

// addrOf returns a string value of an address metric for a name.
func (n *netHarness) addrOf(metric, name string) (string, bool) {
	n.T.Helper()
	in, ok := n.Store.Load().InDom(indomNetAddr)
	if !ok {
		n.T.Fatal("no address domain published")
	}
	id, ok := in.Lookup(name)
	if !ok {
		return "", false
	}
	v, ok := n.Value("network.interface."+metric, id)
	return v.Str, ok
}

func (n *netHarness) wantAddr(metric, name, want string) {
	n.T.Helper()
	got, ok := n.addrOf(metric, name)
	switch {
	case want == "" && ok:
		n.T.Errorf("%s of %s = %q, want no value", metric, name, got)
	case want != "" && got != want:
		n.T.Errorf("%s of %s = %q (%v), want %q", metric, name, got, ok, want)
	}
}

func TestNetAddrValues(t *testing.T) {
	h := newAddrHarness(t, fixedIPv4)
	h.MustSample(t0)
	h.wantAddr("inet_addr", "lo", "127.0.0.1")
	h.wantAddr("inet_addr", "eth0", "192.0.2.2") // the primary, as SIOCGIFADDR gives
	h.wantAddr("inet_addr", "eth0:1", "10.1.2.3")
	h.wantAddr("inet_addr", "eth1", "")
	h.wantAddr("ipv6_addr", "lo", "::1/128")
	h.wantAddr("ipv6_scope", "lo", "Host")
	h.wantAddr("ipv6_addr", "eth0", "fe80::250:b6ff:fe12:3456/64") // the last line listed
	h.wantAddr("ipv6_scope", "eth0", "Link")
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:56")
	h.wantAddr("hw_addr", "lo", "00:00:00:00:00:00")
	h.wantAddr("hw_addr", "eth0:1", "")  // a label is not in sysfs
	h.wantAddr("hw_addr", "docker0", "") // listed in sysfs, no address file
	in, _ := h.Store.Load().InDom(indomNetAddr)
	var names []string
	for _, x := range in.All() {
		names = append(names, x.Name)
	}
	// Every name of sysfs, if_inet6 or SIOCGIFCONF, the label included.
	if want := []string{"docker0", "eth0", "eth0:1", "eth1", "ifb0", "lo", "wlan0"}; !slices.Equal(names, want) {
		t.Errorf("instances %v, want %v", names, want)
	}

	h.Use("t1")
	h.MustSample(t1)
	h.wantAddr("ipv6_addr", "eth0", "2001:db8::10/64")
	h.wantAddr("ipv6_scope", "eth0", "Global")
	h.wantAddr("ipv6_addr", "eth1", "fe80::a8b1:c2ff:fed3:e4f5/64")
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:56") // kept for hwAddrRefresh
	h.MustSample(t1.Add(hwAddrRefresh))
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:99")
}

// Without IPv4 (SIOCGIFCONF refused) the other sources still publish.
func TestNetAddrIPv4Fails(t *testing.T) {
	h := newAddrHarness(t, func() ([]kernel.IfAddr, error) { return nil, syscall.EPERM })
	err := h.Sample(t0)
	var partial *engine.PartialError
	if !errors.As(err, &partial) {
		t.Fatalf("sample error %v, want a partial one", err)
	}
	h.wantAddr("inet_addr", "eth0", "")
	h.wantAddr("ipv6_addr", "lo", "::1/128")
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:56")
}

func TestIPv6ScopeNames(t *testing.T) {
	for scope, want := range map[uint64]string{0: "Global", 0x10: "Host", 0x20: "Link", 0x40: "Site", 0x80: "Compat", 0x5: "Unknown"} {
		if got := ipv6ScopeName(scope); got != want {
			t.Errorf("scope %#x: %q, want %q", scope, got, want)
		}
	}
}

// The ioctl on this host lists loopback's address, as ip -4 addr does.
func TestIPv4AddrsOfThisHost(t *testing.T) {
	addrs, err := kernel.IPv4Addrs()
	if err != nil {
		t.Skipf("SIOCGIFCONF: %v", err)
	}
	for _, a := range addrs {
		if a.Name == "lo" && a.Addr == netip.MustParseAddr("127.0.0.1") {
			return
		}
	}
	t.Errorf("no 127.0.0.1 on lo in %v", addrs)
}

// The same SIOCGIFCONF list, if_inet6 text and class/net names repeat the
// sample before; a change in any of them, or a hardware address due, is
// read.
func TestNetAddrRepeatsWhatDidNotChange(t *testing.T) {
	v4 := []kernel.IfAddr{{Name: "lo", Addr: netip.MustParseAddr("127.0.0.1")}}
	h := newAddrHarness(t, func() ([]kernel.IfAddr, error) { return slices.Clone(v4), nil })
	repeated := func() bool { return h.Repeated("netaddr") }
	h.MustSample(t0)
	h.MustSample(t0.Add(time.Second))
	if !repeated() {
		t.Fatal("nothing changed, but the sample was built again")
	}
	v4 = append(v4, kernel.IfAddr{Name: "eth1", Addr: netip.MustParseAddr("192.0.2.9")})
	h.MustSample(t0.Add(2 * time.Second))
	if repeated() {
		t.Fatal("a new IPv4 address was taken for a repeat")
	}
	h.wantAddr("inet_addr", "eth1", "192.0.2.9")
	h.Use("t1") // other if_inet6 text and names
	h.MustSample(t0.Add(3 * time.Second))
	h.wantAddr("ipv6_addr", "eth0", "2001:db8::10/64")
	h.MustSample(t0.Add(4 * time.Second))
	if !repeated() {
		t.Fatal("nothing changed since the last sample, but it was built again")
	}
	h.MustSample(t0.Add(hwAddrRefresh))
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:99") // due: read although nothing else changed
}

// The hardware address refreshes stretch with the sampling (engine.Paced).
var _ engine.Paced = (*netAddrCollector)(nil)

// eth0's hardware address changes at t1: at a tenth of the pace it is
// read again after ten minutes; back at full pace, at the next sample.
func TestNetAddrHWPaced(t *testing.T) {
	h := newAddrHarness(t, fixedIPv4)
	c := h.C.(*netAddrCollector)
	h.MustSample(t0)
	c.Pace(10)
	h.Use("t1")
	h.MustSample(t0.Add(hwAddrRefresh))
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:56")
	h.MustSample(t0.Add(10 * hwAddrRefresh))
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:99")

	h.Use("t0")
	h.MustSample(t0.Add(12 * hwAddrRefresh))
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:99") // two minutes old
	c.Pace(1)
	h.MustSample(t0.Add(12*hwAddrRefresh + time.Second))
	h.wantAddr("hw_addr", "eth0", "00:50:b6:12:34:56")
}
