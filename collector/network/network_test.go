package network

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// Fixture interfaces (testdata/network, see its README), in /proc/net/dev
// order, which gives their instance ids on a fresh id map:
//
//	id name     sysfs                                   network.all by default
//	0  lo       virtual, type 772, mtu 65536, up+running   no (loopback, virtual)
//	1  ifb0     virtual, down                              no (virtual)
//	2  eth0     virtio_net, speed -1, duplex unknown, mtu 1400, up+running   yes
//	3  eth1     e1000e, 1000 Mbit/s full, mtu 1500 (9000 at t1), up+running yes
//	4  docker0  virtual bridge, up but operstate down      no (virtual)
//	5  wlan0    iwlwifi, wireless, down                    yes
//
// Counters (only the non-zero columns), t0 -> t1 (2 s later):
//
//	lo      in.bytes 8000 -> 10000, in.packets 100 -> 120, out the same
//	eth0    in.bytes 28000000 -> 30000000, in.packets 1000 -> 3000,
//	        out.bytes 94000 -> 294000, out.packets 900 -> 1900
//	eth1    in.bytes 5000000 -> 5400000, in.packets 4000 -> 4400,
//	        in.errors 2 -> 4, in.drops 1 -> 5, in.frame 0 -> 2, in.mcasts 10 -> 30,
//	        out.bytes 3000000 -> 3600000, out.packets 3000 -> 3600,
//	        out.errors 1 -> 3, out.carrier 0 -> 2
//	docker0 in.bytes 600000 -> 700000, in.packets 500 -> 600,
//	        out.bytes 700000 -> 800000, out.packets 400 -> 500

func netIDs(t *testing.T) engine.Env {
	return engine.Env{IDDir: t.TempDir(), Filter: engine.Filter{}}
}

func TestNetworkFirstSample(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)

	want := map[string]uint32{"lo": 0, "ifb0": 1, "eth0": 2, "eth1": 3, "docker0": 4, "wlan0": 5}
	for name, id := range want {
		if got := h.inst(name); got != id {
			t.Errorf("%s has id %d, want %d", name, got, id)
		}
	}
	h.WantU64("hinv.ninterface", cache.InstNone, 6)

	h.wantIface("in.bytes", "eth0", 28000000)
	h.wantIface("out.bytes", "eth0", 94000)
	h.wantIface("total.bytes", "eth0", 28094000) // 28000000 + 94000
	h.wantIface("total.packets", "eth0", 1900)   // 1000 + 900
	h.wantIface("in.errors", "eth1", 2)
	h.wantIface("in.mcasts", "eth1", 10)
	h.wantIface("total.mcasts", "eth1", 10) // in.mcasts alone
	h.wantIface("total.errors", "eth1", 3)  // 2 + 1
	h.wantIface("total.drops", "eth1", 1)   // 1 + 0
	h.wantIface("collisions", "eth1", 0)

	// network.all by default: eth0 + eth1 + wlan0 (all zero).
	h.WantU64("network.all.in.bytes", cache.InstNone, 33000000)    // 28000000 + 5000000
	h.WantU64("network.all.in.packets", cache.InstNone, 5000)      // 1000 + 4000
	h.WantU64("network.all.in.errors", cache.InstNone, 2)          // eth1
	h.WantU64("network.all.in.drops", cache.InstNone, 1)           // eth1
	h.WantU64("network.all.out.bytes", cache.InstNone, 3094000)    // 94000 + 3000000
	h.WantU64("network.all.out.packets", cache.InstNone, 3900)     // 900 + 3000
	h.WantU64("network.all.out.errors", cache.InstNone, 1)         // eth1
	h.WantU64("network.all.out.drops", cache.InstNone, 0)          // none
	h.WantU64("network.all.total.bytes", cache.InstNone, 36094000) // 33000000 + 3094000
	h.WantU64("network.all.total.packets", cache.InstNone, 8900)   // 5000 + 3900
	h.WantU64("network.all.total.errors", cache.InstNone, 3)       // 2 + 1
	h.WantU64("network.all.total.drops", cache.InstNone, 1)        // 1 + 0

	if n := h.Published("rate."); n != 0 {
		t.Errorf("first sample published %d rate values", n)
	}
}

