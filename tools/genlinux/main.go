// Command genlinux writes an agent's metric table: every metric pmdalinux
// (PMDA domain 60) or pmdaproc (domain 3) serves, with its PMID, instance
// domain, type, semantics and units, read from the running pmcd with
// pminfo. The stand-in mode answers under these identities, and the
// twins are checked against them, so they come from the agent itself and
// not from a transcription.
//
//	go run ./tools/genlinux -o standin/linuxtable
//	go run ./tools/genlinux -agent proc -o standin/proctable
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
	name := flag.String("agent", "linux", "whose table: linux (pmdalinux) or proc (pmdaproc)")
	flag.Parse()
	a, ok := agents[*name]
	if *out == "" || flag.NArg() != 0 || !ok {
		fmt.Fprintln(os.Stderr, "usage: genlinux [-agent linux|proc] -o standin/linuxtable")
		os.Exit(2)
	}
	if err := run(a, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genlinux:", err)
		os.Exit(1)
	}
}

// agent is an agent whose table genlinux writes.
type agent struct {
	name   string // as PCP calls it: pmdalinux
	domain uint32
	pkg    string // the table's Go package
	file   string // its files' prefix: linux_table
}

var agents = map[string]agent{
	"linux": {name: "pmdalinux", domain: 60, pkg: "linuxtable", file: "linux_table"},
	"proc":  {name: "pmdaproc", domain: 3, pkg: "proctable", file: "proc_table"},
}

// run reads the agent's descriptors from pmcd and writes the table.
func run(a agent, out string) error {
	version, err := pcpVersion()
	if err != nil {
		return err
	}
	names, err := agentNames(a)
	if err != nil {
		return err
	}
	metrics, err := describe(a, names)
	if err != nil {
		return err
	}
	files, err := render(a, version, metrics)
	if err != nil {
		return err
	}
	if err := writeTable(a, out, files); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genlinux: %d %s metrics from pmcd %s written to %s\n",
		len(metrics), a.name, version, out)
	return nil
}

// writeTable replaces the table's files in dir: the parts of an earlier
// table that has more of them go.
func writeTable(a agent, dir string, files []genFile) error {
	old, err := filepath.Glob(filepath.Join(dir, a.file+"_part*.go"))
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
