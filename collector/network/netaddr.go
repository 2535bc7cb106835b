package network

import (
	"bufio"
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Interface addresses, pmdalinux's cluster 33 items in our 46, over an
// instance domain of its own (pmdalinux's 60.17) that holds every name one
// of the sources lists: IPv4 labels ("eth0:1") included, as ifconfig shows
// them.
var (
	netAddrInet = engine.Row{Name: "hostcache.network.interface.inet_addr", Cluster: clusterNetAddr, Item: 0,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomNetAddr}.Desc()
	netAddrIPv6 = engine.Row{Name: "hostcache.network.interface.ipv6_addr", Cluster: clusterNetAddr, Item: 1,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomNetAddr}.Desc()
	netAddrScope = engine.Row{Name: "hostcache.network.interface.ipv6_scope", Cluster: clusterNetAddr, Item: 2,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomNetAddr}.Desc()
	netAddrHW = engine.Row{Name: "hostcache.network.interface.hw_addr", Cluster: clusterNetAddr, Item: 3,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomNetAddr}.Desc()
	netAddrSource = []cache.Desc{netAddrInet, netAddrIPv6, netAddrScope, netAddrHW}
)

// hwAddrRefresh is how long a hardware address is kept: set by the driver,
// changed only by an administrator (ip link set address). Stretched while
// no client reads the source (paced).
const hwAddrRefresh = time.Minute

// netAddr is what the sources say of one name.
type netAddr struct {
	inet, ipv6, scope, hw string
}

// hwAddr is a hardware address as last read from sysfs.
type hwAddr struct {
	addr string
	ok   bool
	read time.Time
}

// netAddrCollector reads IPv4 addresses with SIOCGIFCONF (ipv4, which
// tests replace), IPv6 ones from <proc>/net/if_inet6, and hardware ones
// from <sys>/class/net/<name>/address.
type netAddrCollector struct {
	hostkit.Paced // hardware address refreshes
	ipv4          func() ([]kernel.IfAddr, error)
	inet6         *kernel.File
	sysNet        string
	ids           *cache.IDMap
	hw            map[string]hwAddr
	buf           []byte
	insts         *cache.Instances
	// What the last sample built was made from: the SIOCGIFCONF list, the
	// if_inet6 text (memo), the names in class/net, and when a hardware
	// address is next due. The same again repeats that sample.
	lastV4  []kernel.IfAddr
	memo    kernel.Memo
	names   []string
	hwDue   time.Time
	builtAt time.Time
}

// NewNetAddrCollector names the files below env.Proc and env.Sys.
func NewNetAddrCollector(env engine.Env) (engine.Collector, error) {
	inet6, err := hostkit.ProcFile(env, "net/if_inet6")
	if err != nil {
		return nil, fmt.Errorf("netaddr: %w", err)
	}
	return &netAddrCollector{
		ipv4: kernel.IPv4Addrs, inet6: kernel.NewFileKept(env.Proc, inet6, env.KeepFiles),
		sysNet: filepath.Join(env.Sys, "class", "net"), ids: env.IDMap(indomNetAddr), hw: map[string]hwAddr{},
	}, nil
}

func (c *netAddrCollector) Name() string { return "netaddr" }

func (c *netAddrCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: netAddrSource,
		InDoms: []cache.InDomDesc{{ID: indomNetAddr, Name: "interface address",
			Labels: hostkit.IndomLabels(`"interface"`, "per interface")}}}
}

// Sample gathers the three sources; each fails alone.
func (c *netAddrCollector) Sample(b *cache.Builder, now time.Time) error {
	v4, errV4 := c.ipv4()
	var errInet6 error
	c.buf, errInet6 = c.inet6.Read(c.buf)
	names, errNames := c.listNames()
	if errV4 == nil && errInet6 == nil && errNames == nil && now.Before(c.hwDue) && !now.Before(c.builtAt) &&
		slices.Equal(v4, c.lastV4) && c.memo.Same(c.buf) && slices.Equal(names, c.names) && b.Again() {
		return nil // the same addresses and names, no hardware address due
	}
	err := c.build(b, now, v4, errV4, errInet6, names, errNames)
	if err == nil {
		c.lastV4 = append(c.lastV4[:0], v4...)
		c.memo.Keep(c.buf)
		c.names, c.builtAt = append(c.names[:0], names...), now
	}
	return err
}

