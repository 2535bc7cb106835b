package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Usage describes the command line.
const Usage = `Usage: pmdahostcache [options]
  -d domain     PMDA domain number (from domain.h; Install passes it)
  -S linux      stand in for pmdalinux: answer as domain 60 with its names,
                PMIDs and instance domains (Install -S sets it up)
  -S proc       stand in for pmdaproc: answer as domain 3 with its names,
                PMIDs and instance domains (Install -S sets it up)
  -B path       standing in, answer hostcache's own domain (396) too, to
                pmcd's connection on this unix socket (Install -S puts it
                in pmcd.conf as hostcache's socket entry)
  -B name=path  standing in, answer another agent's domain too (linux or
                proc), on this unix socket (Install -S linux,proc)
  -l logfile    log file (default $PCP_LOG_DIR/pmcd/hostcache.log)
  -D flags      debug flags: "pdu" traces every PDU, "profile" writes a CPU
                profile of the first minute to <logfile>.cpu.pprof, then a
                heap profile to <logfile>.heap.pprof; any flag enables
                debug logging
  -U user       run as user after start-up (default $PCP_USER or pcp)
  -p            talk to pmcd over stdin/stdout (default)
  -i port       listen on 127.0.0.1:port for pmcd
  -6 port       listen on [::1]:port for pmcd
  -u path       listen on a unix socket for pmcd
  -c file       configuration file (default $PCP_PMDAS_DIR/hostcache/hostcache.conf)
  -r dir        proc root (default /proc)
  -s dir        sys root (default /sys)
  -t msec       default sampling interval in milliseconds (default 1000)
  -?, --help    print this usage and exit
`

// ErrHelp is returned when the usage was asked for (-? or --help): the
// caller prints Usage and exits with status 0.
var ErrHelp = errors.New("usage asked for")

// parseArgs reads getopt-style options as pmdaGetOpt does: "-d 396",
// "-d396" and "-Dpdu" alike, with option letters that take no argument
// allowed to be grouped ("-p").
func (c *Config) parseArgs(args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--help" || a == "-?" {
			return ErrHelp
		}
		if a == "--" {
			if i+1 < len(args) {
				return fmt.Errorf("unexpected argument %q\n%s", args[i+1], Usage)
			}
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			return fmt.Errorf("unexpected argument %q\n%s", a, Usage)
		}
		opt, val := a[1], a[2:]
		if opt == 'p' {
			c.IPC = IPCPipe
			continue
		}
		if val == "" {
			if i+1 >= len(args) {
				return fmt.Errorf("option -%c needs a value\n%s", opt, Usage)
			}
			i++
			val = args[i]
		}
		if err := c.setOption(opt, val); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) setOption(opt byte, val string) error {
	var err error
	switch opt {
	case 'd':
		var n uint64
		n, err = strconv.ParseUint(val, 10, 32)
		c.Domain = uint32(n)
	case 'S':
		c.StandIn = val
	case 'B':
		if name, path, ok := strings.Cut(val, "="); ok && !strings.Contains(name, "/") {
			c.AgentSockets = append(c.AgentSockets, AgentSocket{Agent: name, Path: path})
		} else {
			c.BesideSocket = val
		}
	case 'l':
		c.LogFile = val
	case 'D':
		c.Debug = val
	case 'U':
		c.User = val
	case 'i', '6':
		c.IPC = map[byte]string{'i': IPCInet, '6': IPCIPv6}[opt]
		c.Port, err = strconv.Atoi(val)
	case 'u':
		c.IPC, c.SocketPath = IPCUnix, val
	case 'c':
		c.ConfigFile = val
	case 'r':
		c.ProcRoot = val
	case 's':
		c.SysRoot = val
	case 't':
		c.Interval, err = parseMillis(val)
	default:
		return fmt.Errorf("unknown option -%c\n%s", opt, Usage)
	}
	if err != nil {
		return fmt.Errorf("option -%c %q: %v", opt, val, err)
	}
	return nil
}

// Interval bounds, in milliseconds: those pmstore accepts too.
const (
	MinIntervalMS = 100
	MaxIntervalMS = 3600 * 1000
)

// parseMillis reads an interval: whole milliseconds, or a Go duration
// ("1.5s"), within MinIntervalMS..MaxIntervalMS. Values too large for the
// arithmetic are refused, never wrapped.
func parseMillis(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < MinIntervalMS || n > MaxIntervalMS {
			return 0, fmt.Errorf("interval %d ms outside %d..%d", n, MinIntervalMS, MaxIntervalMS)
		}
		return time.Duration(n) * time.Millisecond, nil
	} else if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("interval %q outside %d..%d ms", s, MinIntervalMS, MaxIntervalMS)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, notDuration(s)
	}
	if d < MinIntervalMS*time.Millisecond || d > MaxIntervalMS*time.Millisecond {
		return 0, fmt.Errorf("interval %v outside %d..%d ms", d, MinIntervalMS, MaxIntervalMS)
	}
	return d, nil
}

// notDuration is a value that is neither whole milliseconds nor a duration.
type notDuration string

func (s notDuration) Error() string {
	return fmt.Sprintf("want milliseconds or a duration such as 1.5s, got %q", string(s))
}

// HasDebug reports whether a -D flag was given.
func (c *Config) HasDebug(flag string) bool {
	for _, f := range strings.Split(c.Debug, ",") {
		if strings.TrimSpace(f) == flag {
			return true
		}
	}
	return false
}
