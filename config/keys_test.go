package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keyCase is one key with values it takes, the last unlike its default,
// and values it refuses; a refusal's error must hold want (else the key)
// after the file and line.
type keyCase struct {
	key      string // as written
	accepted []string
	refused  []string
	want     string
}

func keyCases() []keyCase {
	return []keyCase{
		{"interval", []string{"100", "3600000", "1.5s"}, []string{"99", "3600001", "2h", "-1s"}, "interval"},
		{"interval", nil, []string{"soon", "1e3", ""}, "interval: want milliseconds from 100 to 3600000, or a duration such as 1.5s, got"},
		{"collector.cpu.interval", []string{"250", "10s"}, []string{"99", "-5"}, "interval"},
		{"collector.cpu.interval", nil, []string{"fast"}, "collector.cpu.interval: want milliseconds"},
		{"collector.cpu.enabled", []string{"yes", "no", "on", "off", "true", "0"}, []string{"maybe", ""}, "collector.cpu.enabled: want yes or no, got"},
		{"instances.network.all.include", []string{"^eth", ""}, []string{"(", "[z-a]"}, "instances.network.all.include: error parsing regexp"},
		{"instances.disk.exclude", []string{"^(loop|ram)"}, []string{"*x"}, "instances.disk.exclude: error parsing regexp"},
		{"stale_intervals", []string{"0", "1000000"}, []string{"-1", "1000001", "99999999999999999999"}, "stale_intervals: want a whole number from 0 (never) to 1000000, got"},
		{"history", []string{"10", "86400"}, []string{"9", "86401", "15m"}, "history: want whole seconds from 10 to 86400, got"},
		{"history_max_mb", []string{"1", "1048576"}, []string{"0", "1048577"}, "history_max_mb: want whole megabytes from 1 to 1048576, got"},
		{"memory_limit_mb", []string{"0", "96", "1048576"}, []string{"-1", "1048577", "x"}, "memory_limit_mb: want whole megabytes from 0 to 1048576, got"},
		{"idle_after", []string{"0", "86400"}, []string{"-1", "86401"}, "idle_after: want whole seconds from 0 (never) to 86400, got"},
		{"idle_factor", []string{"2", "1000"}, []string{"1", "1001"}, "idle_factor: want a whole number from 2 to 1000, got"},
		{"reader_phases", []string{"0", "16"}, []string{"-1", "17", "four"}, "reader_phases: want a whole number from 0 (fixed grid) to 16, got"},
		{"fresh_within", []string{"0", "1000"}, []string{"-1", "1001", "20ms"}, "fresh_within: want whole milliseconds from 0 (off) to 1000, got"},
		{"fetch_wait", []string{"1", "2000"}, []string{"0", "2001"}, "fetch_wait: want whole milliseconds from 1 to 2000, got"},
		{"processors", []string{"1", "1024"}, []string{"0", "1025", "two"}, "processors: want a whole number from 1 to 1024, got"},
		{"log_format", []string{"pcp", "json"}, []string{"JSON", "xml"}, "log_format: want pcp or json, got"},
		{"proc_root", []string{"/proc", "/tmp/p"}, nil, ""},
		{"sys_root", []string{"/sys", "/tmp/s"}, nil, ""},
		{"keep_files", []string{"no", "yes"}, []string{"maybe"}, "keep_files: want yes or no, got"},
		{"id_dir", []string{"/var/lib/pcp/config/pmda", "/tmp/ids"}, nil, ""},
		{"record_dir", []string{"/tmp/rec"}, nil, ""},
		{"record_max_mb", []string{"1", "1048576"}, []string{"0", "1048577"}, "record_max_mb: want whole megabytes from 1 to 1048576, got"},
		{"record_min_gap", []string{"0", "86400"}, []string{"-1", "86401"}, "record_min_gap: want whole seconds from 0 (none) to 86400, got"},
		{"mmv_dir", []string{"/var/lib/pcp/tmp/mmv", "/tmp/mmv"}, nil, ""},
		{"mmv_files", []string{"256", "1"}, []string{"0", "257"}, "mmv_files: want whole files from 1 to 256, got"},
		{"mmv_metrics", []string{"1", "65536"}, []string{"0", "65537"}, "mmv_metrics: want whole metrics from 1 to 65536, got"},
		{"mmv_values", []string{"1", "1048576"}, []string{"0", "1048577"}, "mmv_values: want whole values from 1 to 1048576, got"},
		{"store_users", []string{"root", "0, 4242", ""}, []string{"no-such-user-here"}, `store_users: no user "no-such-user-here"`},
		{"store_groups", []string{"", "0 7"}, []string{"no-such-group-here"}, `store_groups: no group "no-such-group-here"`},
	}
}

