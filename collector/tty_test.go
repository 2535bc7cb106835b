package collector

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// testdata/tty/t0: ports 0 and 1 (16550A), 2 without a UART, 3 memory
// mapped, and a line whose number does not parse. t1, 2 s later: port 0
// moved on (tx 218 -> 418, rx 17 -> 27, a first frame error), port 1
// gone, port 4 come with an unreadable tx.
func TestTTYValues(t *testing.T) {
	h := newHarness(t, NewTTYCollector, "tty/t0")
	h.MustSample(t0)
	want := []cache.Instance{{ID: 0, Name: "0"}, {ID: 1, Name: "1"}, {ID: 2, Name: "3"}}
	if got := h.hostInstances(indomTTY); !reflect.DeepEqual(got, want) {
		t.Errorf("instances\n got %v\nwant %v", got, want)
	}
	h.WantU64("tty.serial.tx", 0, 218)
	h.WantU64("tty.serial.rx", 0, 17)
	h.WantU64("tty.serial.irq", 0, 4)
	h.WantU64("tty.serial.frame", 0, 0) // not printed while zero
	for name, v := range map[string]uint64{"tx": 1000, "rx": 2000, "frame": 5, "parity": 6, "brk": 7, "overrun": 8, "irq": 3} {
		h.WantU64("tty.serial."+name, 1, v)
	}
	h.WantU64("tty.serial.irq", 2, 40)

	h.Use("tty/t1")
	h.MustSample(t1)
	h.WantFloat("rate.tty.serial.tx", 0, 100)
	h.WantFloat("rate.tty.serial.rx", 0, 5)
	h.WantFloat("rate.tty.serial.frame", 0, 0.5)
	h.WantAbsent("tty.serial.tx", 1)
	if id := h.hostInstanceID(indomTTY, "4"); id != 3 {
		t.Errorf("port 4 has id %d, want 3", id)
	}
	h.WantU64("tty.serial.tx", 3, 0) // unreadable: as if not printed
	h.WantU64("tty.serial.rx", 3, 5)
}

// Ports without a UART are no instances; a file that is not the serial
// driver's, or none at all, fails the sample and publishes nothing.
func TestTTYDamaged(t *testing.T) {
	h := newHarness(t, NewTTYCollector, "tty/none")
	h.MustSample(t0)
	if got := h.hostInstances(indomTTY); len(got) != 0 {
		t.Errorf("instances %v, want none", got)
	}
	for _, tree := range []string{"tty/garbled", "proc-empty"} {
		t.Run(tree, func(t *testing.T) {
			h := newHarness(t, NewTTYCollector, tree)
			if err := h.Sample(t0); err == nil {
				t.Fatal("sample succeeded")
			}
			h.NothingPublished()
		})
	}
}

// Read without CAP_SYS_ADMIN, as the agent reads once it has dropped to
// its user, the kernel prints no counts: the ports keep their irq, the
// counts have no values rather than zeros, and the agent is told once.
func TestTTYCountsHidden(t *testing.T) {
	var warnings []error
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("tty/hidden")
	h.Attach(NewTTYCollector, engine.Env{Proc: h.Proc, Warn: func(err error) { warnings = append(warnings, err) }})
	h.MustSample(t0)
	h.MustSample(t1)
	h.WantU64("tty.serial.irq", 0, 26)
	h.WantU64("tty.serial.irq", 1, 3)
	for _, m := range []string{"tx", "rx", "frame", "parity", "brk", "overrun"} {
		h.WantAbsent("tty.serial."+m, 0)
	}
	if len(warnings) != 1 {
		t.Errorf("%d warnings, want 1: %v", len(warnings), warnings)
	}
}

// The factory opens the file and the samples read the descriptor it
// keeps, as for slabinfo: /proc/tty/driver is root's alone.
func TestTTYOpenedAtBuild(t *testing.T) {
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("tty/t0")
	h.Attach(NewTTYCollector, engine.Env{Proc: h.Proc, KeepFiles: true})
	if err := os.RemoveAll(filepath.Join(h.Proc, "tty")); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	h.WantU64("tty.serial.tx", 0, 218)
}