func TestNetworkAttributes(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)

	// lo: flags 0x9 (up), operstate "unknown" counts as running; speed
	// and duplex refuse to be read, so have no value.
	h.wantIface("mtu", "lo", 65536)
	h.wantIface("type", "lo", 772)
	h.wantIface("virtual", "lo", 1)
	h.wantIface("wireless", "lo", 0)
	h.wantIface("up", "lo", 1)
	h.wantIface("running", "lo", 1)
	h.WantAbsent("network.interface.speed", h.inst("lo"))
	h.WantAbsent("network.interface.duplex", h.inst("lo"))

	// eth0 (virtio): speed -1 and duplex "unknown" give no value.
	h.wantIface("mtu", "eth0", 1400)
	h.wantIface("type", "eth0", 1)
	h.wantIface("virtual", "eth0", 0)
	h.wantIface("up", "eth0", 1)
	h.wantIface("running", "eth0", 1)
	h.WantAbsent("network.interface.speed", h.inst("eth0"))
	h.WantAbsent("network.interface.baudrate", h.inst("eth0"))
	h.WantAbsent("network.interface.duplex", h.inst("eth0"))

	// eth1: 1000 Mbit/s = 1e9/8 = 125000000 byte/s = 125000000/2^20
	// = 119.20928955078125 "Mbyte"/s; full duplex is 2.
	h.WantFloat("network.interface.speed", h.inst("eth1"), 119.20928955078125)
	h.wantIface("baudrate", "eth1", 125000000)
	h.wantIface("duplex", "eth1", 2)
	h.wantIface("mtu", "eth1", 1500)

	// ifb0: flags 0x82, not up, so not running.
	h.wantIface("up", "ifb0", 0)
	h.wantIface("running", "ifb0", 0)
	// docker0: flags 0x1003 (up) but operstate "down": up, not running.
	h.wantIface("up", "docker0", 1)
	h.wantIface("running", "docker0", 0)
	h.wantIface("virtual", "docker0", 1)
	// wlan0: a wireless directory, flags 0x1002 (down).
	h.wantIface("wireless", "wlan0", 1)
	h.wantIface("up", "wlan0", 0)
	h.wantIface("virtual", "wlan0", 0)

	virtual := func(v bool) cache.Label {
		if v {
			return cache.Label{Name: "virtual", Value: "true"}
		}
		return cache.Label{Name: "virtual", Value: "false"}
	}
	wantLabels := map[string][]cache.Label{
		"lo":      {virtual(true)},
		"ifb0":    {virtual(true)},
		"eth0":    {cache.StringLabel("driver", "virtio_net"), virtual(false)},
		"eth1":    {cache.StringLabel("driver", "e1000e"), virtual(false)},
		"docker0": {virtual(true)},
		"wlan0":   {cache.StringLabel("driver", "iwlwifi"), virtual(false)},
	}
	for name, inst := range h.instances() {
		if !reflect.DeepEqual(inst.Labels, wantLabels[name]) {
			t.Errorf("%s labels %v, want %v", name, inst.Labels, wantLabels[name])
		}
	}
	if got := h.instances()["eth0"].Labels[0].Value; got != `"virtio_net"` {
		t.Errorf("driver label value %s, want a JSON string", got)
	}
}

