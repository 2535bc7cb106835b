package main

import (
	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// identity is the name (the domain's agent label) and the numbering the
// agent answers with: hostcache's own in its domain, or, standing in for
// pmdalinux (-S linux), pmdalinux's name, PMIDs and instance domains for
// the twins and domain 60 past pmdalinux's clusters for the rest.
func identity(cfg config.Config, schema *cache.Schema, log zerolog.Logger) (string, pmda.Identity, error) {
	if cfg.StandIn == "" {
		return config.Name, nil, nil
	}
	x, problems, err := standin.New(schema.Descs(), schema.InDoms(), standin.LinuxTable())
	if err != nil {
		return "", nil, err
	}
	for _, p := range problems {
		log.Info().Str("kind", string(p.Kind)).Str("name", p.Name).Str("why", p.Why).Msg("stand-in")
	}
	log.Info().Int("twins", x.Twins()).Int("metrics", len(schema.Descs())).Msg("standing in for pmdalinux")
	return cfg.StandIn, x, nil
}
