package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sync/errgroup"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// run wires config, collectors, cache and the PDU server, and runs them
// until pmcd goes away or a signal arrives.
func run(ctx context.Context, cfg config.Config, args []string, log zerolog.Logger) error {
	texts, err := help.Parse(help.Source())
	if err != nil {
		return err
	}
	procs := newProcessors()
	procs.set(cfg.Processors)
	runner, front, err := buildCache(cfg, log)
	if err != nil {
		return err
	}
	allTexts := help.Chain(texts, help.CollectorTexts(runner.Collectors()))
	rec := newRecorder(cfg, runner, front, allTexts, procs.recording, log)
	runner.SetRecorder(rec)
	conn, err := connect(ctx, cfg, log)
	if err != nil {
		return err
	}
	// One pmdaroot client for every domain's server: it serialises its
	// exchanges itself.
	roots := newContainerFinder()
	base := pmda.Config{
		Front: front, PMStore: runner, Clients: runner, Log: log, Trace: cfg.HasDebug("pdu"),
		StoreAccess: &pmda.StoreAccess{Users: cfg.StoreUsers, Groups: cfg.StoreGroups},
		Containers:  roots,
		// One set of process controls for every domain: pmcd numbers its
		// clients once for all its agents.
		Controls: cache.NewProcControls(),
	}
	own := ownDomain(cfg, base, allTexts)
	agents, err := standInDomains(cfg, base, allTexts, log)
	if err != nil {
		return err
	}
	pipeCfg := own
	if cfg.StandIn != "" {
		pipeCfg = agents[cfg.StandIn]
	}
	// Before the CREDS: pmcd connects to the sockets as soon as this pipe
	// agent's handshake is done.
	sockets, err := listenSockets(cfg, own, agents, log)
	if err != nil {
		return err
	}
	srv := pmda.NewServer(pipeCfg, conn, conn)
	// pmcd gives us 3 s to say hello: the handshake comes before sampling.
	if err := srv.Handshake(os.Getpid()); err != nil {
		return err
	}
	connectRoot(roots, log)
	if err := dropPrivileges(cfg, log); err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	if cfg.HasDebug("profile") {
		go profileFor(gctx, cfg.LogFile, 60*time.Second, log)
	}
	if cfg.MemoryLimit > 0 {
		go keepMemoryLimit(gctx, cfg.MemoryLimit, log)
	}
	g.Go(func() error { return runner.Run(gctx) })
	rl := &reloader{args: args, running: cfg, runner: runner, procs: procs, log: log}
	go rl.watch(gctx)
	// Not in the group: the pipe alone decides when the agent exits.
	serveSockets(gctx, sockets, runner.Ready(), log)
	g.Go(func() error {
		awaitFirstSamples(gctx, runner.Ready(), log)
		// Serve returns ErrPeerClosed on EOF: a non-nil error, so the group
		// cancels the collectors instead of leaving their tickers running.
		return srv.Serve(gctx)
	})
	return waitOrStop(ctx, g, conn)
}

// waitOrStop waits for the server and the collectors, and closes the
// connection once the server has returned. On a signal it waits at most
// stopGrace: a read of pmcd's pipe in progress cannot be interrupted (and
// closing the descriptor under it would only turn a clean exit into a read
// error), and the process exits with the reader still parked in it.
func waitOrStop(ctx context.Context, g *errgroup.Group, conn io.Closer) error {
	done := make(chan error, 1)
	go func() { done <- g.Wait() }()
	select {
	case err := <-done:
		conn.Close()
		return err
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		conn.Close()
		return err
	case <-time.After(stopGrace):
		return ctx.Err()
	}
}

// stopGrace bounds how long a signal waits for the server to finish the
// request in hand.
const stopGrace = 200 * time.Millisecond

