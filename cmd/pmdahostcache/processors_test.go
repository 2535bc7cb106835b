package main

import (
	"runtime"
	"testing"
)

// The configured number of processors is in force, raised to two only
// while an archive is written, and a reload during a write keeps the
// raise until the write ends.
func TestProcessorsDuringRecording(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "") // the configuration's number, not the environment's
	p := newProcessors()
	now := func() int { return runtime.GOMAXPROCS(0) }
	steps := []struct {
		what string
		do   func()
		want int
	}{
		{"configured 1", func() { p.set(1) }, 1},
		{"an archive is written", func() { p.recording(true) }, 2},
		{"written", func() { p.recording(false) }, 1},
		{"configured 3", func() { p.set(3) }, 3},
		{"written with 3", func() { p.recording(true) }, 3},
		{"reloaded to 1 while writing", func() { p.set(1) }, 2},
		{"written after the reload", func() { p.recording(false) }, 1},
	}
	for _, s := range steps {
		s.do()
		if got := now(); got != s.want {
			t.Fatalf("%s: %d processors, want %d", s.what, got, s.want)
		}
	}
}

// A GOMAXPROCS set in the environment stands over the configured number,
// through reloads; the writer still gets its second processor.
func TestProcessorsFromEnvironment(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "3")
	runtime.GOMAXPROCS(3) // as the runtime set it at start
	p := newProcessors()
	if got := p.set(1); got != 3 {
		t.Errorf("configured 1 under GOMAXPROCS=3: %d processors", got)
	}
	runtime.GOMAXPROCS(1)
	p = newProcessors()
	p.set(4)
	p.recording(true)
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS=1 while writing: %d processors, want 2", got)
	}
	p.recording(false)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS=1 after writing: %d processors, want 1", got)
	}
}
