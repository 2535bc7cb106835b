package integration

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostcacheRules are the pmieconf rules Install puts in place, and whether
// each is enabled by default (as PCP's own equivalents are).
var hostcacheRules = map[string]bool{
	"cpu_saturation": true, "disk_util": true, "filesys_full": true, "network_errors": false,
	"memory_pressure": true, "io_pressure": false, "agent_stalled": true, "agent_failing": true,
	"record_on_saturation": false,
}

// testPmieconf: pmieconf lists our rules, a configuration it generates has
// the enabled ones, and pmie accepts it against the running pmcd.
func testPmieconf(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.pmie")
	// list only reads; a modify writes the configuration, with every
	// enabled rule in it, as an administrator's first change does.
	mustRun(t, time.Minute, "pmieconf", "-f", config, "modify", "hostcache.cpu_saturation", "threshold", "90")
	list := mustRun(t, time.Minute, "pmieconf", "-f", config, "list", "hostcache")
	for rule := range hostcacheRules {
		if !strings.Contains(list, "rule: hostcache."+rule) {
			t.Errorf("pmieconf does not list hostcache.%s", rule)
		}
	}
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	for rule, enabled := range hostcacheRules {
		if has := strings.Contains(string(data), "hostcache."+rule+" ="); has != enabled {
			t.Errorf("hostcache.%s in the generated configuration: %v, want %v", rule, has, enabled)
		}
	}
	if !strings.Contains(list, "threshold = 90") {
		t.Errorf("pmieconf list does not show the modified threshold:\n%s", list)
	}
	out, err := run(t, time.Minute, "pmie", "-C", "-c", config)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "hostcache") {
			t.Errorf("pmie -C: %s", line)
		}
	}
	if err != nil {
		t.Errorf("pmie -C: %v\n%s", err, out)
	}
}

// testPmieRecords: the flight recorder rule, enabled alone with a
// threshold every evaluation crosses, makes pmie ask for an archive, once
// within its holdoff.
func testPmieRecords(t *testing.T) {
	// pmie run by root becomes the pcp user: its configuration and log
	// must be where that user can reach them.
	dir, err := os.MkdirTemp("", "hostcache-pmie-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o777)
	config := filepath.Join(dir, "config.pmie")
	commands := strings.Join([]string{
		"disable all", "enable hostcache.record_on_saturation",
		"modify hostcache.record_on_saturation cpu_threshold 0",
		`modify hostcache.record_on_saturation delta "1 sec"`,
		"modify hostcache.record_on_saturation record_seconds 5", "quit",
	}, "\n") + "\n"
	runIn(t, dir, commands, "pmieconf", "-f", config)
	os.Chmod(config, 0o644)
	before, _ := strconv.Atoi(values(t, "hostcache.control.record.archives")[""])
	if out, err := run(t, time.Minute, "pmie", "-c", config, "-T", "4sec", "-l", filepath.Join(dir, "pmie.log")); err != nil {
		logged, _ := os.ReadFile(filepath.Join(dir, "pmie.log"))
		t.Fatalf("pmie: %v\n%s%s", err, out, logged)
	}
	waitFor(t, "the archive pmie asked for", 30*time.Second, func() bool {
		n, _ := strconv.Atoi(values(t, "hostcache.control.record.archives")[""])
		return n > before && values(t, "hostcache.control.record.busy")[""] == "0"
	})
	if n, _ := strconv.Atoi(values(t, "hostcache.control.record.archives")[""]); n != before+1 {
		t.Errorf("%d archives for one rule firing within its holdoff, want 1", n-before)
	}
}
