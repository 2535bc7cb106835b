package integration

import (
	"os"
	"strings"
	"testing"
	"time"
)

// testMMVFiles: a second program's file, written with MMV_FLAG_PROCESS,
// appears below hostcache.mmv while the agent runs and goes once its
// program is killed, though the file stays; the first file goes once its
// program is killed and the file removed. The other file stays meanwhile.
func testMMVFiles(t *testing.T, mmvDir string, first *mmvWriter) {
	has := func(name string) bool { return strings.Contains(mmvListing(t), "hostcache.mmv."+name+".requests\n") }
	second := startMMVWriter(t, mmvDir, "hctest2", 43, true)
	waitFor(t, "a new file below hostcache.mmv", 15*time.Second, func() bool { return has(second.name) })
	t.Logf("pminfo hostcache.mmv with two files:\n%s", mmvListing(t))

	second.kill()
	if !fileExists(second.file) {
		t.Fatalf("%s went with its program: the test needs it to stay", second.file)
	}
	waitFor(t, "the file of a program that exited to go", 15*time.Second, func() bool { return !has(second.name) })
	if !has(first.name) {
		t.Errorf("%s went with %s", first.name, second.name)
	}
	os.Remove(second.file)

	first.stop()
	waitFor(t, "a removed file to go", 15*time.Second, func() bool { return !has(first.name) })
	// An agent that stopped answering would list nothing too.
	if len(values(t, "hostcache.control.interval")) != 1 {
		t.Error("the agent does not answer after the files went")
	}
	t.Logf("pminfo hostcache.mmv with none: %s", mmvListing(t))
}
