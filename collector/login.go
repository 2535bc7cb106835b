package collector

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Login sessions as utmp(5) records them, with pmdalinux's items (its
// cluster 25). pmie's and pcp-uptime's user counts read them.
var (
	loginUsers = engine.Row{Name: "hostcache.kernel.all.nusers", Cluster: clusterLogin, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	loginRoots = engine.Row{Name: "hostcache.kernel.all.nroots", Cluster: clusterLogin, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	loginSessions = engine.Row{Name: "hostcache.kernel.all.nsessions", Cluster: clusterLogin, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
)

// loginCollector reads the utmp file beside the /proc root (glibc's
// /var/run/utmp for /proc), as uname reads /etc.
type loginCollector struct {
	path string
	buf  []byte
}

// NewLoginCollector names the utmp file of the host env.Proc belongs to.
func NewLoginCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Proc); err != nil {
		return nil, err
	}
	root := filepath.Dir(filepath.Clean(env.Proc))
	return &loginCollector{path: filepath.Join(root, "var", "run", "utmp")}, nil
}

func (c *loginCollector) Name() string { return "login" }

func (c *loginCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{loginUsers, loginRoots, loginSessions}}
}

// Sample counts the records. A host without a utmp file (a container, a
// system without login records) has no sessions: zeros, as pmdalinux
// and who(1) give; any other failure leaves the metrics without values.
func (c *loginCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	c.buf, err = kernel.ReadFileInto(c.path, c.buf)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err != nil {
		c.buf = c.buf[:0]
	}
	l := kernel.ParseUtmp(c.buf)
	b.SetU64(loginUsers.ID, cache.InstNone, l.Users)
	b.SetU64(loginRoots.ID, cache.InstNone, l.Roots)
	b.SetU64(loginSessions.ID, cache.InstNone, l.Sessions)
	return nil
}
