package kernel

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestParseVMStatCases(t *testing.T) {
	type want map[string]uint64 // the wanted fields present; the rest absent
	for _, tc := range []struct {
		name, text string
		want       want // nil: refused
	}{
		{"kernel text", "nr_free_pages 790000\npgfault 12110000\npswpin 1000\n",
			want{"nr_free_pages": 790000, "pgfault": 12110000, "pswpin": 1000}},
		{"missing field", "pgfault 5\n", want{"pgfault": 5}},
		{"unwanted fields", "pgfault 5\nnr_foo 7\n", want{"pgfault": 5}},
		{"malformed lines skipped", "pgfault\npswpin x\npswpout -1\nnr_dirty 1 2\n\noom_kill 3\n", want{"oom_kill": 3}},
		{"repeated: the last", "pgfault 5\npgfault 6\n", want{"pgfault": 6}},
		{"CRLF, tabs, no final newline", "pgfault\t5\r\noom_kill 6", want{"pgfault": 5, "oom_kill": 6}},
		{"leading zeros", "pgfault 0000000000000000000000007\n", want{"pgfault": 7}},
		{"decimal only", "pgfault 0x10\noom_kill 1\n", want{"oom_kill": 1}},
		{"good line of an unwanted field is enough", "nr_foo 1\n", want{}},
		{"no good line", "pgfault\nbad -1\n", nil},
		{"empty", "", nil},
		{"a long line is a line", "pgfault 5\n" + strings.Repeat("x", 1<<17) + "\npswpin 2\n", want{"pgfault": 5, "pswpin": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vm := NewVMStat("nr_free_pages", "pgfault", "pswpin", "pswpout", "oom_kill", "nr_dirty", "pgfault")
			vm.Has[0], vm.Val[0] = true, 99 // must not survive
			err := ParseVMStat([]byte(tc.text), vm)
			if tc.want == nil {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for name := range vm.Slot {
				v, ok := vm.Get(name)
				w, want := tc.want[name]
				if ok != want || ok && v != w {
					t.Errorf("%s = %d, %v; want %d, %v", name, v, ok, w, want)
				}
			}
		})
	}
}

// parseVMStatMap is the map-based parser ParseVMStat replaced, kept to
// check that both read every file alike.
func parseVMStatMap(data []byte) (map[string]uint64, error) {
	vm := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		if v, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			vm[f[0]] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(vm) == 0 {
		return nil, errors.New("no \"name value\" lines")
	}
	return vm, nil
}

func checkVMStatLikeMap(t *testing.T, text []byte) {
	t.Helper()
	want, wantErr := parseVMStatMap(text)
	names := []string{"pgfault", "pswpin", "nr_dirty", "x", "é"}
	for name := range want {
		names = append(names, name)
	}
	vm := NewVMStat(names...)
	err := ParseVMStat(text, vm)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%.200q: error %v, old parser %v", text, err, wantErr)
	}
	if err != nil {
		return
	}
	for _, name := range names {
		v, ok := vm.Get(name)
		w, wok := want[name]
		if ok != wok || v != w {
			t.Errorf("%.200q: %s = %d, %v; old parser %d, %v", text, name, v, ok, w, wok)
		}
	}
}

func TestParseVMStatMatchesOldParser(t *testing.T) {
	texts := append(fileTexts(t, "vmstat"), "", "x 1\u00a02\n", "é 1\n", "a\u20031 2\n")
	for _, text := range texts {
		checkVMStatLikeMap(t, []byte(text))
	}
}

func FuzzParseVMStatMatchesOldParser(f *testing.F) {
	f.Add([]byte("pgfault 10\ntruncated\npgmajfault\nnr_dirty -5\nodd 1 2\noom_kill 3\n"))
	f.Add([]byte("pswpin\t007\r\n\npswpout 18446744073709551616\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		checkVMStatLikeMap(t, text)
	})
}

func BenchmarkParseVMStat(b *testing.B) {
	data, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		b.Skip(err)
	}
	vm := NewVMStat("nr_free_pages", "pgfault", "pswpin", "pswpout", "pgpgin", "pgpgout")
	b.ReportAllocs()
	for b.Loop() {
		if err := ParseVMStat(data, vm); err != nil {
			b.Fatal(err)
		}
	}
}
