package config

import (
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Who may store and the flight recorder's bounds: defaults, names and
// numbers, and refusals that name the line.
func TestStoreAndRecordSettings(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	d := Default()
	if !slices.Equal(d.StoreUsers, []uint32{0}) || d.RecordMaxBytes != 256<<20 || d.RecordMinGap != time.Minute {
		t.Errorf("defaults: users %v, %d bytes, gap %v", d.StoreUsers, d.RecordMaxBytes, d.RecordMinGap)
	}
	if g, err := user.LookupGroup("pcp"); err == nil {
		gid, _ := strconv.Atoi(g.Gid)
		if !slices.Equal(d.StoreGroups, []uint32{uint32(gid)}) {
			t.Errorf("default groups %v, want pcp's %d", d.StoreGroups, gid)
		}
	}
	c := loadText(t, "store_users = root, 4242\nstore_groups = 0 7\nrecord_max_mb = 10\nrecord_min_gap = 0\n")
	if !slices.Equal(c.StoreUsers, []uint32{0, 4242}) || !slices.Equal(c.StoreGroups, []uint32{0, 7}) ||
		c.RecordMaxBytes != 10<<20 || c.RecordMinGap != 0 {
		t.Errorf("loaded users %v groups %v, %d bytes, gap %v", c.StoreUsers, c.StoreGroups, c.RecordMaxBytes, c.RecordMinGap)
	}
	if c := loadText(t, "store_groups =\n"); len(c.StoreGroups) != 0 {
		t.Errorf("an empty list gave %v", c.StoreGroups)
	}
	for _, bad := range []struct{ text, want string }{
		{"\nstore_users = root no-such-user-here\n", `:2: store_users: no user "no-such-user-here"`},
		{"store_groups = no-such-group-here\n", `:1: store_groups: no group "no-such-group-here"`},
		{"store_users = -1\n", `:1: store_users: no user "-1"`},
		{"record_max_mb = 0\n", ":1: record_max_mb: want"},
		{"record_max_mb = 2097152\n", ":1: record_max_mb: want"},
		{"record_min_gap = -1\n", ":1: record_min_gap: want"},
		{"record_min_gap = 86401\n", ":1: record_min_gap: want"},
	} {
		path := filepath.Join(t.TempDir(), "hostcache.conf")
		os.WriteFile(path, []byte(bad.text), 0o644)
		if _, err := Load([]string{"-c", path}); err == nil || !strings.Contains(err.Error(), path+bad.want) {
			t.Errorf("%q: error %v, want %s%s", bad.text, err, path, bad.want)
		}
	}
}

// Who may store and the recorder's bounds are set at start: a reload
// names them and keeps the running ones.
func TestStoreSettingsNeedRestart(t *testing.T) {
	running := loadText(t, "store_users = 0\n")
	next := loadText(t, "store_users = 0 1\nstore_groups = 5\nrecord_max_mb = 1\nrecord_min_gap = 5\n")
	want := []string{"record_max_mb", "record_min_gap", "store_users", "store_groups"}
	if got := NeedsRestart(running, next); !slices.Equal(got, want) {
		t.Errorf("NeedsRestart = %v, want %v", got, want)
	}
	if kept := Keep(running, next); !slices.Equal(kept.StoreUsers, []uint32{0}) || kept.RecordMinGap != running.RecordMinGap {
		t.Errorf("kept users %v, gap %v", kept.StoreUsers, kept.RecordMinGap)
	}
}
