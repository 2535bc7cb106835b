package network

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture /proc/net/snmp and /proc/net/netstat (testdata/network t0, t1),
// the fields the tests use, t0 -> t1 (2 s later):
//
//	Tcp  RtoAlgorithm 1, RtoMin 200, RtoMax 120000, MaxConn -1,
//	     ActiveOpens 1000 -> 1020, PassiveOpens 500 -> 504,
//	     AttemptFails 20 -> 22, EstabResets 30 -> 30, CurrEstab 5 -> 7,
//	     InSegs 10000 -> 12000, OutSegs 9000 -> 10000, RetransSegs 10 -> 14,
//	     InErrs 0 -> 0, OutRsts 9 -> 11
//	Udp  InDatagrams 300 -> 500, NoPorts 4 -> 6, InErrors 0 -> 2,
//	     OutDatagrams 360 -> 560, RcvbufErrors 0 -> 2, SndbufErrors 0 -> 0
//	TcpExt ListenOverflows 0 -> 4, ListenDrops 0 -> 4, TCPTimeouts 2 -> 6,
//	     TW 20 -> 40, TCPFastOpenActiveFail 3 -> 5, TCPHPHits 26 -> 26

func TestNetProtoFirstSample(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "t0", engine.Env{})
	h.MustSample(t0)
	none := cache.InstNone
	h.WantU64("network.tcp.rtoalgorithm", none, 1)
	h.WantU64("network.tcp.rtomin", none, 200)
	h.WantU64("network.tcp.rtomax", none, 120000)
	// MaxConn -1 ("no limit") in two's complement, as pmdalinux shows it.
	h.WantU64("network.tcp.maxconn", none, 18446744073709551615)
	h.WantU64("network.tcp.activeopens", none, 1000)
	h.WantU64("network.tcp.currestab", none, 5)
	h.WantU64("network.tcp.insegs", none, 10000)
	h.WantU64("network.udp.indatagrams", none, 300)
	h.WantU64("network.udp.memerrors", none, 0)
	h.WantU64("network.tcp.listenoverflows", none, 0)
	h.WantU64("network.tcp.timeouts", none, 2)
	h.WantU64("network.tcp.timewaited", none, 20) // TcpExt "TW"
	h.WantU64("network.tcp.hphits", none, 26)
	// Two pmdalinux metrics read TCPFastOpenActiveFail.
	h.WantU64("network.tcp.fastopenactivefail", none, 3)
	h.WantU64("network.tcp.tcpfastopenactivefail", none, 3)
	// Fields this kernel no longer has give no value, not 0.
	h.WantAbsent("network.tcp.prequeued", none)
	h.WantAbsent("network.tcp.tcploss", none)
	if n := h.Published("rate."); n != 0 {
		t.Errorf("first sample published %d rates", n)
	}
}

// snmp6 (t0 -> t1): Ip6InReceives 1000 -> 1200, Udp6InDatagrams 50 -> 90.
func TestNetProtoIPv6(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "t0", engine.Env{})
	h.MustSample(t0)
	h.WantU64("network.ip6.inreceives", cache.InstNone, 1000)
	h.WantU64("network.udp6.indatagrams", cache.InstNone, 50)
	h.Use("t1")
	h.MustSample(t1)
	h.WantFloat("rate.network.ip6.inreceives", cache.InstNone, 100)
	h.WantFloat("rate.network.udp6.indatagrams", cache.InstNone, 20)
}

