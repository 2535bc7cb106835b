// Package config owns the PMDA's options: the pmdaGetOpt-style command line
// that pmcd.conf passes, the optional configuration file, and defaults.
package config

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Name is the agent's name (iam): the pmns root, log file and label.
const Name = "hostcache"

// Log formats (log_format in the configuration file).
const (
	LogPCP  = "pcp"  // [Tue Nov 24 06:47:20] pmdahostcache(2983) Warning: ...
	LogJSON = "json" // one JSON object a line, for machines
)

// DefaultDomain is our domain number, from PCP's end-user range (385-510).
// Install reads it from domain.h and passes it back as -d.
const DefaultDomain = 396

// IPC modes pmcd can reach us by.
const (
	IPCPipe = "pipe"
	IPCInet = "inet"
	IPCIPv6 = "ipv6"
	IPCUnix = "unix"
)

// Config is everything the PMDA is started with.
type Config struct {
	Domain uint32
	// StandIn is the agent the PMDA answers in place of (-S): "linux"
	// answers as pmdalinux, domain 60, and "proc" as pmdaproc, domain 3,
	// with that agent's identities; empty, as hostcache.
	StandIn string
	// BesideSocket (-B), standing in, is the unix socket on which the
	// agent also answers hostcache's own domain (DefaultDomain), so that
	// hostcache's names keep their PMIDs: pmcd's socket entry connects
	// to it.
	BesideSocket string
	// AgentSockets (-B name=path), standing in, are the other agents the
	// process also answers in place of, each on its unix socket, which
	// pmcd's socket entry for that agent connects to: one process stands
	// in for pmdaproc on its pipe and for pmdalinux on a socket.
	AgentSockets []AgentSocket
	LogFile      string // empty: stderr (pmcd points it at its log)
	Debug        string // -D flags: "pdu" traces PDUs; any flag sets debug level
	User         string // -U: run as this user after start-up
	IPC          string
	Port         int    // -i / -6
	SocketPath   string // -u
	ConfigFile   string // -c
	ProcRoot     string
	SysRoot      string
	// KeepFiles keeps files open below roots that are not procfs or
	// sysfs (plain trees standing in for them); they always are on those.
	KeepFiles bool
	Interval  time.Duration            // default sampling interval
	Intervals map[string]time.Duration // per collector
	Disabled  map[string]bool          // collectors turned off
	// StaleIntervals: a collector's data older than this many of its
	// intervals is withheld (no values) until it samples again; 0 never.
	StaleIntervals int
	// History is how far back each source keeps its samples, for the
	// figures computed over each client's interval.
	History time.Duration
	// HistoryBudget bounds the memory of every history together, in
	// bytes: a large host keeps a shorter history instead.
	HistoryBudget int64
	// MemoryLimit is the soft limit of the agent's heap, in bytes; 0
	// none (cmd/pmdahostcache/memlimit.go).
	MemoryLimit int64
	IDDir       string // where stable instance ids persist
	// IdleAfter: a source none of whose metrics a client has read for this
	// long samples IdleFactor times less often until one is read; 0 never.
	IdleAfter  time.Duration
	IdleFactor int
	// ReaderPhases bounds the distinct phases a source samples at to serve
	// its periodic readers' fetches fresh, its grid's included; 0 keeps
	// every source on the fixed grid.
	ReaderPhases int
	// FreshWithin is how old the samples a fetch is answered from may be:
	// an older source is sampled for the fetch, which waits up to
	// FetchWait for it. 0 answers from the samples already taken.
	FreshWithin time.Duration
	FetchWait   time.Duration
	// Processors is how many processors the Go runtime runs the agent's
	// goroutines on (two at least while an archive is written), unless
	// the GOMAXPROCS environment variable says.
	Processors int
	// RecordDir is where the flight recorder writes its archives; by
	// default pmlogger's directory for this host.
	RecordDir string
	// RecordMaxBytes bounds the bytes of the recorder's archives in
	// RecordDir; RecordMinGap is the least time between two recordings one
	// user asks for.
	RecordMaxBytes int64
	RecordMinGap   time.Duration
	// MMVDir is where instrumented programs write their MMV files
	// ($PCP_TMP_DIR/mmv); MMVFiles, MMVMetrics and MMVValues bound what
	// the agent takes of them: files in all, metrics and values a file.
	MMVDir     string
	MMVFiles   int
	MMVMetrics int
	MMVValues  int
	// StoreUsers and StoreGroups say who may pmstore: a client whose user
	// or primary group is listed. Names are resolved as the file is read.
	StoreUsers  []uint32
	StoreGroups []uint32
	// Include and Exclude select instances by name, per instance domain
	// name ("disk", "interface", "filesys", ...).
	Include map[string]*regexp.Regexp
	Exclude map[string]*regexp.Regexp
	// LogFormat is how the log is written: PCP's (the default) or JSON.
	LogFormat string
	// Origins says where each configuration-file key was set ("file:line"),
	// so checks made later still name the line.
	Origins map[string]string
}

