//go:build linux

package integration

import (
	"strings"
	"testing"
	"time"
)

// qaAnswers are the answers PCP's QA tests 003 and 767 hold pmdalinux to,
// as pmprobe prints them, and pmda.version.
type qaAnswers struct {
	probes  map[string]string // name (with the container asked for) -> pmprobe's answer
	version string
}

// The metrics QA 767 asks for in a container that does not exist, and
// kernel.uname.release, which pmdalinux serves from a container's
// namespace; swap.in and swap.out, which QA 003 accepts with
// PM_ERR_APPVERSION only.
var (
	qaContainerNames = []string{"kernel.all.load", "network.interface.in.bytes", "kernel.uname.release"}
	qaUnsupported    = []string{"swap.in", "swap.out"}
)

func readQAAnswers(t *testing.T, prefix string) qaAnswers {
	t.Helper()
	a := qaAnswers{probes: map[string]string{}}
	var names, unsup []string
	for _, n := range qaContainerNames {
		names = append(names, prefix+n)
	}
	for _, n := range qaUnsupported {
		unsup = append(unsup, prefix+n)
	}
	out, _ := run(t, 30*time.Second, "pmprobe", append([]string{"--container=NoSuchContainer"}, names...)...)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, rest, ok := strings.Cut(line, " "); ok {
			a.probes["NoSuchContainer:"+strings.TrimPrefix(name, prefix)] = rest
		}
	}
	out, _ = run(t, 30*time.Second, "pmprobe", append([]string{"-v"}, unsup...)...)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, rest, ok := strings.Cut(line, " "); ok {
			a.probes[strings.TrimPrefix(name, prefix)] = rest
		}
	}
	a.version = values(t, prefix+"pmda.version")[""]
	return a
}

// checkQAAnswers holds the stand-in's answers to pmdalinux's: the same
// errors for a container that does not exist (-12399) and for swap.in
// and swap.out (-12350), and pmda.version starting with pmdalinux's.
func checkQAAnswers(t *testing.T, linux, standIn qaAnswers) {
	t.Helper()
	for _, n := range qaContainerNames {
		key := "NoSuchContainer:" + n
		if want := "-12399 Container not found"; linux.probes[key] != want {
			t.Errorf("pmdalinux: pmprobe --container=NoSuchContainer %s: %q, want %q", n, linux.probes[key], want)
		}
		if standIn.probes[key] != linux.probes[key] {
			t.Errorf("pmprobe --container=NoSuchContainer %s: %q from the stand-in, %q from pmdalinux", n, standIn.probes[key], linux.probes[key])
		}
	}
	for _, n := range qaUnsupported {
		if !strings.HasPrefix(linux.probes[n], "-12350 ") {
			t.Errorf("pmdalinux: pmprobe -v %s: %q, want PM_ERR_APPVERSION", n, linux.probes[n])
		}
		if standIn.probes[n] != linux.probes[n] {
			t.Errorf("pmprobe -v %s: %q from the stand-in, %q from pmdalinux", n, standIn.probes[n], linux.probes[n])
		}
	}
	v := strings.Trim(linux.version, `"`)
	if v == "" || !strings.HasPrefix(strings.Trim(standIn.version, `"`), v+" hostcache") {
		t.Errorf("pmda.version %s from the stand-in, want pmdalinux's %s then hostcache", standIn.version, linux.version)
	}
	t.Logf("pmdalinux: %v pmda.version %s; the stand-in: %v pmda.version %s", linux.probes, linux.version, standIn.probes, standIn.version)
}

// Beside pmdalinux, hostcache's names answer as pmdalinux's do for a
// container that does not exist.
func checkQABeside(t *testing.T, beside qaAnswers) {
	t.Helper()
	for _, n := range qaContainerNames {
		key := "NoSuchContainer:" + n
		if want := "-12399 Container not found"; beside.probes[key] != want {
			t.Errorf("pmprobe --container=NoSuchContainer hostcache.%s: %q, want %q", n, beside.probes[key], want)
		}
	}
}