// listNames returns the names in class/net, in the directory's order.
func (c *netAddrCollector) listNames() ([]string, error) {
	d, err := os.Open(c.sysNet)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// build makes the sample from what Sample read.
func (c *netAddrCollector) build(b *cache.Builder, now time.Time, v4 []kernel.IfAddr, errV4, errInet6 error,
	names []string, errNames error) error {
	addrs := map[string]*netAddr{}
	of := func(name string) *netAddr {
		if a, ok := addrs[name]; ok {
			return a
		}
		a := &netAddr{}
		addrs[name] = a
		return a
	}
	var errs []error
	if errV4 != nil {
		errs = append(errs, fmt.Errorf("SIOCGIFCONF: %w", errV4))
	} else {
		for _, a := range v4 {
			if x := of(a.Name); x.inet == "" {
				x.inet = a.Addr.String() // the name's primary address
			}
		}
	}
	if errInet6 != nil {
		errs = append(errs, errInet6)
	} else {
		c.readInet6(of)
	}
	if errNames != nil {
		errs = append(errs, errNames)
	} else {
		c.readHW(of, names, now)
	}
	c.publish(b, addrs)
	return engine.PartialOf(errs, 3)
}

// readInet6 reads if_inet6: "<32 hex digits> <index> <prefix> <scope>
// <flags> <name>", all hexadecimal. The last line of a name is its value,
// as pmdalinux keeps it.
func (c *netAddrCollector) readInet6(of func(string) *netAddr) {
	sc := bufio.NewScanner(bytes.NewReader(c.buf))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 || len(f[0]) != 32 {
			continue
		}
		var raw [16]byte
		ok := true
		for i := range raw {
			v, err := strconv.ParseUint(f[0][2*i:2*i+2], 16, 8)
			ok = ok && err == nil
			raw[i] = byte(v)
		}
		prefix, err1 := strconv.ParseUint(f[2], 16, 8)
		scope, err2 := strconv.ParseUint(f[3], 16, 16)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		a := of(f[5])
		a.ipv6 = netip.AddrFrom16(raw).String() + "/" + strconv.FormatUint(prefix, 10)
		a.scope = ipv6ScopeName(scope)
	}
}

// ipv6ScopeName names the kernel's address scope (IPV6_ADDR_* of
// <net/ipv6.h>) with pmdalinux's words.
func ipv6ScopeName(scope uint64) string {
	switch scope {
	case 0x00:
		return "Global"
	case 0x10:
		return "Host"
	case 0x20:
		return "Link"
	case 0x40:
		return "Site"
	case 0x80:
		return "Compat"
	}
	return "Unknown"
}

// Pace takes the source's slow-down (engine.Paced); the addresses due are
// counted afresh at the new pace by the next sample.
func (c *netAddrCollector) Pace(factor int) {
	c.Paced.Pace(factor)
	c.hwDue = time.Time{}
}

// readHW reads the address of each name in class/net, again only once
// hwAddrRefresh (at the current pace) has passed since the last read, and
// notes when the next one is due.
func (c *netAddrCollector) readHW(of func(string) *netAddr, names []string, now time.Time) {
	seen := make(map[string]bool, len(names))
	c.hwDue = now.Add(c.Every(hwAddrRefresh))
	for _, name := range names {
		if strings.HasPrefix(name, ".") {
			continue
		}
		seen[name] = true
		h, ok := c.hw[name]
		if !ok || now.Sub(h.read) >= c.Every(hwAddrRefresh) || now.Before(h.read) {
			line, err := kernel.ReadFile(filepath.Join(c.sysNet, name, "address"))
			h = hwAddr{read: now}
			if err == nil {
				h.addr, _, _ = strings.Cut(strings.TrimSpace(string(line)), "\n")
				h.ok = h.addr != ""
			}
			c.hw[name] = h
		}
		if due := h.read.Add(c.Every(hwAddrRefresh)); due.Before(c.hwDue) {
			c.hwDue = due
		}
		x := of(name)
		if h.ok {
			x.hw = h.addr
		}
	}
	for name := range c.hw {
		if !seen[name] {
			delete(c.hw, name)
		}
	}
}

// publish sets the instances and their values.
func (c *netAddrCollector) publish(b *cache.Builder, addrs map[string]*netAddr) {
	list := make([]cache.Instance, 0, len(addrs))
	for name := range addrs {
		list = append(list, cache.Instance{ID: c.ids.ID(name), Name: name})
	}
	slices.SortFunc(list, func(a, b cache.Instance) int { return strings.Compare(a.Name, b.Name) })
	if c.insts == nil || !hostkit.SameHostInstances(c.insts.All(), list) {
		c.insts = cache.NewInstances(list)
	}
	b.SetInDom(indomNetAddr, c.insts)
	for _, in := range list {
		a := addrs[in.Name]
		for _, v := range []struct {
			d cache.Desc
			s string
		}{{netAddrInet, a.inet}, {netAddrIPv6, a.ipv6}, {netAddrScope, a.scope}, {netAddrHW, a.hw}} {
			if v.s != "" {
				b.SetString(v.d.ID, in.ID, v.s)
			}
		}
	}
}