// Default returns the configuration used when nothing is said: the
// options' defaults and every key's, read as the file's would be.
func Default() Config {
	c := Config{
		Domain:    DefaultDomain,
		LogFile:   defaultLogFile(),
		User:      envOr("PCP_USER", "pcp"),
		IPC:       IPCPipe,
		Intervals: map[string]time.Duration{},
		Disabled:  map[string]bool{},
		Include:   map[string]*regexp.Regexp{},
		Exclude:   map[string]*regexp.Regexp{},
		Origins:   map[string]string{},
	}
	for _, k := range Keys() {
		if k.Pattern() {
			continue
		}
		val := k.Default
		if k.initial != nil {
			val = k.initial()
		}
		if err := k.field.set(&c, k.Name, "", val); err != nil {
			panic("config: the default of " + err.Error()) // TestKeyDefaults reads every one
		}
	}
	return c
}

// defaultMMVDir is where PCP's MMV writers put their files.
func defaultMMVDir() string {
	if dir := os.Getenv("PCP_TMP_DIR"); dir != "" {
		return filepath.Join(dir, "mmv")
	}
	return "/var/lib/pcp/tmp/mmv"
}

// defaultIDDir is where PCP's PMDAs keep instance caches.
func defaultIDDir() string {
	if dir := os.Getenv("PCP_VAR_DIR"); dir != "" {
		return filepath.Join(dir, "config", "pmda")
	}
	return ""
}

// defaultRecordDir is $PCP_LOG_DIR/pmlogger/<host>, where pmlogger keeps
// this host's archives and PCP's tools look for them.
func defaultRecordDir() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return filepath.Join(envOr("PCP_LOG_DIR", "/var/log/pcp"), "pmlogger", host)
}

// defaultStoreGroups is PCP's group ($PCP_GROUP, else pcp), whose
// services (pmie) may ask for recordings; none on a host without it.
func defaultStoreGroups() string {
	name := envOr("PCP_GROUP", "pcp")
	if _, err := lookupGroup(name); err != nil {
		return ""
	}
	return name
}

// resolveIDs reads a list of user or group names or numbers, separated by
// commas or spaces, each resolved with lookup.
func resolveIDs(val string, lookup func(string) (uint32, error)) ([]uint32, error) {
	var ids []uint32
	for _, name := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		id, err := lookup(name)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// lookupUser resolves a user name, or takes a number as it is.
func lookupUser(name string) (uint32, error) {
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n), nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return 0, fmt.Errorf("no user %q", name)
	}
	n, err := strconv.ParseUint(u.Uid, 10, 32)
	return uint32(n), err
}

// lookupGroup resolves a group name, or takes a number as it is.
func lookupGroup(name string) (uint32, error) {
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n), nil
	}
	g, err := user.LookupGroup(name)
	if err != nil {
		return 0, fmt.Errorf("no group %q", name)
	}
	n, err := strconv.ParseUint(g.Gid, 10, 32)
	return uint32(n), err
}

