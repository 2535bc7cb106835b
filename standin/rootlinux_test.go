package standin

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// pcpVarDir is $PCP_VAR_DIR: from the environment, or from pcp.conf.
func pcpVarDir() (string, error) {
	if dir := os.Getenv("PCP_VAR_DIR"); dir != "" {
		return dir, nil
	}
	conf := os.Getenv("PCP_CONF")
	if conf == "" {
		conf = "/etc/pcp.conf"
	}
	data, err := os.ReadFile(conf)
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`(?m)^PCP_VAR_DIR=(\S+)$`).FindSubmatch(data)
	if m == nil {
		return "", fmt.Errorf("%s sets no PCP_VAR_DIR", conf)
	}
	return string(m[1]), nil
}

func TestTableAgreesWithRootLinux(t *testing.T) {
	dir, err := pcpVarDir()
	if err != nil {
		testenv.SkipOutsideCI(t, "PCP is not installed: "+err.Error())
	}
	path := filepath.Join(dir, "pmns", "root_linux")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		testenv.SkipOutsideCI(t, path+" is absent: pmdalinux's namespace is not installed")
	}
	if err != nil {
		t.Fatal(err)
	}
	pmns, err := parsePMNS(string(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	table := linuxByName()
	for name, pmid := range pmns {
		m, ok := table[name]
		switch {
		case !ok:
			t.Errorf("%s (%s): in %s, not in the table", name, pmid, path)
		case pmid != fmt.Sprintf("60.%d.%d", m.Cluster, m.Item):
			t.Errorf("%s: %s in %s, 60.%d.%d in the table", name, pmid, path, m.Cluster, m.Item)
		}
	}
	for name := range table {
		if _, ok := pmns[name]; !ok {
			t.Errorf("%s: in the table, not in %s", name, path)
		}
	}
	t.Logf("%s: %d names, the table %d", path, len(pmns), len(table))
}

// parsePMNS reads an ASCII PMNS file (pmns(5)): blocks "path {" listing
// non-leaf names and leaves "name DOMAIN:CLUSTER:ITEM". It returns every
// leaf's full name with its PMID as "D.C.I".
func parsePMNS(src string) (map[string]string, error) {
	src = regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(src, "")
	leaves := map[string]string{}
	path := ""
	inBlock := false
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case len(f) == 2 && f[1] == "{" && !inBlock:
			path, inBlock = strings.TrimPrefix(f[0]+".", "root."), true
		case len(f) == 1 && f[0] == "}" && inBlock:
			inBlock = false
		case len(f) == 1 && inBlock: // a non-leaf, listed again as a block
		case len(f) == 2 && inBlock:
			pmid, err := pmnsPMID(f[1])
			if err != nil {
				return nil, fmt.Errorf("%s%s: %w", path, f[0], err)
			}
			leaves[path+f[0]] = pmid
		default:
			return nil, fmt.Errorf("unexpected line %q", sc.Text())
		}
	}
	return leaves, sc.Err()
}

// pmnsPMID turns "60:0:32" into "60.0.32", and "60:14:05" into "60.14.5".
func pmnsPMID(s string) (string, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return "", fmt.Errorf("PMID %q is not D:C:I", s)
	}
	var n [3]uint64
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return "", fmt.Errorf("PMID %q: %w", s, err)
		}
		n[i] = v
	}
	return fmt.Sprintf("%d.%d.%d", n[0], n[1], n[2]), nil
}

// linuxByName is the table by metric name.
func linuxByName() map[string]Metric {
	out := map[string]Metric{}
	for _, m := range LinuxTable() {
		out[m.Name] = m
	}
	return out
}
