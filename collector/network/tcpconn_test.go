package network

import (
	"errors"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixture testdata/tcpconn/t0 (see its README.md): tcp has 3 LISTEN, 4
// ESTABLISHED, 2 TIME_WAIT, 1 SYN_SENT, 1 CLOSE_WAIT and 1 FIN_WAIT2
// sockets, tcp6 2 LISTEN and 1 ESTABLISHED; every other state counts 0.
func TestTCPConnValues(t *testing.T) {
	h := collectortest.NewHarness(t, NewTCPConnCollector, "tcpconn/t0")
	h.MustSample(t0)
	want := map[string]uint64{"listen": 3, "established": 4, "time_wait": 2,
		"syn_sent": 1, "close_wait": 1, "fin_wait2": 1}
	want6 := map[string]uint64{"listen": 2, "established": 1}
	for _, d := range tcpconnMetrics {
		state := strings.TrimPrefix(d.Name, "hostcache.network.tcpconn.")
		h.WantU64("network.tcpconn."+state, cache.InstNone, want[state])
		h.WantU64("network.tcpconn6."+state, cache.InstNone, want6[state])
	}
	// t1: one IPv4 socket in each state 1 to 11, a second IPv6 one.
	h.Use("tcpconn/t1")
	h.MustSample(t1)
	for _, d := range tcpconnMetrics {
		h.WantU64(strings.TrimPrefix(d.Name, engine.Prefix), cache.InstNone, 1)
	}
	h.WantU64("network.tcpconn6.established", cache.InstNone, 2)
	if n := h.Published("rate.network.tcpconn"); n != 0 {
		t.Errorf("%d rates of instant counts", n)
	}
}

// Item N counts state N and is named after it, as pmdalinux's are.
func TestTCPConnItemsAreStates(t *testing.T) {
	names := []string{"established", "syn_sent", "syn_recv", "fin_wait1", "fin_wait2",
		"time_wait", "close", "close_wait", "last_ack", "listen", "closing"}
	for i, name := range names {
		for _, d := range []cache.Desc{tcpconnMetrics[i], tcpconn6Metrics[i]} {
			if d.ID.Item() != uint32(i+1) || !strings.HasSuffix(d.Name, "."+name) {
				t.Errorf("state %d: %s item %d", i+1, d.Name, d.ID.Item())
			}
		}
	}
}

// A state past CLOSING is skipped, as pmdalinux skips it; the others
// keep their counts.
func TestTCPConnUnknownState(t *testing.T) {
	h := collectortest.NewHarness(t, NewTCPConnCollector, "tcpconn/newstate")
	h.MustSample(t0)
	h.WantU64("network.tcpconn.listen", cache.InstNone, 3)
	h.WantU64("network.tcpconn.established", cache.InstNone, 4)
}

// A table that is missing, not a socket table, or has a line without a
// state loses only its own metrics, and the sample says so.
func TestTCPConnDamagedTable(t *testing.T) {
	for _, tree := range []string{"noipv6", "garbage", "badline"} {
		h := collectortest.NewHarness(t, NewTCPConnCollector, "tcpconn/"+tree)
		err := h.Sample(t0)
		var partial *engine.PartialError
		if !errors.As(err, &partial) {
			t.Errorf("%s: error %v, want a partial one", tree, err)
		}
		four, six := h.Published("network.tcpconn."), h.Published("network.tcpconn6.")
		if tree == "noipv6" {
			four, six = six, four
		}
		if four != 0 || six != tcpStates {
			t.Errorf("%s: %d values of the damaged table, %d of the other", tree, four, six)
		}
	}
}

func TestTCPConnUnusableSource(t *testing.T) {
	h := collectortest.NewHarness(t, NewTCPConnCollector, "tcpconn/empty")
	if err := h.Sample(t0); err == nil {
		t.Error("empty tables gave no error")
	}
	h.NothingPublished()
	if _, err := NewTCPConnCollector(engine.Env{Proc: "/nonexistent/proc"}); err == nil {
		t.Error("a missing proc root was accepted")
	}
}

// A table longer than the limit is not read to its end: its counts have
// no value, the other table's have theirs, and the error names the table.
func TestTCPConnLimit(t *testing.T) {
	h := &collectortest.Harness{T: t, Proc: t.TempDir()}
	h.Use("tcpconn/t0")
	// t0's tcp is 13 lines of 150 bytes; its tcp6 is shorter than 1 KiB.
	limit := int64(1000)
	h.Attach(func(env engine.Env) (engine.Collector, error) { return newTCPConnCollector(env, limit) }, engine.Env{Proc: h.Proc})
	err := h.Sample(t0)
	if err == nil || !strings.Contains(err.Error(), "net/tcp: longer than the limit") {
		t.Errorf("error %v", err)
	}
	if n := h.Published("network.tcpconn."); n != 0 {
		t.Errorf("%d values from a table past the limit", n)
	}
	h.WantU64("network.tcpconn6.listen", cache.InstNone, 2)
}

// The tcpconn collector's metrics are pmdalinux's network.tcpconn and
// network.tcpconn6, all of them, with its descriptors.
func TestTCPConnDescriptors(t *testing.T) {
	h := collectortest.NewHarness(t, NewTCPConnCollector, "tcpconn/t0")
	descs := h.C.Source().Metrics
	checkTwinFamily(t, descs, "network.tcpconn.")
	checkTwinFamily(t, descs, "network.tcpconn6.")
	for _, d := range descs {
		if name := strings.TrimPrefix(d.Name, engine.Prefix); !strings.HasPrefix(name, "network.tcpconn") {
			t.Errorf("%s: declared, not a tcpconn metric", name)
		}
	}
}
