package integration

import (
	"os"
	"strings"
	"testing"
	"time"
)

// mmvListed says pminfo lists file name's requests below hostcache.mmv.
func mmvListed(t *testing.T, name string) bool {
	return strings.Contains(mmvListing(t), "hostcache.mmv."+name+".requests\n")
}

// testMMVFiles: a second program's file, written with MMV_FLAG_PROCESS,
// appears below hostcache.mmv while the agent runs and goes once its
// program is killed, though the file stays; the first file stays
// meanwhile. The agent has seen no change for a minute, so each comes
// within seconds.
func testMMVFiles(t *testing.T, mmvDir string, first *mmvWriter) {
	second := startMMVWriter(t, mmvDir, "hctest2", 43, true)
	waitFor(t, "a new file below hostcache.mmv", 15*time.Second, func() bool { return mmvListed(t, second.name) })
	t.Logf("pminfo hostcache.mmv with two files:\n%s", mmvListing(t))

	second.kill()
	if !fileExists(second.file) {
		t.Fatalf("%s went with its program: the test needs it to stay", second.file)
	}
	waitFor(t, "the file of a program that exited to go", 15*time.Second, func() bool { return !mmvListed(t, second.name) })
	if !mmvListed(t, first.name) {
		t.Errorf("%s went with %s", first.name, second.name)
	}
	os.Remove(second.file)
}