// defaultLogFile follows libpcp_pmda: <iam>.log in pmcd's log directory.
func defaultLogFile() string {
	if dir := os.Getenv("PCP_LOG_DIR"); dir != "" {
		return filepath.Join(dir, "pmcd", Name+".log")
	}
	return Name + ".log"
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// DefaultConfigFile is the configuration file looked for in the PMDA
// directory when -c is not given.
func DefaultConfigFile() string {
	if dir := os.Getenv("PCP_PMDAS_DIR"); dir != "" {
		return filepath.Join(dir, Name, Name+".conf")
	}
	return ""
}

// Load parses args (without the program name), then the config file.
func Load(args []string) (Config, error) {
	c := Default()
	if err := c.parseArgs(args); err != nil {
		return c, err
	}
	explicit := c.ConfigFile != ""
	if !explicit {
		c.ConfigFile = DefaultConfigFile()
	}
	if c.ConfigFile != "" {
		if err := c.readFile(c.ConfigFile, explicit); err != nil {
			return c, err
		}
	}
	return c, c.validate()
}

func (c *Config) validate() error {
	if c.Domain < 1 || c.Domain > 510 {
		return fmt.Errorf("domain %d outside 1..510", c.Domain)
	}
	if c.StandIn != "" {
		domain, known := StandInDomain(c.StandIn)
		switch {
		case !known:
			return fmt.Errorf("-S %q: the agent stands in for %q or %q only", c.StandIn, StandInLinux,
				StandInProc)
		case c.Domain != domain:
			return fmt.Errorf("-S %s answers as domain %d, not %d", c.StandIn, domain, c.Domain)
		}
	}
	if c.BesideSocket != "" && (c.StandIn == "" || c.IPC != IPCPipe) {
		return fmt.Errorf("-B %s: hostcache's own domain is answered beside a stand-in's pipe (-S) only",
			c.BesideSocket)
	}
	return c.validateAgentSockets()
}

// validateAgentSockets checks each -B name=path: a known agent, another
// than the pipe's, once, beside a stand-in's pipe.
func (c *Config) validateAgentSockets() error {
	seen := map[string]bool{c.StandIn: true}
	for _, s := range c.AgentSockets {
		_, known := StandInDomain(s.Agent)
		switch {
		case c.StandIn == "" || c.IPC != IPCPipe:
			return fmt.Errorf("-B %s=%s: another agent is answered beside a stand-in's pipe (-S) only",
				s.Agent, s.Path)
		case !known:
			return fmt.Errorf("-B %s=%s: the agent stands in for %q or %q only", s.Agent, s.Path,
				StandInLinux, StandInProc)
		case seen[s.Agent]:
			return fmt.Errorf("-B %s=%s: the agent answers for %s once", s.Agent, s.Path, s.Agent)
		case s.Path == "":
			return fmt.Errorf("-B %s=: no socket path", s.Agent)
		}
		seen[s.Agent] = true
	}
	return nil
}

// AgentSocket is another agent stood in for on a unix socket (-B).
type AgentSocket struct {
	Agent string // pmcd.conf's name of the agent: "linux"
	Path  string
}

// StandIns lists every agent the process answers in place of: the
// pipe's, then the sockets'.
func (c *Config) StandIns() []string {
	if c.StandIn == "" {
		return nil
	}
	out := []string{c.StandIn}
	for _, s := range c.AgentSockets {
		out = append(out, s.Agent)
	}
	return out
}

// The agents hostcache stands in for, and their domains.
const (
	StandInLinux = "linux"
	LinuxDomain  = 60
	StandInProc  = "proc"
	ProcDomain   = 3
)

// StandInDomain is the domain of the agent -S names.
func StandInDomain(name string) (uint32, bool) {
	switch name {
	case StandInLinux:
		return LinuxDomain, true
	case StandInProc:
		return ProcDomain, true
	}
	return 0, false
}

// Known lists the names a configuration may refer to, which only the
// caller knows: the collectors, and the instance domains filters apply to.
type Known struct {
	Collectors []string
	InDoms     []string
}

// Check refuses a configuration that names a collector or an instance
// domain that does not exist, naming the file and line that did.
func (c *Config) Check(k Known) error {
	var errs []error
	for _, name := range sortedKeys(c.Intervals, c.Disabled) {
		if !slices.Contains(k.Collectors, name) {
			errs = append(errs,
				fmt.Errorf("%s: unknown collector %q (there are %s)", c.origin("collector."+name+"."),
					name, strings.Join(k.Collectors, ", ")))
		}
	}
	for _, name := range sortedKeys(c.Include, c.Exclude) {
		if !slices.Contains(k.InDoms, name) {
			errs = append(errs, fmt.Errorf("%s: unknown instance domain %q (there are %s)",
				c.origin("instances."+name+"."), name, strings.Join(k.InDoms, ", ")))
		}
	}
	return errors.Join(errs...)
}

// origin names the file and line of the first key starting with prefix.
func (c *Config) origin(prefix string) string {
	var keys []string
	for k := range c.Origins {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return c.ConfigFile
	}
	return c.Origins[keys[0]]
}

// sortedKeys returns the keys of both maps, sorted, once each.
func sortedKeys[A, B any](a map[string]A, b map[string]B) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, dup := a[k]; !dup {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
