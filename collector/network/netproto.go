package network

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// snmpKey names one field of the snmp or netstat files.
type snmpKey struct{ proto, field string }

// netProtoCollector reads the IP, TCP, UDP and Multipath TCP counters of
// /proc/net/snmp, /proc/net/netstat and /proc/net/snmp6.
type netProtoCollector struct {
	files []*snmpFile  // net/snmp, net/netstat
	snmp6 *kernel.File // net/snmp6: "name value" lines
	six   *kernel.VMStat
	// sixFields are the netprotoFields each of six's slots feeds, by slot: the
	// values are set in the same order every sample (a map's order is not),
	// so a sample that read the same text sets the same values.
	sixFields [][]int
	buf       []byte       // the file being parsed, reused
	descs     []cache.Desc // in netprotoFields order
	// index finds the netprotoFields (usually one) that read a field.
	index map[snmpKey][]int
	seen  []bool // by netprotoFields index: set in the current sample
	found int    // fields set in the current sample
	// icmpTypes is the domain of network.icmpmsg: every ICMP message type,
	// "Type0" to "Type255", as pmdalinux lists them; those the kernel has
	// counted have values.
	icmpTypes *cache.Instances
}

// snmpFile is one of the files, kept open (see kernel.File), with the
// meaning of each column of its headings as last seen.
type snmpFile struct {
	path  string
	f     *kernel.File
	heads []snmpHeading // by the heading's place among the file's pairs
}

// snmpHeading is one "Proto: names" line and the netprotoFields each of its
// columns feeds. The kernel prints the same headings every time, so the
// field names are looked up only when a heading changes (a new kernel
// module, or IcmpMsg's list of message types growing), not for every
// value of every sample.
type snmpHeading struct {
	proto, names []byte // the text it was built from
	cols         [][]int
	// icmp, on the IcmpMsg heading, is each column's message type: t+1
	// for "InTypeT", -(t+1) for "OutTypeT", 0 for another name.
	icmp []int
}

// NewNetProtoCollector reads below env.Proc.
func NewNetProtoCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Proc); err != nil {
		return nil, fmt.Errorf("netproto: %w", err)
	}
	c := &netProtoCollector{
		icmpTypes: icmpTypeInstances(),
		buf:       make([]byte, 0, 8192),
		index:     map[snmpKey][]int{},
		seen:      make([]bool, len(netprotoFields)),
	}
	for _, name := range []string{"snmp", "netstat"} {
		path := filepath.Join(env.Proc, "net", name)
		c.files = append(c.files, &snmpFile{path: path, f: kernel.NewFileKept(env.Proc, path, env.KeepFiles)})
	}
	var six []string
	for i, f := range netprotoFields {
		c.descs = append(c.descs, f.desc)
		k := snmpKey{f.proto, f.field}
		c.index[k] = append(c.index[k], i)
		if f.proto == snmp6Proto {
			six = append(six, f.field)
		}
	}
	path := filepath.Join(env.Proc, "net", "snmp6")
	c.snmp6, c.six = kernel.NewFileKept(env.Proc, path, env.KeepFiles), kernel.NewVMStat(six...)
	c.sixFields = make([][]int, len(c.six.Val))
	for name, slot := range c.six.Slot {
		c.sixFields[slot] = c.index[snmpKey{snmp6Proto, name}]
	}
	return c, nil
}

func (c *netProtoCollector) Name() string { return "netproto" }

func (c *netProtoCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: append(c.descs[:len(c.descs):len(c.descs)], icmpMsgIn, icmpMsgOut),
		InDoms: []cache.InDomDesc{{ID: indomICMPType, Name: "icmp message types"}}}
}

// Sample reads the three files once. A file that is missing (netstat on
// an old or restricted kernel, snmp6 without IPv6) only leaves its fields
// without values; the sample fails when none gives a single field we know.
func (c *netProtoCollector) Sample(b *cache.Builder, now time.Time) error {
	var errs []error
	c.found = 0
	clear(c.seen)
	for _, f := range c.files {
		var err error
		if c.buf, err = f.f.Read(c.buf); err != nil {
			errs = append(errs, err)
			continue
		}
		pair := 0
		bad := kernel.ParseSNMP(c.buf, func(proto, names, values []byte) int {
			h := f.heading(pair, proto, names, c.index)
			pair++
			return kernel.SNMPValues(len(h.cols), values, func(col int, v uint64) {
				for _, i := range h.cols[col] {
					c.set(b, i, v)
				}
				if h.icmp != nil {
					setICMPMsg(b, h.icmp[col], v)
				}
			})
		})
		if bad > 0 {
			errs = append(errs, fmt.Errorf("%s: %d malformed lines or values skipped", f.path, bad))
		}
	}
	b.SetInDom(indomICMPType, c.icmpTypes)
	if err := c.sampleSNMP6(b); err != nil {
		errs = append(errs, err)
	}
	if c.found == 0 {
		return fmt.Errorf("netproto: no TCP or UDP counters read: %w", errors.Join(errs...))
	}
	return nil
}

