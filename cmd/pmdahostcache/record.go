package main

import (
	"os"
	"os/user"
	"strconv"
	"strings"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/recorder"
)

// newRecorder makes the flight recorder that writes the runner's history
// as archives into cfg.RecordDir, owned by the agent's user; writing is
// told when an archive's writing starts and ends.
func newRecorder(cfg config.Config, runner *engine.Runner, front *cache.Front, texts recorder.Texts,
	writing func(bool), log zerolog.Logger) *recorder.Recorder {
	host, _ := os.Hostname()
	uid, gid := -1, -1
	if u, err := user.Lookup(cfg.User); err == nil && cfg.User != "" {
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
	}
	// hostcache's names are in its own domain in either mode: standing in,
	// the socket answers them there (ownDomain), and the archives agree.
	domain := cfg.Domain
	if cfg.StandIn != "" {
		domain = config.DefaultDomain
	}
	return recorder.New(recorder.Config{
		Dir: cfg.RecordDir, Host: host, Domain: domain, Schema: front.Schema(), Front: front, Texts: texts,
		History: runner.History, Context: contextLabels(host), UID: uid, GID: gid, Log: log, Writing: writing,
		MaxBytes: cfg.RecordMaxBytes, MinGap: cfg.RecordMinGap,
	})
}

// contextLabels are the labels pmcd gives a context that identify the
// host: an archive carries them as pmlogger's do, so that tools such as
// pmseries tell its host apart from others.
func contextLabels(host string) []cache.Label {
	var out []cache.Label
	if host != "" {
		out = append(out, cache.StringLabel("hostname", host))
	}
	if id, err := os.ReadFile("/etc/machine-id"); err == nil {
		if s := strings.TrimSpace(string(id)); s != "" {
			out = append(out, cache.StringLabel("machineid", s))
		}
	}
	return out
}