func TestNetworkRates(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)
	h.Use("t1")
	h.MustSample(t1)

	h.wantIfaceRate("in.bytes", "eth0", 1000000)                // (30000000 - 28000000) / 2 s
	h.wantIfaceRate("in.packets", "eth0", 1000)                 // (3000 - 1000) / 2
	h.wantIfaceRate("out.bytes", "eth0", 100000)                // (294000 - 94000) / 2
	h.wantIfaceRate("out.packets", "eth0", 500)                 // (1900 - 900) / 2
	h.wantIfaceRate("total.bytes", "eth0", 1100000)             // (30294000 - 28094000) / 2
	h.wantIfaceRate("total.packets", "eth0", 1500)              // (4900 - 1900) / 2
	h.wantIfaceRate("in.bytes", "eth1", 200000)                 // (5400000 - 5000000) / 2
	h.wantIfaceRate("in.errors", "eth1", 1)                     // (4 - 2) / 2
	h.wantIfaceRate("in.drops", "eth1", 2)                      // (5 - 1) / 2
	h.wantIfaceRate("in.frame", "eth1", 1)                      // (2 - 0) / 2
	h.wantIfaceRate("in.mcasts", "eth1", 10)                    // (30 - 10) / 2
	h.wantIfaceRate("total.mcasts", "eth1", 10)                 // in.mcasts alone
	h.wantIfaceRate("out.bytes", "eth1", 300000)                // (3600000 - 3000000) / 2
	h.wantIfaceRate("out.errors", "eth1", 1)                    // (3 - 1) / 2
	h.wantIfaceRate("out.carrier", "eth1", 1)                   // (2 - 0) / 2
	h.wantIfaceRate("total.errors", "eth1", 2)                  // (7 - 3) / 2
	h.wantIfaceRate("total.drops", "eth1", 2)                   // (5 - 1) / 2
	h.wantIfaceRate("collisions", "eth1", 0)                    // unchanged: 0, not absent
	h.wantIfaceRate("in.bytes", "lo", 1000)                     // (10000 - 8000) / 2
	h.wantIfaceRate("in.bytes", "docker0", 50000)               // (700000 - 600000) / 2
	h.wantIfaceRate("in.bytes", "wlan0", 0)                     // 0 -> 0
	h.wantIface("mtu", "eth1", 1500)                            // attributes are kept stateRefresh samples
	h.WantU64("network.all.in.bytes", cache.InstNone, 35400000) // 30000000 + 5400000

	// network.all: eth0 + eth1 (+ wlan0, idle), over 2 s.
	h.WantFloat("rate.network.all.in.bytes", cache.InstNone, 1200000)    // (2000000 + 400000) / 2
	h.WantFloat("rate.network.all.in.packets", cache.InstNone, 1200)     // (2000 + 400) / 2
	h.WantFloat("rate.network.all.in.errors", cache.InstNone, 1)         // (0 + 2) / 2
	h.WantFloat("rate.network.all.in.drops", cache.InstNone, 2)          // (0 + 4) / 2
	h.WantFloat("rate.network.all.out.bytes", cache.InstNone, 400000)    // (200000 + 600000) / 2
	h.WantFloat("rate.network.all.out.packets", cache.InstNone, 800)     // (1000 + 600) / 2
	h.WantFloat("rate.network.all.out.errors", cache.InstNone, 1)        // (0 + 2) / 2
	h.WantFloat("rate.network.all.out.drops", cache.InstNone, 0)         // none
	h.WantFloat("rate.network.all.total.bytes", cache.InstNone, 1600000) // 1200000 + 400000
	h.WantFloat("rate.network.all.total.packets", cache.InstNone, 2000)  // 1200 + 800
	h.WantFloat("rate.network.all.total.errors", cache.InstNone, 2)      // 1 + 1
	h.WantFloat("rate.network.all.total.drops", cache.InstNone, 2)       // 2 + 0

	if n := h.Resets(); n != 0 {
		t.Errorf("Resets() = %d, want 0", n)
	}

	// The link settings are re-read every stateRefresh*linkRefreshes
	// samples (up and running every stateRefresh: TestNetworkLinkDown).
	for i := 2; i <= stateRefresh; i++ {
		if err := h.Sample(t1.Add(time.Duration(i) * time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	h.wantIface("mtu", "eth1", 1500)
	for i := stateRefresh + 1; i <= stateRefresh*linkRefreshes; i++ {
		if err := h.Sample(t1.Add(time.Duration(i) * time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	h.wantIface("mtu", "eth1", 9000)
}

// testdata/network/reset is t1 with eth1's counters fallen to those of a
// freshly loaded driver: in 1000 bytes 10 packets, out 2000 bytes 20 packets,
// every other column 0.
func TestNetworkCounterReset(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)
	h.Use("reset")
	h.MustSample(t1)

	// eth1 against t0: backwards are in.bytes, in.packets, in.errors (2->0),
	// in.drops (1->0), in.mcasts (10->0), out.bytes, out.packets,
	// out.errors (1->0): 8 columns, and all five totals. No rate for them.
	for _, m := range []string{"in.bytes", "in.packets", "in.errors", "in.drops", "in.mcasts",
		"out.bytes", "out.packets", "out.errors", "total.bytes", "total.packets",
		"total.errors", "total.drops", "total.mcasts"} {
		h.WantAbsent("rate.network.interface."+m, h.inst("eth1"))
	}
	h.wantIface("in.bytes", "eth1", 1000) // the raw value as read
	// eth1's columns that stayed at 0 still have a rate, of 0.
	h.wantIfaceRate("in.fifo", "eth1", 0)
	h.wantIfaceRate("out.drops", "eth1", 0)
	// Other interfaces are unaffected: eth0 as in t0 -> t1.
	h.wantIfaceRate("in.bytes", "eth0", 1000000)
	h.wantIfaceRate("in.bytes", "lo", 1000)

	// network.all counts eth0, eth1 and wlan0: the rate of each sum is the
	// sum of its members' rates, and eth1's reset costs only eth1's share
	// of that step, never a negative sum or a spike.
	for _, m := range []string{"in.bytes", "in.packets", "in.errors", "in.drops",
		"out.bytes", "out.packets", "out.errors", "out.drops"} {
		want := h.Float("rate.network.interface."+m, h.inst("eth0")) +
			h.Float("rate.network.interface."+m, h.inst("wlan0"))
		if r, ok := h.Value("rate.network.interface."+m, h.inst("eth1")); ok {
			want += r.Double()
		}
		h.WantFloat("rate.network.all."+m, cache.InstNone, want)
	}

	// 13 interface counters went backwards; the network.all sums are not
	// watched (their rates are their members'), so 13.
	if n := h.Resets(); n != 13 {
		t.Errorf("Resets() = %d, want 13", n)
	}

	// The next interval rates from the new base: eth1 in.bytes
	// 1000 -> 5400000 over 2 s = 2699500/s; network.all in.bytes adds
	// eth0's 30000000 -> 30000000, so also 2699500/s.
	h.Use("t1")
	h.MustSample(t1.Add(2 * time.Second))
	h.wantIfaceRate("in.bytes", "eth1", 2699500)
	h.WantFloat("rate.network.all.in.bytes", cache.InstNone, 2699500)
	if n := h.Resets(); n != 13 {
		t.Errorf("Resets() = %d after a clean interval, want still 13", n)
	}
}

// churn (t1 + 2 s): eth1 is gone; eth2 (igb, 10000 Mbit/s half duplex,
// operstate lowerlayerdown) and veth0a1b2c3 (virtual) appear; eth0 in.bytes
// 30000000 -> 32000000, out.bytes 294000 -> 494000. back (t1 + 4 s): eth2
// is gone and eth1 returns with new small counters; eth0 in.bytes 34000000.
func TestNetworkAppearVanish(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)
	h.Use("t1")
	h.MustSample(t1)
	eth1 := h.inst("eth1")
	h.Use("churn")
	h.MustSample(t1.Add(2 * time.Second))

	if _, ok := h.instances()["eth1"]; ok {
		t.Error("eth1 vanished but is still listed")
	}
	h.WantAbsent("network.interface.in.bytes", eth1)
	h.WantAbsent("network.interface.mtu", eth1)
	if got := h.inst("eth2"); got != 6 {
		t.Errorf("eth2 id %d, want 6: new names take new ids, never eth1's 3", got)
	}
	if got := h.inst("veth0a1b2c3"); got != 7 {
		t.Errorf("veth0a1b2c3 id %d, want 7", got)
	}
	h.WantU64("hinv.ninterface", cache.InstNone, 7)
	h.wantIface("in.bytes", "eth2", 7000000)
	h.WantAbsent("rate.network.interface.in.bytes", h.inst("eth2")) // one sample only
	// 10000 Mbit/s = 1250000000 byte/s = 1250000000/2^20 "Mbyte"/s.
	h.WantFloat("network.interface.speed", h.inst("eth2"), 1192.0928955078125)
	h.wantIface("baudrate", "eth2", 1250000000)
	h.wantIface("duplex", "eth2", 1)  // half
	h.wantIface("running", "eth2", 0) // up, but operstate lowerlayerdown
	if l := h.instances()["eth2"].Labels; len(l) != 2 || l[0] != cache.StringLabel("driver", "igb") {
		t.Errorf("eth2 labels %v", l)
	}

	// network.all: eth0 + wlan0 + eth2 (veth is virtual). The sum takes
	// eth2 in at once; the rate only counts interfaces present at both
	// ends: eth0's (32000000 - 30000000) / 2 s. No spike, no reset.
	h.WantU64("network.all.in.bytes", cache.InstNone, 39000000) // 32000000 + 7000000
	h.WantFloat("rate.network.all.in.bytes", cache.InstNone, 1000000)
	h.WantU64("network.all.out.bytes", cache.InstNone, 1494000)       // 494000 + 1000000
	h.WantFloat("rate.network.all.out.bytes", cache.InstNone, 100000) // (494000 - 294000) / 2
	if n := h.Resets(); n != 0 {
		t.Errorf("Resets() = %d: a vanished interface is not a reset", n)
	}

	h.Use("back")
	h.MustSample(t1.Add(4 * time.Second))
	if got := h.inst("eth1"); got != eth1 {
		t.Errorf("eth1 came back with id %d, want its old %d", got, eth1)
	}
	if _, ok := h.instances()["eth2"]; ok {
		t.Error("eth2 vanished but is still listed")
	}
	h.wantIface("in.bytes", "eth1", 3000)
	h.WantAbsent("rate.network.interface.in.bytes", eth1) // not seen in the previous sample
	// eth0 (32000000 -> 34000000) / 2 s; eth1 is new again, eth2 gone.
	h.WantU64("network.all.in.bytes", cache.InstNone, 34003000) // 34000000 + 3000
	h.WantFloat("rate.network.all.in.bytes", cache.InstNone, 1000000)
	if n := h.Resets(); n != 0 {
		t.Errorf("Resets() = %d, want 0", n)
	}
}

func TestNetworkIDsSurviveReload(t *testing.T) {
	env := netIDs(t)
	h := newNetHarness(t, NewNetworkCollector, "t0", env)
	h.MustSample(t0)
	h.Use("churn")
	h.MustSample(t1)
	if _, err := os.Stat(filepath.Join(env.IDDir, "hostcache.6")); err != nil {
		t.Fatalf("no id file for indom 6: %v", err)
	}

	// A restart: a new collector loads the same id file.
	again := newNetHarness(t, NewNetworkCollector, "back", env)
	again.MustSample(t0)
	want := map[string]uint32{"lo": 0, "ifb0": 1, "eth0": 2, "eth1": 3, "docker0": 4,
		"wlan0": 5, "veth0a1b2c3": 7}
	for name, id := range want {
		if got := again.inst(name); got != id {
			t.Errorf("after reload %s has id %d, want %d", name, got, id)
		}
	}
	// New names continue after eth2's 6, which stays eth2's.
	again.Use("odd")
	again.MustSample(t1)
	for name, id := range map[string]uint32{"lo": 0, "eth0.100": 8, "enp0s31f6": 12} {
		if got := again.inst(name); got != id {
			t.Errorf("%s has id %d, want %d", name, got, id)
		}
	}
}

// The instance table is rebuilt only when membership or labels change.
func TestNetworkInstancesReused(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)
	first, _ := h.Store.Load().InDom(indomInterface)
	h.Use("t1")
	h.MustSample(t1)
	second, _ := h.Store.Load().InDom(indomInterface)
	if first != second {
		t.Error("same interfaces, but the instance table was rebuilt")
	}
	h.Use("churn")
	h.MustSample(t1.Add(2 * time.Second))
	third, _ := h.Store.Load().InDom(indomInterface)
	if third == second || third.Len() != 7 {
		t.Errorf("membership changed, but the table was not rebuilt (%d instances)", third.Len())
	}
}

func TestNetworkAllFilter(t *testing.T) {
	// Include: eth0 + eth1 + docker0, virtual or not.
	env := netIDs(t)
	env.Filter = engine.Filter{"network.all": {Include: regexp.MustCompile(`^(eth|docker)`)}}
	h := newNetHarness(t, NewNetworkCollector, "t0", env)
	h.MustSample(t0)
	h.WantU64("network.all.in.bytes", cache.InstNone, 33600000) // 28000000 + 5000000 + 600000
	h.Use("t1")
	h.MustSample(t1)
	// (2000000 + 400000 + 100000) / 2 s
	h.WantFloat("rate.network.all.in.bytes", cache.InstNone, 1250000)

	// Exclude only: everything but eth1, loopback and virtual included:
	// lo 8000 + ifb0 0 + eth0 28000000 + docker0 600000 + wlan0 0.
	env = netIDs(t)
	env.Filter = engine.Filter{"network.all": {Exclude: regexp.MustCompile(`^eth1$`)}}
	h = newNetHarness(t, NewNetworkCollector, "t0", env)
	h.MustSample(t0)
	h.WantU64("network.all.in.bytes", cache.InstNone, 28608000)
}

// The "interface" filter hides instances; network.all keeps its own rule.
func TestNetworkInterfaceFilter(t *testing.T) {
	env := netIDs(t)
	env.Filter = engine.Filter{"interface": {Exclude: regexp.MustCompile(`^(ifb|docker|eth1)`)}}
	h := newNetHarness(t, NewNetworkCollector, "t0", env)
	h.MustSample(t0)
	got := h.instances()
	if len(got) != 3 {
		t.Errorf("instances %v, want lo, eth0, wlan0", got)
	}
	for _, name := range []string{"lo", "eth0", "wlan0"} {
		if _, ok := got[name]; !ok {
			t.Errorf("%s filtered out", name)
		}
	}
	h.WantU64("hinv.ninterface", cache.InstNone, 3)
	if n := len(h.Values("network.interface.in.bytes")); n != 3 {
		t.Errorf("%d in.bytes values for 3 interfaces", n)
	}
	h.WantU64("network.all.in.bytes", cache.InstNone, 33000000) // still eth0 + eth1
}

// testdata/network/odd has no sys/ tree: names with dots, dashes, "@",
// underscores, a 15-character name, and "enp0s31f6:4294967296000" with no
// space after the colon and a value above 2^32.
func TestNetworkOddNames(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "odd", netIDs(t))
	h.MustSample(t0)
	h.wantIface("in.bytes", "lo", 100)
	h.wantIface("in.bytes", "eth0.100", 2000)
	h.wantIface("in.bytes", "br-3f2a1b0c9d8e", 3000)
	h.wantIface("in.bytes", "vlan@eth1", 4000)
	h.wantIface("in.bytes", "wg-site_a", 5000)
	h.wantIface("in.bytes", "enp0s31f6", 4294967296000)
	h.wantIface("in.packets", "enp0s31f6", 4000000)
	h.wantIface("out.bytes", "enp0s31f6", 5000)
	h.WantU64("hinv.ninterface", cache.InstNone, 6)

	// No sysfs: no attributes, no labels.
	h.WantAbsent("network.interface.mtu", h.inst("eth0.100"))
	h.WantAbsent("network.interface.virtual", h.inst("lo"))
	for name, inst := range h.instances() {
		if len(inst.Labels) != 0 {
			t.Errorf("%s has labels %v without sysfs", name, inst.Labels)
		}
	}
	// Without sysfs network.all falls back to PCP's interfaces.conf names:
	// only lo is left out. 2000 + 3000 + 4000 + 5000 + 4294967296000.
	h.WantU64("network.all.in.bytes", cache.InstNone, 4294967310000)
}

// With no /sys root at all (Env.Sys ""), counters still work.
func TestNetworkWithoutSys(t *testing.T) {
	c, err := NewNetworkCollector(engine.Env{Proc: filepath.Join(netTestdata, "t0", "proc")})
	if err != nil {
		t.Fatal(err)
	}
	h := &collectortest.Harness{T: t}
	h.Attach(func(engine.Env) (engine.Collector, error) { return c, nil }, engine.Env{})
	h.MustSample(t0)
	if n := len(h.Values("network.interface.mtu")) + len(h.Values("network.interface.up")); n != 0 {
		t.Errorf("%d attribute values without /sys", n)
	}
	if n := len(h.Values("network.interface.in.bytes")); n != 6 {
		t.Errorf("%d in.bytes values, want 6", n)
	}
	// Names decide: lo and docker0 are left out; eth0 + eth1 (+ ifb0, wlan0: 0).
	h.WantU64("network.all.in.bytes", cache.InstNone, 33000000)
}

// testdata/network/malformed: besides a good lo and eth3, a truncated line,
// a non-numeric counter, an empty name, 17 columns, a ".." name, lo again
// and a line without a colon. lo (its first line), eth3 and the 17-column
// eth2 (the column a future kernel would add is ignored) remain.
func TestNetworkMalformedLines(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "malformed", netIDs(t))
	h.MustSample(t0)
	got := h.instances()
	if _, ok := got["eth2"]; len(got) != 3 || !ok {
		t.Errorf("instances %v, want lo, eth2 and eth3", got)
	}
	h.wantIface("in.bytes", "lo", 100)
	h.wantIface("out.bytes", "eth3", 4000)
}