// sampleSNMP6 reads the IPv6 counters; a kernel without IPv6 has no
// snmp6 and loses only them.
func (c *netProtoCollector) sampleSNMP6(b *cache.Builder) error {
	var err error
	if c.buf, err = c.snmp6.Read(c.buf); err != nil {
		return err
	}
	if err := kernel.ParseVMStat(c.buf, c.six); err != nil {
		return fmt.Errorf("%s: %w", c.snmp6.Path, err)
	}
	for slot, fields := range c.sixFields {
		if c.six.Has[slot] {
			for _, i := range fields {
				c.set(b, i, c.six.Val[slot])
			}
		}
	}
	return nil
}

// heading returns the column meanings of the file's i-th heading, built
// again only when its text is not the one they were built from.
func (f *snmpFile) heading(i int, proto, names []byte, index map[snmpKey][]int) *snmpHeading {
	if i == len(f.heads) {
		f.heads = append(f.heads, snmpHeading{})
	}
	h := &f.heads[i]
	if bytes.Equal(h.proto, proto) && bytes.Equal(h.names, names) && h.cols != nil {
		return h
	}
	h.proto = append(h.proto[:0], proto...)
	h.names = append(h.names[:0], names...)
	h.cols = make([][]int, 0, kernel.SNMPFieldCount(names))
	h.icmp = nil
	p := string(proto)
	for rest := names; ; {
		var name []byte
		if name, rest = kernel.NextWord(rest); name == nil {
			break
		}
		h.cols = append(h.cols, index[snmpKey{p, string(name)}])
		if p == "IcmpMsg" {
			h.icmp = append(h.icmp, icmpMsgType(string(name)))
		}
	}
	return h
}

// set publishes the value of netprotoFields[i]; a field repeated in a damaged
// file keeps its first value.
func (c *netProtoCollector) set(b *cache.Builder, i int, v uint64) {
	if c.seen[i] {
		return
	}
	c.seen[i] = true
	c.found++
	d := &c.descs[i]
	if d.Sem == cache.SemCounter {
		b.SetU64(d.ID, cache.InstNone, v)
		return
	}
	b.SetU64(d.ID, cache.InstNone, v)
}

// The ICMP messages of each type received and sent, from the IcmpMsg
// lines of /proc/net/snmp, with pmdalinux's items (its cluster 14, 88 and
// 89; ours 9, 390 and 391).
var (
	icmpMsgIn = engine.Row{Name: "hostcache.network.icmpmsg.intype", Cluster: clusterSNMP, Item: 390,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomICMPType}.Desc()
	icmpMsgOut = engine.Row{Name: "hostcache.network.icmpmsg.outtype", Cluster: clusterSNMP, Item: 391,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomICMPType}.Desc()
)

// icmpMsgType reads "InType3" as 4 and "OutType3" as -4 (see snmpHeading).
func icmpMsgType(name string) int {
	sign := 1
	rest, ok := strings.CutPrefix(name, "InType")
	if !ok {
		if rest, ok = strings.CutPrefix(name, "OutType"); !ok {
			return 0
		}
		sign = -1
	}
	t, err := strconv.Atoi(rest)
	if err != nil || t < 0 || t > 255 {
		return 0
	}
	return sign * (t + 1)
}

// setICMPMsg publishes one IcmpMsg column.
func setICMPMsg(b *cache.Builder, typ int, v uint64) {
	switch {
	case typ > 0:
		b.SetU64(icmpMsgIn.ID, uint32(typ-1), v)
	case typ < 0:
		b.SetU64(icmpMsgOut.ID, uint32(-typ-1), v)
	}
}

func icmpTypeInstances() *cache.Instances {
	list := make([]cache.Instance, 256)
	for t := range list {
		list[t] = cache.Instance{ID: uint32(t), Name: "Type" + strconv.Itoa(t)}
	}
	return cache.NewInstances(list)
}