// buildCache makes the collectors, the schema of everything they publish,
// and the front they publish into.
func buildCache(cfg config.Config, log zerolog.Logger) (*engine.Runner, *cache.Front, error) {
	ids := &cache.IDMaps{}
	collectors, err := buildCollectors(cfg, log, ids)
	if err != nil {
		return nil, nil, err
	}
	sched := schedule(cfg)
	sched.IDs = ids
	runner := engine.NewRunner(log, collectors, sched)
	// The collector labels stay in the schema in either mode: hostcache's
	// own domain answers with them, and the stand-in's domain leaves them
	// out (standInDomain).
	schema, err := cache.NewSchema(withPlaceholders(cfg, runner.Sources())...)
	if err != nil {
		return nil, nil, err
	}
	front := cache.NewFront(schema)
	if err := runner.Attach(front); err != nil {
		return nil, nil, err
	}
	return runner, front, nil
}

// buildCollectors makes every enabled collector in registry order.
func buildCollectors(cfg config.Config, log zerolog.Logger, ids *cache.IDMaps) ([]engine.Collector, error) {
	if err := cfg.Check(knownNames()); err != nil {
		return nil, err
	}
	env := engine.Env{
		Proc: cfg.ProcRoot, Sys: cfg.SysRoot, KeepFiles: cfg.KeepFiles, IDDir: cfg.IDDir, IDs: ids,
		Filter: engine.Filter{},
		MMVDir: cfg.MMVDir, MMVFiles: cfg.MMVFiles, MMVMetrics: cfg.MMVMetrics, MMVValues: cfg.MMVValues,
		Warn:     func(err error) { log.Warn().Err(err).Msg("recovered") },
		PMDAsDir: pmdasDir(),
	}
	for name, re := range cfg.Include {
		p := env.Filter[name]
		p.Include = re
		env.Filter[name] = p
	}
	for name, re := range cfg.Exclude {
		p := env.Filter[name]
		p.Exclude = re
		env.Filter[name] = p
	}
	if slices.Contains(cfg.StandIns(), config.StandInLinux) {
		kept, err := linuxIDFiles(cfg, env)
		if err != nil {
			return nil, err
		}
		env.PMDAFiles, env.PMDADomain = kept, config.LinuxDomain
	}
	out, names, err := makeCollectors(cfg, env)
	if err != nil {
		return nil, err
	}
	log.Info().Strs("collectors", names).Dur("interval", cfg.Interval).Uint32("domain", cfg.Domain).
		Str("proc", cfg.ProcRoot).Int("processors", runtime.GOMAXPROCS(0)).Msg("starting")
	return out, nil
}

// makeCollectors makes every enabled collector in registry order, and
// returns their names.
func makeCollectors(cfg config.Config, env engine.Env) ([]engine.Collector, []string, error) {
	var out []engine.Collector
	var names []string
	for _, reg := range collector.Registry() {
		if cfg.Disabled[reg.Name] {
			continue
		}
		c, err := reg.Factory(env)
		if err != nil {
			return nil, nil, fmt.Errorf("collector %s: %w", reg.Name, err)
		}
		out = append(out, c)
		names = append(names, reg.Name)
	}
	return out, names, nil
}

// errNoConn is returned when no pmcd connection could be made.
var errNoConn = errors.New("no connection to pmcd")

// firstSampleWait bounds how long the first request waits for first samples.
const firstSampleWait = time.Second

// connTimeout bounds how long a socket agent waits for pmcd to connect.
const connTimeout = 60 * time.Second

// knownNames are the collectors and filterable instance domains a
// configuration may name.
func knownNames() config.Known {
	k := config.Known{InDoms: collector.FilterKeys()}
	for _, reg := range collector.Registry() {
		k.Collectors = append(k.Collectors, reg.Name)
	}
	return k
}

// pmdasDir is $PCP_PMDAS_DIR, as pmcd passes it to its agents, or
// Debian's when the agent runs without it.
func pmdasDir() string {
	if dir := os.Getenv("PCP_PMDAS_DIR"); dir != "" {
		return dir
	}
	return "/var/lib/pcp/pmdas"
}
