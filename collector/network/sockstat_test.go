package network

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// Fixtures: proc-t0/net/sockstat and sockstat6; proc-t1 has no sockstat6,
// as a kernel without IPv6.
func TestSockstatValues(t *testing.T) {
	h := collectortest.NewHarness(t, NewSockstatCollector, "proc-t0")
	h.MustSample(t0)
	for name, want := range map[string]int64{"network.sockstat.total": 25, "network.sockstat.tcp.inuse": 2,
		"network.sockstat.tcp.tw": 26, "network.sockstat.tcp.mem": 1, "network.sockstat.udp.mem": 2,
		"network.sockstat.tcp6.inuse": 1, "network.sockstat.frag6.memory": 0} {
		if got := int64(h.MustValue(name, cache.InstNone).Bits); got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	h.Use("proc-t1")
	h.Sample(t1)
	h.WantAbsent("network.sockstat.tcp6.inuse", cache.InstNone)
	if got := int64(h.MustValue("network.sockstat.tcp.inuse", cache.InstNone).Bits); got != 5 {
		t.Errorf("network.sockstat.tcp.inuse = %d at t1, want 5", got)
	}
}
