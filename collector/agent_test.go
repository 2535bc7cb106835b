package collector

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// pmda.uname has uname(2)'s five fields, pmdalinux's format.
func TestAgentUname(t *testing.T) {
	h := newHarness(t, NewAgentCollector, "proc-t0")
	h.MustSample(t0)
	v := h.MustValue("pmda.uname", cache.InstNone)
	if f := strings.Fields(v.Str); len(f) < 5 || f[0] != "Linux" {
		t.Errorf("pmda.uname %q: want sysname nodename release version machine", v.Str)
	}
	if v := h.MustValue("pmda.version", cache.InstNone); !strings.HasPrefix(v.Str, pcpVersion()+" hostcache") {
		t.Errorf("pmda.version %q, want PCP's release then hostcache", v.Str)
	}
}

// pmda.version starts with PCP's release, as pmdalinux's is, then names
// the agent and its build.
func TestAgentVersionHasPCPs(t *testing.T) {
	t.Setenv("PCP_VERSION", "6.0.3")
	c, err := NewAgentCollector(engine.Env{})
	if err != nil {
		t.Fatal(err)
	}
	v := c.(*agentCollector).version
	if f := strings.Fields(v); len(f) < 2 || f[0] != "6.0.3" || f[1] != "hostcache" {
		t.Errorf("pmda.version %q, want \"6.0.3 hostcache ...\"", v)
	}
	t.Setenv("PCP_VERSION", "")
	conf := filepath.Join(t.TempDir(), "pcp.conf")
	os.WriteFile(conf, []byte("# PCP's configuration\nPCP_VAR_DIR=/var/lib/pcp\nPCP_VERSION=7.1.0\n"), 0o644)
	t.Setenv("PCP_CONF", conf)
	if got := pcpVersion(); got != "7.1.0" {
		t.Errorf("PCP_VERSION from pcp.conf: %q", got)
	}
	t.Setenv("PCP_CONF", filepath.Join(t.TempDir(), "none"))
	if got := withPCPVersion(pcpVersion(), "hostcache abc"); got != "hostcache abc" {
		t.Errorf("with no PCP release known: %q", got)
	}
}

// Without uname the version stays, and the sample says what failed.
func TestAgentUnameFails(t *testing.T) {
	c := &agentCollector{uname: func() (string, error) { return "", errors.New("no uname") }, version: "hostcache x"}
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Attach(func(engine.Env) (engine.Collector, error) { return c, nil }, engine.Env{})
	if err := h.Sample(t0); err == nil {
		t.Error("no error")
	}
	h.WantAbsent("pmda.uname", cache.InstNone)
	if v := h.MustValue("pmda.version", cache.InstNone); v.Str != "hostcache x" {
		t.Errorf("pmda.version %q", v.Str)
	}
}

func TestAgentVersionOf(t *testing.T) {
	for _, c := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "hostcache"},
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}, "hostcache v1.2.0 0123456789ab+dirty"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "hostcache abc"},
	} {
		if got := versionOf(&c.info); got != c.want {
			t.Errorf("versionOf = %q, want %q", got, c.want)
		}
	}
}
