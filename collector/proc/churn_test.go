package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// writeProcess writes the files of one process into a fixture /proc.
func writeProcess(t *testing.T, root string, pid int, start, utime uint64) {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stat := fmt.Sprintf("%d (worker) S 1 %d %d 0 -1 4194560 10 0 0 0 %d 0 0 0 20 0 1 0 %d 4096000 100 "+
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n", pid, pid, pid, utime, start)
	files := map[string]string{"stat": stat, "statm": "1000 100 50 10 0 200 0\n",
		"cmdline": "worker\x00--id\x00" + fmt.Sprint(pid) + "\x00", "schedstat": "1000 10 5\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Processes come and go: 100 start and 100 end between each pair of
// samples, for 30 pairs. The table holds only the listed processes,
// each listed process is named after its own command line, and no
// process that has exited keeps a value or a rate.
func TestProcessChurn(t *testing.T) {
	root := t.TempDir()
	h := &collectortest.Harness{T: t, Proc: root}
	h.Attach(NewProcessCollector, engine.Env{Proc: root})
	c := h.C.(*processCollector)
	const live, perStep = 200, 100
	next := 1000
	for i := 0; i < live; i++ {
		writeProcess(t, root, next, uint64(next), 0)
		next++
	}
	now := collectortest.T0
	for step := 0; step < 30; step++ {
		h.MustSample(now)
		if n := len(c.table.byPID); n != live {
			t.Fatalf("step %d: the table holds %d processes, %d run", step, n, live)
		}
		for i := 0; i < perStep; i++ { // the oldest end, new ones start
			os.RemoveAll(filepath.Join(root, fmt.Sprint(next-live+i)))
			writeProcess(t, root, next+i, uint64(next+i), 0)
		}
		gone := next - live
		next += perStep
		now = now.Add(time.Second)
		h.MustSample(now)
		if _, ok := h.Value("proc.psinfo.utime", uint32(gone)); ok {
			t.Fatalf("step %d: exited process %d still has a value", step, gone)
		}
		if _, ok := h.Value("rate.proc.psinfo.utime", uint32(gone)); ok {
			t.Fatalf("step %d: exited process %d still has a rate", step, gone)
		}
		now = now.Add(time.Second)
	}
	if got := len(h.Instances(indomProcess)); got != live {
		t.Errorf("%d instances listed, %d processes run", got, live)
	}
}
