package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSkipOutsideCI runs this test binary again, once with CI=true and
// once without, on a test that calls SkipOutsideCI, and reads the result.
func TestSkipOutsideCI(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") == "1" {
		SkipOutsideCI(t, "the reason")
		return
	}
	for _, c := range []struct{ ci, want string }{{"true", "--- FAIL"}, {"", "--- SKIP"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSkipOutsideCI$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", "CI="+c.ci)
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), c.want) || !strings.Contains(string(out), "the reason") {
			t.Errorf("CI=%q: want %q and the reason in:\n%s", c.ci, c.want, out)
		}
	}
}