func TestNetProtoRates(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "t0", engine.Env{})
	h.MustSample(t0)
	h.Use("t1")
	h.MustSample(t1)
	none := cache.InstNone
	for name, want := range map[string]float64{
		"tcp.activeopens":           10,   // (1020 - 1000) / 2 s
		"tcp.passiveopens":          2,    // (504 - 500) / 2
		"tcp.attemptfails":          1,    // (22 - 20) / 2
		"tcp.estabresets":           0,    // unchanged
		"tcp.insegs":                1000, // (12000 - 10000) / 2
		"tcp.outsegs":               500,  // (10000 - 9000) / 2
		"tcp.retranssegs":           2,    // (14 - 10) / 2
		"tcp.inerrs":                0,
		"tcp.outrsts":               1,   // (11 - 9) / 2
		"udp.indatagrams":           100, // (500 - 300) / 2
		"udp.noports":               1,   // (6 - 4) / 2
		"udp.inerrors":              1,   // (2 - 0) / 2
		"udp.outdatagrams":          100, // (560 - 360) / 2
		"udp.recvbuferrors":         1,   // (2 - 0) / 2
		"udp.sndbuferrors":          0,
		"tcp.listenoverflows":       2,  // (4 - 0) / 2
		"tcp.listendrops":           2,  // (4 - 0) / 2
		"tcp.timeouts":              2,  // (6 - 2) / 2
		"tcp.timewaited":            10, // (40 - 20) / 2
		"tcp.fastopenactivefail":    1,  // (5 - 3) / 2
		"tcp.tcpfastopenactivefail": 1,
	} {
		h.WantFloat("rate.network."+name, none, want)
	}
	// Instant metrics have no rate twin.
	h.WantU64("network.tcp.currestab", none, 7)
	for _, name := range []string{"tcp.currestab", "tcp.maxconn", "tcp.rtomin"} {
		if _, ok := h.Store.Schema().Lookup(engine.Prefix + "rate.network." + name); ok {
			t.Errorf("instant %s has a rate", name)
		}
	}
	if n := h.Resets(); n != 0 {
		t.Errorf("Resets() = %d", n)
	}
}

// testdata/network/reset has t1's snmp with Tcp InSegs fallen to 500.
func TestNetProtoCounterReset(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "t0", engine.Env{})
	h.MustSample(t0)
	h.Use("reset")
	h.MustSample(t1)
	h.WantAbsent("rate.network.tcp.insegs", cache.InstNone)
	h.WantU64("network.tcp.insegs", cache.InstNone, 500)
	h.WantFloat("rate.network.tcp.activeopens", cache.InstNone, 10)
	if n := h.Resets(); n != 1 {
		t.Errorf("Resets() = %d, want 1", n)
	}
}

// testdata/network/malformed: snmp's Tcp pair has 5 names and 4 values (the
// whole pair is skipped), Udp NoPorts is "x" (skipped alone), and there are
// orphan values, a line without a colon and a heading at the end without
// values. netstat has a heading without values, then a good TcpExt pair
// (ListenOverflows 5, ListenDrops 6, TCPTimeouts 7) and a second TcpExt
// pair repeating ListenOverflows as 99.
func TestNetProtoMalformed(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "malformed", engine.Env{})
	h.MustSample(t0)
	none := cache.InstNone
	h.WantAbsent("network.tcp.activeopens", none)
	h.WantAbsent("network.tcp.rtoalgorithm", none)
	h.WantAbsent("network.udp.noports", none)
	h.WantU64("network.udp.indatagrams", none, 100)
	h.WantU64("network.udp.inerrors", none, 0)
	h.WantU64("network.udp.outdatagrams", none, 200)
	h.WantU64("network.tcp.listenoverflows", none, 5) // the first, not 99
	h.WantU64("network.tcp.listendrops", none, 6)
	h.WantU64("network.tcp.timeouts", none, 7)
	if n := len(h.Values("network.tcp.listenoverflows")); n != 1 {
		t.Errorf("%d values for one metric", n)
	}
}

// Without /proc/net/netstat the snmp metrics are still published.
func TestNetProtoWithoutNetstat(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "snmponly", engine.Env{})
	h.MustSample(t0)
	h.WantU64("network.tcp.activeopens", cache.InstNone, 1000)
	h.WantAbsent("network.tcp.listenoverflows", cache.InstNone)
}

