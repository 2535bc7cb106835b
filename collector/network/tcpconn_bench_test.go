package network

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTCPTable writes a /proc/net/tcp of n sockets in the kernel's
// format (lines padded to 149 characters), cycling through the states
// 1 to 11, and returns its path.
func writeTCPTable(t testing.TB, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(fmt.Sprintf("%-149s\n", "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"))
	for i := range n {
		line := fmt.Sprintf("%4d: 0100007F:%04X 0100007F:%04X %02X 00000000:00000000 00:00000000 00000000     0        0 %d 1 ffff888100000000 100 0 0 10 0",
			i, 1024+i%60000, 80, 1+i%tcpStates, 10000+i)
		b.WriteString(fmt.Sprintf("%-149s\n", line))
	}
	path := filepath.Join(t.TempDir(), "tcp")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Counting keeps no line: a sample allocates the same few things (the
// path for open) whether the table has a thousand sockets or a hundred
// thousand.
func TestTCPConnAllocationsDoNotGrow(t *testing.T) {
	allocs := func(path string, want uint64) float64 {
		buf := make([]byte, 0, tcpScanChunk)
		return testing.AllocsPerRun(5, func() {
			var n tcpStateCounts
			var err error
			if buf, err = countTCPStates(path, buf, tcpTableLimit, &n); err != nil || n[0] != want {
				t.Fatalf("established %d, error %v", n[0], err)
			}
		})
	}
	// State 1 is every 11th socket, from the first.
	small, large := allocs(writeTCPTable(t, 1000), 91), allocs(writeTCPTable(t, 100000), 9091)
	if large != small || large > 2 {
		t.Errorf("%v allocations for 1000 sockets, %v for 100000", small, large)
	}
}

// BenchmarkTCPConnCount100k counts a 100,000-socket table (15 MB): the
// parsing's own cost, the kernel's being paid only on the real file.
func BenchmarkTCPConnCount100k(b *testing.B) {
	path := writeTCPTable(b, 100000)
	buf := make([]byte, 0, tcpScanChunk)
	b.ReportAllocs()
	b.SetBytes(150 * 100001)
	for b.Loop() {
		var n tcpStateCounts
		var err error
		if buf, err = countTCPStates(path, buf, tcpTableLimit, &n); err != nil {
			b.Fatal(err)
		}
	}
}
