package network

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// Fixture proc-t0/net: udp has one bound and one connected socket, udp6 two
// bound; raw one socket; unix 5 streams (1 listening, 3 connected, 1
// connecting), 2 datagram and 1 seqpacket socket. There is no raw6.
func TestNetConnValues(t *testing.T) {
	h := collectortest.NewHarness(t, NewNetConnCollector, "proc-t0")
	if err := h.Sample(t0); err == nil || !strings.Contains(err.Error(), "raw6") {
		t.Errorf("a missing raw6 should be reported, got %v", err)
	}
	for name, want := range map[string]uint64{
		"network.udpconn.listen": 1, "network.udpconn.established": 1,
		"network.udpconn6.listen": 2, "network.udpconn6.established": 0,
		"network.rawconn.count":       1,
		"network.unix.datagram.count": 2, "network.unix.stream.count": 5,
		"network.unix.stream.listen": 1, "network.unix.stream.established": 3,
	} {
		h.WantU64(name, cache.InstNone, want)
	}
	h.WantAbsent("network.rawconn6.count", cache.InstNone)
}

// A table longer than one read chunk, with its lines cut at the chunk's
// edge, counts every line once.
func TestNetConnLongTable(t *testing.T) {
	h := collectortest.NewHarness(t, NewNetConnCollector, "proc-t0")
	var b strings.Builder
	b.WriteString("   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n")
	const n = 20000 // about 2 MB: thirty chunks
	for i := 0; i < n; i++ {
		st := "01"
		if i%4 == 0 {
			st = "07"
		}
		b.WriteString("  " + strings.Repeat("9", i%7) + ": 0100007F:9C40 0100007F:0035 " + st +
			" 00000000:00000000 00:00000000 00000000   997        0 1201 2 0000000066666666 0\n")
	}
	if err := os.WriteFile(filepath.Join(h.Proc, "net", "udp"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	h.Sample(t0)
	h.WantU64("network.udpconn.established", cache.InstNone, n*3/4)
	h.WantU64("network.udpconn.listen", cache.InstNone, n/4)
}
