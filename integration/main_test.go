//go:build linux

package integration

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// minParallel is how many tests may run at once, at least: TestPCP runs
// PCP's clients beside four checks that share one start (testUnderLoad),
// and go test's default, one a CPU, would hold some of them back.
const minParallel = 8

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.parallel"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n < minParallel {
			f.Value.Set(strconv.Itoa(minParallel))
		}
	}
	os.Exit(m.Run())
}
