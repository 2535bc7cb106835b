//go:build linux

package integration

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// minParallel is how many tests may run at once, at least: TestPCP runs
// PCP's clients beside four checks that share one start (testUnderLoad),
// and go test's default, one a CPU, would hold some of them back.
const minParallel = 8

// TestMain sets aside a hostcache installed before the tests, once, and
// installs it again at the end: each test installs what it needs and
// leaves none behind, so none has to put an agent back (an Install each).
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.parallel"); f != nil {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n < minParallel {
			f.Value.Set(strconv.Itoa(minParallel))
		}
	}
	var aside *asideAgent
	if os.Geteuid() == 0 && installed() {
		var err error
		if aside, err = setAside(); err != nil {
			fmt.Fprintf(os.Stderr, "setting the installed hostcache aside: %v\n", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "the installed hostcache is set aside until the tests end: %v\n", aside)
	}
	code := m.Run()
	if aside != nil {
		if err := aside.restore(); err != nil {
			fmt.Fprintf(os.Stderr, "putting the installed hostcache back: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
