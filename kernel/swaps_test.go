package kernel

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/prometheus/procfs"
)

const swapsHeader = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

func TestParseSwaps(t *testing.T) {
	type area struct {
		name, typ            string
		size, used, priority int64
	}
	for _, tc := range []struct {
		name, text string
		want       []area // nil: refused
	}{
		{"kernel text", swapsHeader +
			"/dev/vdb2                               partition\t4194300\t\t102400\t\t-2\n" +
			"/swapfile                               file\t\t1048572\t\t0\t\t-3\n",
			[]area{{"/dev/vdb2", "partition", 4194300, 102400, -2}, {"/swapfile", "file", 1048572, 0, -3}}},
		{"no swap", swapsHeader, []area{}},
		{"empty", "", []area{}},
		{"header not checked", "x\n/a file 1 2 3\n", []area{{"/a", "file", 1, 2, 3}}},
		{"extra fields", swapsHeader + "/a file 1 2 3 4\n", []area{{"/a", "file", 1, 2, 3}}},
		{"signs, as Atoi takes them", swapsHeader + "/a file +1 -2 +3\n", []area{{"/a", "file", 1, -2, 3}}},
		{"escaped name as printed", swapsHeader + `/var/swap\040area file 1 0 -1` + "\n",
			[]area{{`/var/swap\040area`, "file", 1, 0, -1}}},
		{"too few fields", swapsHeader + "/a file 1 2\n", nil},
		{"empty line", swapsHeader + "\n", nil},
		{"bad size", swapsHeader + "/a file 1k 2 3\n", nil},
		{"bad used", swapsHeader + "/a file 1 x 3\n", nil},
		{"bad priority", swapsHeader + "/a file 1 2 3.5\n", nil},
		{"out of range", swapsHeader + "/a file 9223372036854775808 2 3\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			areas, err := ParseSwaps([]byte(tc.text), make([]SwapArea, 3))
			if tc.want == nil {
				if err == nil {
					t.Fatalf("accepted: %v", areas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []area{}
			for _, a := range areas {
				got = append(got, area{string(a.Name), string(a.Type), a.Size, a.Used, a.Priority})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func checkSwapsLikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "swaps"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	pfs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, wantErr := pfs.Swaps()
	got, err := ParseSwaps(text, nil)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%.200q: error %v, procfs %v", text, err, wantErr)
	}
	if err != nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%.200q: %d areas, procfs %d", text, len(got), len(want))
	}
	for i, a := range got {
		w := want[i]
		if string(a.Name) != w.Filename || string(a.Type) != w.Type ||
			a.Size != int64(w.Size) || a.Used != int64(w.Used) || a.Priority != int64(w.Priority) {
			t.Errorf("%.200q: area %d %+v, procfs %+v", text, i, a, *w)
		}
	}
}

func TestParseSwapsMatchesProcfs(t *testing.T) {
	texts := append(fileTexts(t, "swaps"), "", "\n", swapsHeader+"/a\u00a0b file 1 2 3\n", swapsHeader+"/é file 1 2 3\n")
	dir := t.TempDir()
	for _, text := range texts {
		checkSwapsLikeProcfs(t, dir, []byte(text))
	}
}

func FuzzParseSwapsMatchesProcfs(f *testing.F) {
	f.Add([]byte(swapsHeader + "/dev/vdb2 partition 4194300 102400 -2\n/swapfile file 1048572 0 -3\n"))
	f.Add([]byte(swapsHeader + "/a file +1 -0 007\nzram0 partition 1 2 3 4\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		checkSwapsLikeProcfs(t, dir, text)
	})
}
