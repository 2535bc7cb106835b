package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAppendCgroups(t *testing.T) {
	tests := []struct {
		name, text, want string
		ok               bool
	}{
		{"v1 and v2", "9:name=systemd:/\n8:pids:/user.slice\n4:cpu,cpuacct:/\n0::/\n",
			"name=systemd:/;pids:/user.slice;cpu,cpuacct:/;:/", true},
		{"v2 only", "0::/system.slice/sshd.service\n", ":/system.slice/sshd.service", true},
		{"a path holding a colon", "3:cpuset:/a:b\n", "cpuset:/a:b", true},
		{"empty", "", "", true},
		{"no trailing newline", "1:cpu:/x", "cpu:/x", true},
		{"a line of two parts", "1:cpu\n", "", false},
	}
	for _, tc := range tests {
		got, ok := AppendCgroups(nil, []byte(tc.text))
		if ok != tc.ok || ok && string(got) != tc.want {
			t.Errorf("%s: %q %v, want %q %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestContainerID(t *testing.T) {
	id := strings.Repeat("0123456789abcdef", 4)
	tests := []struct{ cgroup, want string }{
		{"9:cpuset:/docker/" + id + "\n", id},
		{"3:cpuset:/system.slice/docker-" + id + ".scope\n", id},
		{"3:cpuset:/machine.slice/libpod-" + id + ".scope\n", id},
		{"3:cpuset:/system.slice/docker-containerd.service\n", ""},
		{"3:cpuset:/system.slice/docker-" + id + "\n", ""}, // no ".scope"
		{"3:cpuset:/\n", ""},
		{"3:cpu,cpuset:/docker/" + id + "\n", id},
		{"4:memory:/docker/" + id + "\n", ""}, // no cpuset line
		{"0::/docker/" + id + "\n", ""},
	}
	for _, tc := range tests {
		if got := ContainerID(CpusetPath([]byte(tc.cgroup))); string(got) != tc.want {
			t.Errorf("%q: %q, want %q", tc.cgroup, got, tc.want)
		}
	}
}

func TestParsePidAutogroup(t *testing.T) {
	tests := []struct {
		text string
		id   uint64
		nice int64
		ok   bool
	}{
		{"/autogroup-204 nice 0\n", 204, 0, true},
		{"/autogroup-7 nice -5\n", 7, -5, true},
		{"", 0, 0, false},
		{"/autogroup- nice 0\n", 0, 0, false},
		{"/autogroup-3\n", 0, 0, false},
		{"/autogroup-3 nice x\n", 0, 0, false},
		{"autogroup-3 nice 1\n", 0, 0, false},
	}
	for _, tc := range tests {
		id, nice, err := ParsePidAutogroup([]byte(tc.text))
		if (err == nil) != tc.ok || tc.ok && (id != tc.id || nice != tc.nice) {
			t.Errorf("%q: %d %d %v", tc.text, id, nice, err)
		}
	}
}

func TestParseOneDecimal(t *testing.T) {
	for text, want := range map[string]uint64{"666\n": 666, "0\n": 0, "1": 1} {
		if got, err := ParseOneDecimal([]byte(text)); err != nil || got != want {
			t.Errorf("%q: %d %v", text, got, err)
		}
	}
	for _, text := range []string{"", "\n", "-1\n", "12 13\n"} {
		if got, err := ParseOneDecimal([]byte(text)); err == nil {
			t.Errorf("%q: %d, no error", text, got)
		}
	}
}

func TestReadFilePrefix(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		text  string
		limit int
		want  string
		whole bool
	}{
		{"abcdef", 10, "abcdef", true},
		{"abcdef", 6, "abcdef", true},
		{"abcdefg", 6, "abcdef", false},
		{"", 6, "", true},
	}
	for i, tc := range tests {
		path := filepath.Join(dir, "f")
		os.WriteFile(path, []byte(tc.text), 0o644)
		got, whole, err := ReadFilePrefix(path, nil, tc.limit)
		if err != nil || string(got) != tc.want || whole != tc.whole {
			t.Errorf("%d: %q %v %v", i, got, whole, err)
		}
	}
	if _, _, err := ReadFilePrefix(filepath.Join(dir, "none"), nil, 6); err == nil {
		t.Error("a missing file is no error")
	}
}

func TestCountDirEntries(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 { // more than one getdents buffer of names
		os.WriteFile(filepath.Join(dir, strings.Repeat("n", 40)+string(rune('a'+i%26))+
			strings.Repeat("x", i/26)), nil, 0o644)
	}
	n, _, err := CountDirEntries(dir, nil)
	if err != nil || n != 300 {
		t.Errorf("%d entries %v, want 300", n, err)
	}
	if n, _, err := CountDirEntries(t.TempDir(), nil); err != nil || n != 0 {
		t.Errorf("empty directory: %d %v", n, err)
	}
	if _, _, err := CountDirEntries(filepath.Join(dir, "none"), nil); err == nil {
		t.Error("a missing directory is no error")
	}
	if n, _, err := CountDirEntries("/proc/self/fd", nil); err != nil || n < 3 {
		t.Errorf("own fds: %d %v", n, err)
	}
}
