package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixtures: proc-t0/sys/kernel/{ostype,osrelease,version,hostname}; the
// distribution comes from the etc directory beside the /proc root.
func TestUnameValues(t *testing.T) {
	h := newHarness(t, NewUnameCollector, "proc-t0")
	etc := filepath.Join(filepath.Dir(h.Proc), "etc")
	os.MkdirAll(etc, 0o755)
	os.WriteFile(filepath.Join(etc, "os-release"), []byte("NAME=\"Fixture\"\nPRETTY_NAME=\"Fixture Linux 1\"\n"), 0o644)
	h.MustSample(t0)
	for name, want := range map[string]string{
		"kernel.uname.sysname": "Linux", "kernel.uname.release": "6.18.44-fixture",
		"kernel.uname.version": "#1 SMP PREEMPT_DYNAMIC @0", "kernel.uname.nodename": "fixturehost",
		"kernel.uname.distro": "Fixture Linux 1",
	} {
		if got := h.MustValue(name, cache.InstNone).Str; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	m, _ := machine()
	if got := h.MustValue("hinv.machine", cache.InstNone).Str; got != m || m == "" {
		t.Errorf("hinv.machine = %q, uname(2) says %q", got, m)
	}
	os.Remove(filepath.Join(h.Proc, "sys", "kernel", "hostname"))
	h.Sample(t1)
	h.WantAbsent("kernel.uname.nodename", cache.InstNone)
	if got := h.MustValue("kernel.uname.release", cache.InstNone).Str; got != "6.18.44-fixture" {
		t.Errorf("kernel.uname.release = %q after hostname went missing", got)
	}
}

// Debian's own file wins, as pmdalinux reads it.
func TestDistroDebian(t *testing.T) {
	etc := t.TempDir()
	os.WriteFile(filepath.Join(etc, "debian_version"), []byte("12.11\n"), 0o644)
	os.WriteFile(filepath.Join(etc, "os-release"), []byte("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"), 0o644)
	if got := distro(etc); got != "Debian 12.11" {
		t.Errorf("distro = %q", got)
	}
	if got := distro(t.TempDir()); got != "" {
		t.Errorf("distro of an empty etc = %q", got)
	}
}
