package main

import (
	"context"
	"net"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// socketDomain is one domain the stand-in answers on a unix socket of
// its own: hostcache's (-B path) or another agent's (-B name=path).
type socketDomain struct {
	listener *besideListener
	cfg      pmda.Config
}

// listenSockets makes every socket the stand-in answers on, before the
// pipe's handshake: pmcd connects to them as soon as it is done.
func listenSockets(cfg config.Config, own pmda.Config, agents map[string]pmda.Config,
	log zerolog.Logger) ([]socketDomain, error) {
	var out []socketDomain
	if cfg.BesideSocket != "" {
		ln, err := listenBeside(cfg.BesideSocket, pcpUser(), log)
		if err != nil {
			return nil, err
		}
		out = append(out, socketDomain{ln, own})
	}
	for _, s := range cfg.AgentSockets {
		ln, err := listenBeside(s.Path, pcpUser(), log.With().Str("agent", s.Agent).Logger())
		if err != nil {
			return nil, err
		}
		out = append(out, socketDomain{ln, agents[s.Agent]})
	}
	return out, nil
}

// serveSockets answers each socket's connections until ctx ends; a
// connection pmcd closes ends alone, and the process goes on.
func serveSockets(ctx context.Context, sockets []socketDomain, ready <-chan struct{}, log zerolog.Logger) {
	for _, s := range sockets {
		go s.listener.serve(ctx, func(ctx context.Context, c *net.UnixConn) error {
			return serveBeside(ctx, s.cfg, c, ready, log)
		})
	}
}
