package network

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixtures testdata/mptcp (see its README.md): column c of t0's MPTcpExt
// values is 10 (c + 1), of t1's 12 (c + 1).
func TestMPTCPValues(t *testing.T) {
	h := collectortest.NewHarness(t, NewNetProtoCollector, "mptcp/t0")
	h.MustSample(t0)
	none := cache.InstNone
	h.WantU64("network.mptcp.mpcapablesynrx", none, 10)           // column 0
	h.WantU64("network.mptcp.mpcapablesyntx", none, 20)           // column 1
	h.WantU64("network.mptcp.mpfallbacktokeninit", none, 100)     // column 9
	h.WantU64("network.mptcp.mptcpretrans", none, 110)            // column 10
	h.WantU64("network.mptcp.infinitemaptx", none, 280)           // column 27
	h.WantU64("network.mptcp.mpfastclosetx", none, 590)           // column 58
	h.WantU64("network.mptcp.rcvwndconflict", none, 680)          // column 67
	h.WantU64("network.mptcp.rcvwndconflictupdate", none, 670)    // column 66
	h.WantU64("network.mptcp.mpjoinsynackhmacfailure", none, 170) // column 16
	// TcpExt has a RcvPruned of its own; MPTcpExt has none in 6.18.
	h.WantAbsent("network.mptcp.rcvpruned", none)
	h.WantU64("network.tcp.rcvpruned", none, 0)
	h.Use("mptcp/t1")
	h.MustSample(t1)
	h.WantFloat("rate.network.mptcp.mpcapablesynrx", none, 1)
	h.WantFloat("rate.network.mptcp.rcvwndconflict", none, 68)
}

// Every metric reads the column its field names: checked against the
// fixture's own heading, so a mistyped field name fails here.
func TestMPTCPEveryField(t *testing.T) {
	h := collectortest.NewHarness(t, NewNetProtoCollector, "mptcp/t0")
	h.MustSample(t0)
	names := mptcpHeading(t)
	for _, f := range mptcpFields {
		name := strings.TrimPrefix(f.desc.Name, engine.Prefix)
		col := slices.Index(names, f.field)
		if name != "network.mptcp."+strings.ToLower(f.field) {
			t.Errorf("%s reads %s", name, f.field)
		}
		if col < 0 {
			h.WantAbsent(name, cache.InstNone)
			continue
		}
		h.WantU64(name, cache.InstNone, uint64(10*(col+1)))
	}
}

// mptcpHeading returns the field names of the fixture's MPTcpExt heading.
func mptcpHeading(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdataDir, "mptcp/t0/net/netstat"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && f[0] == "MPTcpExt:" {
			if _, err := strconv.Atoi(f[1]); err != nil {
				return f[1:]
			}
		}
	}
	t.Fatal("no MPTcpExt heading in the fixture")
	return nil
}

// A pair whose values do not match its heading, and a kernel without
// Multipath TCP, leave only network.mptcp.* without values.
func TestMPTCPDamagedOrAbsent(t *testing.T) {
	for _, tree := range []string{"mptcp/short", "mptcp/oldkernel"} {
		h := collectortest.NewHarness(t, NewNetProtoCollector, tree)
		if err := h.Sample(t0); err != nil {
			t.Fatalf("%s: %v", tree, err)
		}
		if n := h.Published("network.mptcp."); n != 0 {
			t.Errorf("%s: %d mptcp values published", tree, n)
		}
		if n := h.Published("network.tcp."); n == 0 {
			t.Errorf("%s: the TcpExt counters were lost too", tree)
		}
	}
}

// The network.mptcp metrics are pmdalinux's, all of them, with its
// descriptors.
func TestMPTCPDescriptors(t *testing.T) {
	h := collectortest.NewHarness(t, NewNetProtoCollector, "mptcp/t0")
	checkTwinFamily(t, h.C.Source().Metrics, "network.mptcp.")
}