func TestNetProtoUnusableSource(t *testing.T) {
	for _, tree := range []string{"garbage", "empty"} {
		h := newNetHarness(t, NewNetProtoCollector, tree, engine.Env{})
		if err := h.Sample(t0); err == nil {
			t.Errorf("%s: sample succeeded", tree)
		}
		h.NothingPublished()
	}
	if _, err := NewNetProtoCollector(engine.Env{Proc: "/nonexistent/proc"}); err == nil {
		t.Error("a missing proc root was accepted")
	}
}

func TestParseSNMP(t *testing.T) {
	type kv struct {
		proto, field string
		v            uint64
	}
	for _, c := range []struct {
		name string
		data string
		want []kv
		bad  int
	}{
		{"by heading position, not index",
			"Tcp: InSegs MaxConn ActiveOpens\nTcp: 7 -1 3\n",
			[]kv{{"Tcp", "InSegs", 7}, {"Tcp", "MaxConn", 18446744073709551615}, {"Tcp", "ActiveOpens", 3}}, 0},
		{"Udp and UdpLite are different protocols",
			"Udp: InDatagrams\nUdp: 1\nUdpLite: InDatagrams\nUdpLite: 2\n",
			[]kv{{"Udp", "InDatagrams", 1}, {"UdpLite", "InDatagrams", 2}}, 0},
		{"count mismatch skips the pair",
			"Tcp: A B C\nTcp: 1 2\nUdp: X\nUdp: 5\n",
			[]kv{{"Udp", "X", 5}}, 1},
		{"bad value skipped alone",
			"Udp: A B C\nUdp: 1 zz 3\n",
			[]kv{{"Udp", "A", 1}, {"Udp", "C", 3}}, 1},
		{"values without a heading",
			"Tcp: 1 2 3\nUdp: A\nUdp: 4\n",
			[]kv{{"Udp", "A", 4}}, 1},
		{"heading without values, then another heading",
			"IpExt: A B\nTcpExt: C\nTcpExt: 9\nUdp: D\n",
			[]kv{{"TcpExt", "C", 9}}, 2},
		{"values of another protocol after a heading",
			"Tcp: A\nUdp: 1\n",
			nil, 2},
		{"no colon",
			"garbage\n\n   \nTcp: A\nTcp: 1",
			[]kv{{"Tcp", "A", 1}}, 1},
		{"empty", "", nil, 0},
		{"signs, and the limits of 64 bits",
			"Tcp: A B C D E F G H I\nTcp: +5 -0 -9223372036854775808 -9223372036854775809 +9223372036854775807 +9223372036854775808 18446744073709551615 18446744073709551616 -\n",
			[]kv{{"Tcp", "A", 5}, {"Tcp", "B", 0}, {"Tcp", "C", 1 << 63}, {"Tcp", "E", 1<<63 - 1}, {"Tcp", "G", 18446744073709551615}}, 4},
		{"a heading whose first name is a number is values", "Tcp: 1x 2\nTcp: 1 2\n",
			[]kv{{"Tcp", "1x", 1}, {"Tcp", "2", 2}}, 0},
		{"values that look like names are values, skipped", "Tcp: A B\nTcp: C D\n", nil, 2},
		{"an empty heading pairs with empty values", "Tcp:\nTcp:\nUdp: A\nUdp: 1\n", []kv{{"Udp", "A", 1}}, 0},
		{"tabs and carriage returns separate", "Udp:\tA\tB\r\nUdp: 1\t2\r\n", []kv{{"Udp", "A", 1}, {"Udp", "B", 2}}, 0},
		{"an empty protocol", ": A\n: 1\n", nil, 2},
		{"the protocol is compared whole", "Tcp : A\nTcp: 1\n", nil, 2},
	} {
		var got []kv
		bad := snmpEachField([]byte(c.data), func(p, f string, v uint64) { got = append(got, kv{p, f, v}) })
		if !reflect.DeepEqual(got, c.want) || bad != c.bad {
			t.Errorf("%s: got %v bad %d, want %v bad %d", c.name, got, bad, c.want, c.bad)
		}
	}
}

