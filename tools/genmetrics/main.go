// Command genmetrics writes the files generated from the metric schema:
// the PMNS (pmns), the help of every metric the engine computes
// (help/rates.help) and the metric index (docs/metrics.md); and from the
// configuration keys (config.Keys) the example hostcache.conf and the
// examples in README.md and the manual page. `make generate` runs it; its
// test fails when a checked-in file is stale.
//
// The schema is built as the agent builds it: every registered collector,
// with the engine's rates, derived figures and peaks. Collectors are
// pointed at the fixture tree testdata/proc-t0: what they declare does not
// depend on the host.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", "", "the repository root (default: the directory holding go.mod, found upwards)")
	check := flag.Bool("check", false, "only report files that are out of date, and exit 1 if any is")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "genmetrics:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	if root == "" {
		var err error
		if root, err = findRoot(); err != nil {
			return err
		}
	}
	files, err := generate(root)
	if err != nil {
		return err
	}
	var stale []string
	for _, f := range files {
		path := filepath.Join(root, f.path)
		old, _ := os.ReadFile(path)
		if string(old) == f.text {
			continue
		}
		if check {
			stale = append(stale, f.path)
			continue
		}
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", f.path)
	}
	if len(stale) > 0 {
		return fmt.Errorf("out of date, run make generate: %v", stale)
	}
	return nil
}

// findRoot walks up from the working directory to the one holding go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
