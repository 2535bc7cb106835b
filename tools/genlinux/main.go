// Command genlinux writes internal/linuxtable/linux_table.go: every metric pmdalinux
// (PMDA domain 60) serves, with its PMID, instance domain, type, semantics
// and units, read from the running pmcd with pminfo. The stand-in mode
// answers under these identities, so they come from the agent itself and
// not from a transcription.
//
//	go run ./tools/genlinux -o internal/linuxtable/linux_table.go
//
// pminfo prints units through pmUnitsStr, which omits the scale of a
// dimension that is zero; the table therefore holds those scales as 0.
// pmdalinux declares none (its DESC PDUs, read with pminfo -Dpdu, carry no
// such scale), so the table's units are the words pmcd sends.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "", "the Go file to write (internal/linuxtable/linux_table.go)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: genlinux -o internal/linuxtable/linux_table.go")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "genlinux:", err)
		os.Exit(1)
	}
}

// run reads pmdalinux's descriptors from pmcd and writes the table.
func run(out string) error {
	version, err := pcpVersion()
	if err != nil {
		return err
	}
	names, err := linuxNames()
	if err != nil {
		return err
	}
	metrics, err := describe(names)
	if err != nil {
		return err
	}
	src, err := render(version, metrics)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genlinux: %d pmdalinux metrics from pmcd %s written to %s\n", len(metrics), version, out)
	return nil
}
