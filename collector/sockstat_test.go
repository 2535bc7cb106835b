package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixtures: proc-t0/net/sockstat and sockstat6; proc-t1 has no sockstat6,
// as a kernel without IPv6.
func TestSockstatValues(t *testing.T) {
	h := newHarness(t, NewSockstatCollector, "proc-t0")
	h.mustSample(t0)
	for name, want := range map[string]int64{"network.sockstat.total": 25, "network.sockstat.tcp.inuse": 2,
		"network.sockstat.tcp.tw": 26, "network.sockstat.tcp.mem": 1, "network.sockstat.udp.mem": 2,
		"network.sockstat.tcp6.inuse": 1, "network.sockstat.frag6.memory": 0} {
		if got := int64(h.mustValue(name, cache.InstNone).Bits); got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	h.use("proc-t1")
	h.sample(t1)
	h.wantAbsent("network.sockstat.tcp6.inuse", cache.InstNone)
	if got := int64(h.mustValue("network.sockstat.tcp.inuse", cache.InstNone).Bits); got != 5 {
		t.Errorf("network.sockstat.tcp.inuse = %d at t1, want 5", got)
	}
}
