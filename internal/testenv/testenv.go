// Package testenv holds what tests share about the machine they run on.
package testenv

import (
	"os"
	"testing"
)

// InCI says whether the tests run in CI, where every test must run.
func InCI() bool { return os.Getenv("CI") == "true" }

// SkipOutsideCI skips t for the reason given. In CI a test that cannot
// run is a failure, so there it fails t instead.
func SkipOutsideCI(t testing.TB, reason string) {
	t.Helper()
	if InCI() {
		t.Fatalf("must run in CI: %s", reason)
	}
	t.Skipf("skipping: %s", reason)
}
