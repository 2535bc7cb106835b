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
	p := &processors{}
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
	p.set(0)
	def := now()
	p.recording(true)
	if got := now(); got != def {
		t.Errorf("the runtime's default (%d) changed to %d while writing", def, got)
	}
	p.recording(false)
}