func TestNetworkUnusableSource(t *testing.T) {
	for _, tree := range []string{"garbage", "empty"} {
		h := newNetHarness(t, NewNetworkCollector, tree, netIDs(t))
		if err := h.Sample(t0); err == nil {
			t.Errorf("%s: sample succeeded", tree)
		}
		h.NothingPublished()
	}
	if _, err := NewNetworkCollector(engine.Env{Proc: "/nonexistent/proc"}); err == nil {
		t.Error("a missing proc root was accepted")
	}
}

// A failed sample is not a previous sample: the next rate spans t0 -> t1.
func TestNetworkFailedSampleKeepsInterval(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)
	h.Use("empty")
	if err := h.Sample(t0.Add(time.Second)); err == nil {
		t.Fatal("sampling an empty /proc succeeded")
	}
	h.Use("t1")
	h.MustSample(t1)
	h.wantIfaceRate("in.bytes", "eth0", 1000000) // 2000000 over the 2 s since t0
	h.WantFloat("rate.network.all.in.bytes", cache.InstNone, 1200000)
}

// A link that goes down shows at the next refresh of the changeable
// attributes; its MTU, a link setting, at the slower refresh.
func TestNetworkLinkDown(t *testing.T) {
	h := newNetHarness(t, NewNetworkCollector, "t0", netIDs(t))
	h.MustSample(t0)
	h.wantIface("running", "eth1", 1)
	h.Use("linkdown")
	for i := 1; i <= stateRefresh; i++ {
		h.MustSample(t0.Add(time.Duration(i) * time.Second))
	}
	h.wantIface("running", "eth1", 0)
	h.wantIface("up", "eth1", 1)
	h.wantIface("mtu", "eth1", 1500)
	for i := stateRefresh + 1; i <= stateRefresh*linkRefreshes; i++ {
		h.MustSample(t0.Add(time.Duration(i) * time.Second))
	}
	h.wantIface("mtu", "eth1", 1400)
}
