// Command pmdahostcache is a PCP daemon PMDA that samples /proc in the
// background and answers pmcd from an atomically published cache, so fetch
// latency does not depend on how fast /proc, sysfs or a filesystem answers.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/pmda"
)

func main() {
	// A write to pmcd's closed pipe must be an EPIPE error we can log and
	// exit on, not a SIGPIPE that kills us silently.
	signal.Ignore(syscall.SIGPIPE)
	cfg, err := config.Load(os.Args[1:])
	if errors.Is(err, config.ErrHelp) {
		// stdout may be pmcd's pipe: the usage and the configuration
		// file's keys go to stderr, as PCP's agents print theirs.
		fmt.Fprint(os.Stderr, config.Help())
		os.Exit(0)
	}
	if err != nil {
		failStart(cfg, err)
	}
	log, closeLog, err := openLog(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pmdahostcache:", err)
		os.Exit(1)
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	err = run(ctx, cfg, os.Args[1:], log)
	switch {
	case ctx.Err() != nil:
		// A signal: whatever the server was doing was cut short on purpose.
		log.Info().Msg("exiting on signal")
	case err == nil, errors.Is(err, pmda.ErrPeerClosed), errors.Is(err, context.Canceled):
		log.Info().Msg("exiting")
	default:
		log.Error().Err(err).Msg("exiting on error")
		closeLog()
		if !sameFile(os.Stderr, cfg.LogFile) {
			fmt.Fprintln(os.Stderr, "pmdahostcache:", err)
		}
		os.Exit(1)
	}
}

// failStart reports a configuration that stops the agent from starting,
// on stderr (stdout is pmcd's pipe) and in the log file the administrator
// reads, once where the two are the same file, and exits.
func failStart(cfg config.Config, err error) {
	fmt.Fprintln(os.Stderr, "pmdahostcache:", err)
	if cfg.LogFile != "" && cfg.LogFile != "-" && !sameFile(os.Stderr, cfg.LogFile) {
		if log, closeLog, lerr := openLog(cfg); lerr == nil {
			log.Error().Err(err).Msg("not starting: bad configuration")
			closeLog()
		}
	}
	os.Exit(1)
}

// sameFile reports whether f is the file at path.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
