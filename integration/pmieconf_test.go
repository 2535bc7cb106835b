package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostcacheRules are the pmieconf rules Install puts in place, and whether
// each is enabled by default (as PCP's own equivalents are).
var hostcacheRules = map[string]bool{
	"cpu_saturation": true, "disk_util": true, "filesys_full": true, "network_errors": false,
	"memory_pressure": true, "io_pressure": false, "agent_stalled": true, "agent_failing": true,
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
