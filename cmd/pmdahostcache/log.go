package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/config"
)

// openLog points zerolog at the log file (never at stdout, pmcd's pipe),
// written as PCP's agents write theirs unless the configuration asks for
// JSON lines.
func openLog(cfg config.Config) (zerolog.Logger, func(), error) {
	var out io.Writer = os.Stderr
	closeFn := func() {}
	if cfg.LogFile != "" && cfg.LogFile != "-" {
		f, err := os.OpenFile(cfg.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return zerolog.Nop(), nil, fmt.Errorf("log file: %w", err)
		}
		out, closeFn = f, func() { f.Close() }
	}
	level := zerolog.InfoLevel
	if cfg.Debug != "" {
		level = zerolog.DebugLevel
	}
	if cfg.LogFormat == config.LogJSON {
		return zerolog.New(out).Level(level).With().Timestamp().Str("agent", config.Name).Logger(), closeFn, nil
	}
	host, _ := os.Hostname()
	fmt.Fprintf(out, "Log for pmda%s on %s started %s\n\n",
		config.Name, host, time.Now().Format("Mon Jan _2 15:04:05 2006"))
	return zerolog.New(pcpWriter(out, os.Getpid())).Level(level).With().Timestamp().Logger(), closeFn, nil
}

// pcpLevels are the severity words of PCP's logs (__pmNotifyErr).
var pcpLevels = map[string]string{
	"trace": "Debug", "debug": "Debug", "info": "Info", "warn": "Warning",
	"error": "Error", "fatal": "Critical", "panic": "Critical",
}

// pcpWriter formats each event as PCP's agents write their logs:
//
//	[Tue Nov 24 06:47:20] pmdahostcache(2983) Warning: message key=value ...
func pcpWriter(out io.Writer, pid int) zerolog.ConsoleWriter {
	return zerolog.ConsoleWriter{
		Out: out, NoColor: true, TimeFormat: "Mon Jan _2 15:04:05",
		PartsOrder: []string{zerolog.TimestampFieldName, zerolog.LevelFieldName, zerolog.MessageFieldName},
		FormatTimestamp: func(i any) string {
			if s, ok := i.(string); ok {
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					return "[" + t.Format("Mon Jan _2 15:04:05") + "]"
				}
			}
			return fmt.Sprintf("[%v]", i)
		},
		FormatLevel: func(i any) string {
			word, ok := pcpLevels[fmt.Sprint(i)]
			if !ok {
				word = strings.ToUpper(fmt.Sprint(i))
			}
			return fmt.Sprintf("pmda%s(%d) %s:", config.Name, pid, word)
		},
		FormatFieldName:    func(i any) string { return fmt.Sprintf("%s=", i) },
		FormatErrFieldName: func(i any) string { return fmt.Sprintf("%s=", i) },
	}
}
