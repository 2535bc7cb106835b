package main

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/config"
)

// dropPrivileges switches to cfg.User once the connection is up, as PCP's
// daemon PMDAs do: pmdaroot starts us as root, and reading /proc needs no
// privilege, but for the root-only files the collectors open as they are
// made, before the drop (/proc/slabinfo, /proc/tty/driver/serial: procfs
// checks permission at open). The serial lines' counters stay hidden even
// so: the kernel prints them only to a reader with CAP_SYS_ADMIN. Running
// as an ordinary user already, there is nothing to drop.
func dropPrivileges(cfg config.Config, log zerolog.Logger) error {
	if os.Geteuid() != 0 || cfg.User == "" || cfg.User == "root" {
		return nil
	}
	u, err := user.Lookup(cfg.User)
	if err != nil {
		return fmt.Errorf("-U %s: %w", cfg.User, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := syscall.Setgroups([]int{gid}); err != nil {
		return fmt.Errorf("setgroups: %w", err)
	}
	if err := syscall.Setgid(gid); err != nil {
		return fmt.Errorf("setgid: %w", err)
	}
	if err := syscall.Setuid(uid); err != nil {
		return fmt.Errorf("setuid: %w", err)
	}
	log.Info().Str("user", cfg.User).Int("uid", uid).Msg("dropped privileges")
	return nil
}
