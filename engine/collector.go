package engine

import (
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Collector reads one source (a /proc file or a family of them).
type Collector interface {
	// Name is the collector's instance name in hostcache.control metrics.
	Name() string
	// Source lists the metrics and instance domains the collector publishes.
	Source() cache.Source
	// Sample reads the source once and fills b. now is the sample time, taken
	// from the monotonic clock, for rates. An error means this sample failed
	// and nothing is published from it.
	Sample(b *cache.Builder, now time.Time) error
}

// Env is what a collector is built with: the roots it reads below (so tests
// and containers can point them elsewhere), where stable instance ids are
// kept, and which instances the administrator wants.
type Env struct {
	Proc string // normally /proc
	Sys  string // normally /sys
	// MMVDir is where instrumented programs write their MMV files,
	// $PCP_TMP_DIR/mmv; "" reads none. MMVFiles, MMVMetrics and MMVValues
	// bound what is taken of them (0: the collector's defaults).
	MMVDir                          string
	MMVFiles, MMVMetrics, MMVValues int
	IDDir                           string // where instance id maps persist; "" keeps them in memory
	// IDs, when set, collects the maps so the runner saves them once per
	// sample; without it each new id is saved at once.
	IDs    *cache.IDMaps
	Filter Filter
	Warn   func(error) // told about recoverable problems (a rebuilt id file)
	// PMDAFiles names the instance domains whose ids live in another
	// agent's id files in IDDir, libpcp_pmda's PMDADomain.SERIAL, by
	// serial: the stand-in for pmdalinux continues pmdalinux's ids in
	// pmdalinux's own files.
	PMDAFiles  map[cache.InDomID]uint32
	PMDADomain uint32
	// KeepFiles keeps the files read every sample open even when Proc
	// and Sys are not procfs and sysfs (the keep_files setting): for
	// trees of plain files standing in for them.
	KeepFiles bool
	// PMDAsDir is $PCP_PMDAS_DIR, where the process collector finds
	// pmdaproc's hotproc.conf (proc/hotproc.conf); "" reads none.
	PMDAsDir string
}

// ForeignIDs reports whether indom's ids are kept in another agent's id
// file (PMDAFiles): a collector that computes its ids instead of keeping
// a map then takes them from IDMap, so that they are that agent's.
func (e Env) ForeignIDs(indom cache.InDomID) bool {
	_, ok := e.PMDAFiles[indom]
	return ok && e.IDDir != ""
}

// IDMap returns the persistent instance id map of an instance domain.
func (e Env) IDMap(indom cache.InDomID) *cache.IDMap {
	if serial, ok := e.PMDAFiles[indom]; ok && e.IDDir != "" {
		if e.IDs != nil {
			return e.IDs.LoadPMDACache(e.IDDir, e.PMDADomain, serial, e.Warn)
		}
		return cache.LoadPMDACache(e.IDDir, e.PMDADomain, serial, e.Warn)
	}
	path := ""
	if e.IDDir != "" {
		path = filepath.Join(e.IDDir, fmt.Sprintf("hostcache.%d", indom))
	}
	if e.IDs != nil {
		return e.IDs.Load(path, e.Warn)
	}
	return cache.LoadIDMap(path, e.Warn)
}

// Patterns selects instances by name: included when Include is nil or
// matches, and Exclude is nil or does not match.
type Patterns struct {
	Include *regexp.Regexp
	Exclude *regexp.Regexp
}

// Filter holds the patterns of each instance domain, by indom name.
type Filter map[string]Patterns

// Keep reports whether instance name of the named indom is wanted.
func (f Filter) Keep(indom, name string) bool {
	p, ok := f[indom]
	if !ok {
		return true
	}
	return (p.Include == nil || p.Include.MatchString(name)) &&
		(p.Exclude == nil || !p.Exclude.MatchString(name))
}

// Factory builds a collector. It opens its procfs view here, so a bad root
// fails at start-up rather than on every tick.
type Factory func(env Env) (Collector, error)

// Registration names a collector and how to build it.
type Registration struct {
	Name    string
	Factory Factory
	// Interval, when set, is the collector's default interval instead of
	// the global one: slow or costly sources sample less often.
	Interval time.Duration
}

// Paced is a collector with refreshes of its own between samples (device
// attributes, mount-table links, hardware addresses: once a minute at its
// interval). While no client reads the source it samples slower, and so
// should they: the runner calls Pace before a sample whenever the factor
// changes, 1 at the source's interval and idle_factor while it is slowed
// down, so a source nobody reads costs its share of the refreshes too.
type Paced interface {
	Pace(factor int)
}

// OnDemand is a Paced collector that samples only for its readers (the
// process groups that read a costly file of every process): unread since
// the agent started, it is slowed down at once rather than after
// idle_after, and a fetch of one of its metrics wakes it for that very
// fetch (Runner.Freshen).
type OnDemand interface {
	Paced
	OnDemand() bool
}

// Bounder is a collector whose counters have physical bounds: the engine
// takes a step beyond one for a reset (Bound). The runner asks once, when
// it attaches the collector's history.
type Bounder interface {
	Bounds() []Bounded
}

// Storer is a collector with metrics of its own that pmstore writes
// (pmdaproc's hotproc.control.*). CheckStore checks a request as Store
// would and applies nothing; Store applies one checked request. Who may
// store is the wire layer's decision first (store_users); a Storer may
// refuse more (cache.ErrNotAllowed). After a store the source's next
// fetch samples anew, so the client that stored reads what it stored.
type Storer interface {
	CheckStore(q cache.PMStoreRequest) error
	Store(q cache.PMStoreRequest) error
}

// Lister is a collector that can say which of its instances exist now
// without a sample: the processes, from one read of /proc's directory.
// A fetch its sample is late for leaves out the instances gone since the
// newest sample, as pmdaproc, which lists /proc at each fetch, would.
// Present sets the lists of the domains it knows; it runs beside Sample.
type Lister interface {
	Present(p *cache.Present) error
}
