package collector

import (
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The agent's own identity, with pmdalinux's items of its uname cluster.
// pmda.uname is the uname(2) string of the host the agent runs on, as
// pmdalinux gives it: the same host, so the same answer. pmda.version
// says which version and which agent: pmdalinux gives the PCP release
// alone ("6.0.3"); hostcache gives the same release first, then
// "hostcache" and its own build ("6.0.3 hostcache v1.2.0 0123456789ab").
// A tool that reads the version number from the front reads PCP's, as
// from pmdalinux, and an administrator sees which agent serves
// pmdalinux's names in the stand-in mode.
var (
	pmdaUname = engine.Row{Name: "hostcache.pmda.uname", Cluster: clusterAgent, Item: 5,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	pmdaVersion = engine.Row{Name: "hostcache.pmda.version", Cluster: clusterAgent, Item: 6,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
)

// agentCollector publishes the two strings; the host name in the uname
// string can change, so it is asked each sample.
type agentCollector struct {
	uname   func() (string, error)
	version string
}

// NewAgentCollector needs no files.
func NewAgentCollector(engine.Env) (engine.Collector, error) {
	return &agentCollector{uname: unameString, version: withPCPVersion(pcpVersion(), agentVersion())}, nil
}

// withPCPVersion puts PCP's release, when known, before the agent's
// version: pmdalinux's pmda.version is that release alone.
func withPCPVersion(pcp, agent string) string {
	if pcp == "" {
		return agent
	}
	return pcp + " " + agent
}

// pcpVersion is the PCP release installed, as pmdalinux gives it
// (pmGetConfig("PCP_VERSION")): pmcd passes $PCP_VERSION to its agents;
// else PCP_VERSION of $PCP_CONF or /etc/pcp.conf; "" when neither says.
func pcpVersion() string {
	if v := os.Getenv("PCP_VERSION"); v != "" {
		return v
	}
	conf := os.Getenv("PCP_CONF")
	if conf == "" {
		conf = "/etc/pcp.conf"
	}
	data, err := os.ReadFile(conf)
	if err != nil {
		return ""
	}
	return pcpConfValue(string(data), "PCP_VERSION")
}

// pcpConfValue is the value of key in pcp.conf's text: "KEY=value" lines,
// "#" comments, the value maybe quoted.
func pcpConfValue(text, key string) string {
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && k == key {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

func (c *agentCollector) Name() string { return "agent" }

func (c *agentCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{pmdaUname, pmdaVersion}}
}

func (c *agentCollector) Sample(b *cache.Builder, _ time.Time) error {
	b.SetString(pmdaVersion.ID, cache.InstNone, c.version)
	s, err := c.uname()
	if err != nil {
		return engine.Partial(err)
	}
	b.SetString(pmdaUname.ID, cache.InstNone, s)
	return nil
}

// unameString is "sysname nodename release version machine", pmdalinux's
// format.
func unameString() (string, error) {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "", err
	}
	fields := []string{utsField(u.Sysname[:]), utsField(u.Nodename[:]), utsField(u.Release[:]),
		utsField(u.Version[:]), utsField(u.Machine[:])}
	return strings.Join(fields, " "), nil
}

// utsField is a NUL-terminated field of struct utsname.
func utsField(f []int8) string {
	b := make([]byte, 0, len(f))
	for _, c := range f {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}

// agentVersion is "hostcache", the module's version when it has one, and
// the commit the binary was built from, with "+dirty" when the tree had
// changes: what the build recorded.
func agentVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "hostcache"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	parts := []string{"hostcache"}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		parts = append(parts, v)
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev != "" {
		parts = append(parts, rev[:min(len(rev), 12)]+dirty)
	}
	return strings.Join(parts, " ")
}
