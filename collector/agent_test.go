package collector

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// pmda.uname has uname(2)'s five fields, pmdalinux's format.
func TestAgentUname(t *testing.T) {
	h := newHarness(t, NewAgentCollector, "proc-t0")
	h.mustSample(t0)
	v := h.mustValue("pmda.uname", cache.InstNone)
	if f := strings.Fields(v.Str); len(f) < 5 || f[0] != "Linux" {
		t.Errorf("pmda.uname %q: want sysname nodename release version machine", v.Str)
	}
	if v := h.mustValue("pmda.version", cache.InstNone); !strings.HasPrefix(v.Str, "hostcache") {
		t.Errorf("pmda.version %q", v.Str)
	}
}

// Without uname the version stays, and the sample says what failed.
func TestAgentUnameFails(t *testing.T) {
	c := &agentCollector{uname: func() (string, error) { return "", errors.New("no uname") }, version: "hostcache x"}
	h := &harness{t: t, proc: t.TempDir()}
	h.attach(func(engine.Env) (engine.Collector, error) { return c, nil }, engine.Env{})
	if err := h.sample(t0); err == nil {
		t.Error("no error")
	}
	h.wantAbsent("pmda.uname", cache.InstNone)
	if v := h.mustValue("pmda.version", cache.InstNone); v.Str != "hostcache x" {
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