// Every key takes its accepted values and refuses the others with the
// file, the line and the words of its error; every key of the table has
// a case.
func TestEachKeyAcceptsAndRefuses(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	covered := map[string]bool{}
	for _, kc := range keyCases() {
		covered[keyOf(t, kc.key).Name] = true
		for _, val := range kc.accepted {
			if _, err := loadLines(t, "# first\n"+kc.key+" = "+val+"\n"); err != nil {
				t.Errorf("%s = %q refused: %v", kc.key, val, err)
			}
		}
		for _, val := range kc.refused {
			path, err := loadLines(t, "# first\n\n"+kc.key+" = "+val+"\n")
			want := kc.want
			if want == "" {
				want = kc.key
			}
			if err == nil || !strings.Contains(err.Error(), path+":3: "+want) {
				t.Errorf("%s = %q: error %v, want %s:3: %s", kc.key, val, err, path, want)
			}
		}
	}
	for _, k := range Keys() {
		if !covered[k.Name] {
			t.Errorf("key %s has no case", k.Name)
		}
	}
}

// keyOf is the key of the table key is written as.
func keyOf(t *testing.T, key string) Key {
	t.Helper()
	for _, k := range Keys() {
		if _, ok := k.match(key); ok {
			return k
		}
	}
	t.Fatalf("no key for %s", key)
	return Key{}
}

// loadLines loads a file of text and returns its path and Load's error.
func loadLines(t *testing.T, text string) (string, error) {
	path := filepath.Join(t.TempDir(), "hostcache.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load([]string{"-c", path})
	return path, err
}

// Keys written near a pattern's shape are unknown, not guessed at.
func TestKeysNearAPatternAreUnknown(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	for _, key := range []string{"collector..interval", "collector.a.b.interval", "collector.cpu.speed",
		"instances..include", "instances.include", "instances.disk.only", "Interval", "interval.x"} {
		if path, err := loadLines(t, key+" = 1000\n"); err == nil || !strings.Contains(err.Error(), path+`:1: unknown key "`+key+`"`) {
			t.Errorf("%s: %v", key, err)
		}
	}
}

// Every key's default reads as the file would read it, and is what the
// docs show of it.
func TestKeyDefaults(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	for _, k := range Keys() {
		if k.Pattern() != (k.Default == "") || k.Pattern() != (k.Example != "") {
			t.Errorf("%s: a key with a NAME or INDOM has an example, the others a default", k.Name)
		}
		if k.Pattern() {
			if _, ok := k.match(strings.Fields(k.Example)[0]); !ok {
				t.Errorf("%s: the example %q is not of the key", k.Name, k.Example)
			}
			continue
		}
		var c Config
		if err := k.field.set(&c, k.Name, "", k.Default); err != nil {
			t.Errorf("%s: the default %q: %v", k.Name, k.Default, err)
		}
	}
	d := Default()
	if d.History.Seconds() != 900 || d.HistoryBudget != 128<<20 || d.LogFormat != LogPCP || d.ProcRoot != "/proc" || d.KeepFiles {
		t.Errorf("defaults: %+v", d)
	}
}

// A reload applies the keys marked Applied and names the others, each
// when it alone changes.
func TestReloadFollowsTheTable(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	running := Default()
	for _, kc := range keyCases() {
		k := keyOf(t, kc.key)
		if len(kc.accepted) == 0 {
			continue
		}
		next := loadText(t, kc.key+" = "+kc.accepted[len(kc.accepted)-1]+"\n")
		restart := NeedsRestart(running, next)
		named := len(restart) == 1 && restart[0] == kc.key
		if named != (k.OnReload == WaitsForRestart) {
			t.Errorf("%s (%v): NeedsRestart = %v", kc.key, k.OnReload, restart)
		}
		kept := Keep(running, next)
		if k.OnReload == Applied && (len(k.field.differ(&kept, &next)) != 0 || len(NeedsRestart(running, kept)) != 0) {
			t.Errorf("%s: a reload did not apply it", kc.key)
		}
		if k.OnReload == WaitsForRestart && len(k.field.differ(&kept, &running)) != 0 {
			t.Errorf("%s: a reload applied it", kc.key)
		}
	}
}

// --help lists every key after the options, with its help and its values.
func TestHelpListsEveryKey(t *testing.T) {
	help := Help()
	if !strings.HasPrefix(help, Usage) {
		t.Error("--help does not start with the options")
	}
	flat := strings.Join(strings.Fields(help), " ")
	for _, k := range Keys() {
		if !strings.Contains(flat, k.Line()) || !strings.Contains(flat, k.Describe()) {
			t.Errorf("--help lacks %s", k.Name)
		}
	}
	for _, line := range strings.Split(help, "\n") {
		if len(line) > helpWidth && !strings.Contains(Usage, line) {
			t.Errorf("a line of %d columns: %s", len(line), line)
		}
	}
}
