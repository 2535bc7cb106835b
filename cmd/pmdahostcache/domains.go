package main

import (
	"context"
	"net"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// ownDomain is hostcache's own domain as the agent answers it beside
// pmdalinux: its names, PMIDs, labels (the collector's included), help
// and dynamic MMV roots. Standing in, the socket connection (-B) answers
// it the same, without the stand-in's placeholders, so that hostcache's
// names keep their PMIDs and descriptors in either mode.
func ownDomain(cfg config.Config, base pmda.Config, texts pmda.TextSource) pmda.Config {
	c := base
	c.Name, c.Domain, c.Texts = config.Name, cfg.Domain, texts
	c.DynamicRoots = collector.DynamicRoots()
	if cfg.StandIn != "" {
		c.Domain = config.DefaultDomain
		c.Numbering = newBesideNumbering(c.Domain, base.Front.Schema())
		c.Log = base.Log.With().Uint32("domain", c.Domain).Logger()
	}
	return c
}

// standInDomain is the domain of an agent stood in for as the stand-in
// answers it, on pmcd's pipe or a socket: that agent's names only (the twins and the
// placeholders), with its labels, no more (an extra label changes a
// series' identity in pmseries), and its dynamic subtrees, not
// hostcache's.
func standInDomain(agent standin.Agent, base pmda.Config, ids pmda.Numbering, texts pmda.TextSource) pmda.Config {
	c := base
	c.Name, c.Domain, c.Numbering, c.Texts = agent.Name, agent.Domain, ids, texts
	c.OwnLabelsOnly = true
	c.DynamicRoots = agent.DynamicRoots
	c.Log = base.Log.With().Uint32("domain", agent.Domain).Logger()
	return c
}

// standInDomains makes the server configuration of every agent the
// process stands in for.
func standInDomains(cfg config.Config, base pmda.Config, texts help.TextSource,
	log zerolog.Logger) (map[string]pmda.Config, error) {
	out := map[string]pmda.Config{}
	schema := base.Front.Schema()
	for _, agent := range standInAgents(cfg) {
		ids, err := agentNumbering(agent, schema, log)
		if err != nil {
			return nil, err
		}
		out[agent.Name] = standInDomain(agent, base, ids, textsFor(agent, texts, schema, log))
	}
	return out, nil
}

// serveBeside answers one pmcd connection to a socket's domain
// (hostcache's own, or another agent's stood in for): the handshake at
// once (pmcd waits for it as for a pipe agent's), then requests once the
// first samples are in, until pmcd closes it. The end of ctx (the agent
// exits) does not end it: the exit closes it together with the pipe
// (besideListener.serve).
func serveBeside(ctx context.Context, c pmda.Config, conn *net.UnixConn, ready <-chan struct{},
	log zerolog.Logger) error {
	stream, err := pmda.NewStream(conn, conn)
	if err != nil {
		return err
	}
	srv := pmda.NewServer(c, stream, stream)
	if err := srv.Handshake(os.Getpid()); err != nil {
		return err
	}
	awaitFirstSamples(ctx, ready, log)
	return srv.Serve(context.WithoutCancel(ctx))
}

// awaitFirstSamples waits for the first samples, but never keeps pmcd
// waiting long for them: a stalled source must not stall the agent.
func awaitFirstSamples(ctx context.Context, ready <-chan struct{}, log zerolog.Logger) {
	select {
	case <-ready:
	case <-time.After(firstSampleWait):
		log.Warn().Dur("waited", firstSampleWait).Msg("serving before every collector has sampled")
	case <-ctx.Done():
	}
}

// pcpUser is PCP's user, as pcp.conf names it: pmcd runs as it.
func pcpUser() string {
	if u := os.Getenv("PCP_USER"); u != "" {
		return u
	}
	return "pcp"
}

// besideNumbering numbers hostcache's own domain as the agent beside
// pmdalinux does (pmda.DomainNumbering), leaving out what only the
// stand-in's schema has: the placeholders of pmdalinux's metrics, and
// their instance domains.
type besideNumbering struct {
	pmda.DomainNumbering
	hidden       map[cache.MetricID]bool
	hiddenInDoms map[cache.InDomID]bool
}

func newBesideNumbering(domain uint32, schema *cache.Schema) besideNumbering {
	x := besideNumbering{pmda.DomainNumbering(domain), map[cache.MetricID]bool{}, map[cache.InDomID]bool{}}
	for _, d := range schema.Descs() {
		if standin.IsPlaceholder(d.ID) {
			x.hidden[d.ID] = true
			if d.InDom != cache.InDomNone {
				x.hiddenInDoms[d.InDom] = true
			}
		}
	}
	return x
}

// Metric is the cache's id of a PMID of the domain, a placeholder's none.
func (x besideNumbering) Metric(wire uint32) (cache.MetricID, bool) {
	id, ok := x.DomainNumbering.Metric(wire)
	return id, ok && !x.hidden[id]
}

// InDomOf is the cache's serial of an InDom of the domain, a
// placeholder's none.
func (x besideNumbering) InDomOf(wire uint32) (cache.InDomID, bool) {
	id, ok := x.DomainNumbering.InDomOf(wire)
	return id, ok && !x.hiddenInDoms[id]
}