// snmpEachField calls fn for every value of data with its protocol and
// field name, as the collector sees them through its headings.
func snmpEachField(data []byte, fn func(proto, field string, v uint64)) (bad int) {
	return kernel.ParseSNMP(data, func(proto, names, values []byte) int {
		var fields []string
		for rest := names; ; {
			var f []byte
			if f, rest = kernel.NextWord(rest); f == nil {
				break
			}
			fields = append(fields, string(f))
		}
		return kernel.SNMPValues(len(fields), values, func(col int, v uint64) { fn(string(proto), fields[col], v) })
	})
}

// Parsing allocates nothing of its own: the collector's headings are built
// once, and a sample only reads values.
func TestNetProtoSampleAllocations(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "t0", engine.Env{})
	h.MustSample(t0)
	c := h.C.(*netProtoCollector)
	data := readFixture(t, "t0/proc/net/netstat")
	f := c.files[1]
	n := testing.AllocsPerRun(20, func() {
		pair := 0
		kernel.ParseSNMP(data, func(proto, names, values []byte) int {
			hd := f.heading(pair, proto, names, c.index)
			pair++
			return kernel.SNMPValues(len(hd.cols), values, func(int, uint64) {})
		})
	})
	if n != 0 {
		t.Errorf("%v allocations per parse", n)
	}
}

// Every snmpFields entry names a field the kernel really prints, in the
// right file: the fixtures are copies of this machine's files.
func TestSNMPFieldsExist(t *testing.T) {
	present := map[snmpKey]bool{}
	for _, f := range []string{"snmp", "netstat"} {
		data := readFixture(t, "t0/proc/net/"+f)
		snmpEachField(data, func(p, field string, _ uint64) { present[snmpKey{p, field}] = true })
	}
	for _, line := range strings.Split(string(readFixture(t, "t0/proc/net/snmp6")), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			present[snmpKey{snmp6Proto, f[0]}] = true
		}
	}
	// Fields pmdalinux knows that kernel 6.18 no longer prints.
	gone := map[string]bool{"TCPPrequeued": true, "TCPDirectCopyFromBacklog": true,
		"TCPDirectCopyFromPrequeue": true, "TCPPrequeueDropped": true, "TCPHPHitsToUser": true,
		"TCPFACKReorder": true, "TCPForwardRetrans": true, "TCPSchedulerFailed": true, "TCPLoss": true,
		"PAWSPassive": true}
	for _, f := range snmpFields {
		if !present[snmpKey{f.proto, f.field}] && !gone[f.field] {
			t.Errorf("%s: %s %s is not in the fixture files", f.desc.Name, f.proto, f.field)
		}
		sub := strings.SplitN(strings.TrimPrefix(f.desc.Name, "hostcache.network."), ".", 2)[0]
		if !slices.Contains([]string{"ip", "icmp", "udplite", "tcp", "udp", "ip6", "icmp6", "udp6", "udplite6"}, sub) {
			t.Errorf("%s: not below network.ip, icmp, udplite, tcp, udp or their IPv6 twins", f.desc.Name)
		}
	}
}

// IcmpMsg (t0 -> t1): InType3 1 -> 5; OutType8 appears at t1 with 4, the
// heading growing as the kernel adds a column for a type first seen.
func TestNetProtoICMPMsg(t *testing.T) {
	h := newNetHarness(t, NewNetProtoCollector, "t0", engine.Env{})
	h.MustSample(t0)
	h.WantU64("network.icmpmsg.intype", 3, 1)
	h.WantAbsent("network.icmpmsg.outtype", 8)
	h.Use("t1")
	h.MustSample(t1)
	h.WantU64("network.icmpmsg.outtype", 8, 4)
	h.WantFloat("rate.network.icmpmsg.intype", 3, 2) // (5 - 1) / 2 s
	if n := len(h.Instances(indomICMPType)); n != 256 {
		t.Errorf("%d ICMP types, want 256", n)
	}
}
