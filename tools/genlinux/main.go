// Command genlinux writes standin/linuxtable's table: every metric pmdalinux
// (PMDA domain 60) serves, with its PMID, instance domain, type, semantics
// and units, read from the running pmcd with pminfo. The stand-in mode
// answers under these identities, so they come from the agent itself and
// not from a transcription.
//
//	go run ./tools/genlinux -o standin/linuxtable
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
	"path/filepath"
)

func main() {
	out := flag.String("o", "", "the package directory to write the table into (standin/linuxtable)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: genlinux -o standin/linuxtable")
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
	files, err := render(version, metrics)
	if err != nil {
		return err
	}
	if err := writeTable(out, files); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genlinux: %d pmdalinux metrics from pmcd %s written to %s\n",
		len(metrics), version, out)
	return nil
}

// writeTable replaces the table's files in dir: the parts of an earlier
// table that has more of them go.
func writeTable(dir string, files []genFile) error {
	old, err := filepath.Glob(filepath.Join(dir, "linux_table_part*.go"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
