package collector

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The system's identity, with pmdalinux's items of its uname cluster
// (hinv.machine is item 7 of its cpuinfo cluster; here it is item 8).
var (
	unameRelease = engine.Row{Name: "hostcache.kernel.uname.release", Cluster: clusterUname, Item: 0,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	unameVersion = engine.Row{Name: "hostcache.kernel.uname.version", Cluster: clusterUname, Item: 1,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	unameSysname = engine.Row{Name: "hostcache.kernel.uname.sysname", Cluster: clusterUname, Item: 2,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	unameMachine = engine.Row{Name: "hostcache.kernel.uname.machine", Cluster: clusterUname, Item: 3,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	unameNodename = engine.Row{Name: "hostcache.kernel.uname.nodename", Cluster: clusterUname, Item: 4,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	unameDistro = engine.Row{Name: "hostcache.kernel.uname.distro", Cluster: clusterUname, Item: 7,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	hinvMachine = engine.Row{Name: "hostcache.hinv.machine", Cluster: clusterUname, Item: 8,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
)

// unameCollector reads the kernel's names from /proc/sys/kernel (ostype,
// osrelease, version, hostname: what uname(2) returns), the machine from
// uname(2) itself (no file has it), and the distribution from the etc
// directory beside the /proc root (/etc for /proc).
type unameCollector struct {
	files  []unameFile
	etc    string
	buf    []byte
	uname  func() (string, error)
	distro string
}

// unameFile is one /proc/sys/kernel file and the metric it gives.
type unameFile struct {
	file *kernel.File
	desc cache.Desc
}

// NewUnameCollector names the files below env.Proc.
func NewUnameCollector(env engine.Env) (engine.Collector, error) {
	dir, err := hostkit.ProcFile(env, filepath.Join("sys", "kernel"))
	if err != nil {
		return nil, fmt.Errorf("uname: %w", err)
	}
	file := func(name string, d cache.Desc) unameFile {
		return unameFile{kernel.NewFileKept(env.Proc, filepath.Join(dir, name), env.KeepFiles), d}
	}
	return &unameCollector{
		files: []unameFile{file("ostype", unameSysname), file("osrelease", unameRelease),
			file("version", unameVersion), file("hostname", unameNodename)},
		etc:   filepath.Join(filepath.Dir(filepath.Clean(env.Proc)), "etc"),
		uname: machine,
	}, nil
}

func (c *unameCollector) Name() string { return "uname" }

func (c *unameCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{unameRelease, unameVersion, unameSysname,
		unameMachine, unameNodename, unameDistro, hinvMachine}}
}

// Sample reads each name; one missing costs only its own metric.
func (c *unameCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for _, f := range c.files {
		var err error
		if c.buf, err = f.file.Read(c.buf); err != nil {
			errs = append(errs, err)
			continue
		}
		b.SetString(f.desc.ID, cache.InstNone, string(bytes.TrimSpace(c.buf)))
	}
	if m, err := c.uname(); err == nil {
		b.SetString(unameMachine.ID, cache.InstNone, m)
		b.SetString(hinvMachine.ID, cache.InstNone, m)
	} else {
		errs = append(errs, err)
	}
	if c.distro == "" {
		c.distro = distro(c.etc)
	}
	if c.distro != "" {
		b.SetString(unameDistro.ID, cache.InstNone, c.distro)
	}
	return engine.PartialOf(errs, len(c.files)+1)
}

// machine is uname(2)'s machine field (x86_64, aarch64).
func machine() (string, error) {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "", err
	}
	var b []byte
	for _, c := range u.Machine {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b), nil
}

// distro names the distribution as pmdalinux does on Debian ("Debian" and
// /etc/debian_version, "Debian 12.11"), else from os-release's PRETTY_NAME;
// "" when neither says.
func distro(etc string) string {
	if v, err := os.ReadFile(filepath.Join(etc, "debian_version")); err == nil {
		if s := strings.TrimSpace(string(v)); s != "" {
			return "Debian " + s
		}
	}
	data, err := os.ReadFile(filepath.Join(etc, "os-release"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
