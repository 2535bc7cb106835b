package kernel

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/procfs"
)

const psiText = "some avg10=1.41 avg60=1.74 avg300=2.14 total=68000000\n" +
	"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"

func TestParsePSI(t *testing.T) {
	type want struct {
		some, full *psiLine
	}
	line := func(a, b, c float64, total uint64) *psiLine { return &psiLine{a, b, c, total} }
	for _, tc := range []struct {
		name, text string
		want       *want // nil: refused
	}{
		{"kernel text", psiText, &want{line(1.41, 1.74, 2.14, 68000000), line(0, 0, 0, 0)}},
		{"missing full line", "some avg10=0.20 avg60=0.00 avg300=99.99 total=5\n", &want{some: line(0.2, 0, 99.99, 5)}},
		{"no final newline, CRLF", "full avg10=0.20 avg60=0.00 avg300=0.01 total=5\r",
			&want{full: line(0.2, 0, 0.01, 5)}},
		{"other lines ignored", "total 5\nsomething else\n\nfull avg10=1.00 avg60=2.00 avg300=3.00 total=4\n",
			&want{full: line(1, 2, 3, 4)}},
		{"repeated: the last", "some avg10=1.00 avg60=1.00 avg300=1.00 total=1\nsome avg10=2.00 avg60=2.00 avg300=2.00 total=2\n",
			&want{some: line(2, 2, 2, 2)}},
		{"other forms, through Sscanf", "some avg10=1e1 avg60=+2 avg300=  3.5 total= 44x\n", &want{some: line(10, 2, 3.5, 44)}},
		{"extra spaces, through Sscanf", "some  avg10=1.00   avg60=2.00 avg300=3.00 total=4\n", &want{some: line(1, 2, 3, 4)}},
		{"trailing text ignored", "some avg10=1.00 avg60=2.00 avg300=3.00 total=4 avg600=5\n", &want{some: line(1, 2, 3, 4)}},
		{"many digits, through Sscanf", "some avg10=1234567890.123456789 avg60=0.1 avg300=0.2 total=18446744073709551615\n",
			&want{some: line(1234567890.123456789, 0.1, 0.2, 18446744073709551615)}},
		{"empty", "", &want{}},
		{"a long line is a line", "some avg10=1.00 avg60=2.00 avg300=3.00 total=4\n" +
			strings.Repeat("x", 1<<17) + "\nfull avg10=1.00 avg60=2.00 avg300=3.00 total=4\n",
			&want{some: line(1, 2, 3, 4), full: line(1, 2, 3, 4)}},
		{"word alone", "some\n", nil},
		{"missing total", "some avg10=1.00 avg60=2.00 avg300=3.00\n", nil},
		{"negative total", "full avg10=1.00 avg60=2.00 avg300=3.00 total=-4\n", nil},
		{"total overflows", "full avg10=1.00 avg60=2.00 avg300=3.00 total=18446744073709551616\n", nil},
		{"bad average", "some avg10=x avg60=2.00 avg300=3.00 total=4\n", nil},
		{"fields out of order", "some avg60=2.00 avg10=1.00 avg300=3.00 total=4\n", nil},
		{"bad line after a good one", "some avg10=1.00 avg60=2.00 avg300=3.00 total=4\nfull avg10=\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := PSIStats{HasFull: true}
			err := ParsePSI([]byte(tc.text), &st)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("accepted: %+v", st)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.HasSome != (tc.want.some != nil) || st.HasSome && st.Some != *tc.want.some {
				t.Errorf("some: %+v, %v; want %+v", st.Some, st.HasSome, tc.want.some)
			}
			if st.HasFull != (tc.want.full != nil) || st.HasFull && st.Full != *tc.want.full {
				t.Errorf("full: %+v, %v; want %+v", st.Full, st.HasFull, tc.want.full)
			}
		})
	}
}

// The fast path reads every average the kernel can print ("%lu.%02lu"),
// and longer ones, as strconv.ParseFloat does.
func TestParsePSIAvgMatchesParseFloat(t *testing.T) {
	check := func(s string) {
		t.Helper()
		got, rest, ok := parsePSIAvg([]byte(s + " "))
		if !ok {
			t.Fatalf("%q not read", s)
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || got != want || string(rest) != " " {
			t.Fatalf("%q read as %v, rest %q; ParseFloat gives %v, %v", s, got, rest, want, err)
		}
	}
	for i := range 100 * 100 {
		check(fmt.Sprintf("%d.%02d", i/100, i%100))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		digits := 2 + r.IntN(14) // 2 to 15
		frac := 1 + r.IntN(digits-1)
		m := r.Uint64N(uint64(pow10[digits]))
		s := fmt.Sprintf("%0*d", digits, m)
		check(s[:digits-frac] + "." + s[digits-frac:])
	}
	for _, s := range []string{"1", "1.", ".5", "1.5e3", "1.5_0", "1_0.5", "-1.5", "+1.5", "0x1.8p1", "1234567890123456.7", "1.2345678901234567"} {
		for _, text := range []string{
			"avg10=" + s + " avg60=1.00 avg300=1.00 total=1",
			"avg10=1.00 avg60=1.00 avg300=" + s + " total=1",
		} {
			if parsePSIFields([]byte(text), &psiLine{}) {
				t.Errorf("%q read by the fast path: should be left to Sscanf", text)
			}
		}
	}
}

func checkPSILikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "pressure", "cpu"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	pfs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, wantErr := pfs.PSIStatsForResource("cpu")
	var got PSIStats
	err = ParsePSI(text, &got)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%.200q: error %v, procfs %v", text, err, wantErr)
	}
	if err != nil {
		return
	}
	same := func(has bool, l psiLine, w *procfs.PSILine) bool {
		if !has || w == nil {
			return has == (w != nil)
		}
		// Compare bits: a NaN average must be NaN in both.
		return fmt.Sprint(l.Avg10, l.Avg60, l.Avg300) == fmt.Sprint(w.Avg10, w.Avg60, w.Avg300) && l.Total == w.Total
	}
	if !same(got.HasSome, got.Some, want.Some) || !same(got.HasFull, got.Full, want.Full) {
		t.Errorf("%.200q: %+v, procfs some %+v full %+v", text, got, want.Some, want.Full)
	}
}

func TestParsePSIMatchesProcfs(t *testing.T) {
	var texts []string
	for _, res := range []string{"cpu", "memory", "io", "irq"} {
		texts = append(texts, fileTexts(t, filepath.Join("pressure", res))...)
	}
	texts = append(texts, psiText, "", "some", "some ", "full avg10=nan avg60=Inf avg300=-0.0 total=0\n",
		"some avg10=0x1p-2 avg60=1_0.5 avg300=1.5p3 total=1_0\n", "some\tavg10=1.00 avg60=2.00 avg300=3.00 total=4\n",
		"some avg10=1.00\u00a0avg60=2.00 avg300=3.00 total=4\n", "full avg10=1.00 avg60=2.00 avg300=3.00 total=4_\n",
		"some avg10=1.00 avg60=2.00 avg300=3.00 total=00000000000000000000000000004\n")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "pressure"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, text := range texts {
		checkPSILikeProcfs(t, dir, []byte(text))
	}
}

func FuzzParsePSIMatchesProcfs(f *testing.F) {
	f.Add([]byte(psiText))
	f.Add([]byte("some avg10=1e1 avg60=+2 avg300=  3.5 total= 44x\nfull avg10=0.1 avg60=0.2 avg300=0.3 total=9\n"))
	dir := f.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "pressure"), 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		checkPSILikeProcfs(t, dir, text)
	})
}

func BenchmarkParsePSI(b *testing.B) {
	data, err := os.ReadFile("/proc/pressure/io")
	if err != nil {
		b.Skip(err)
	}
	var st PSIStats
	b.ReportAllocs()
	for b.Loop() {
		if err := ParsePSI(data, &st); err != nil {
			b.Fatal(err)
		}
	}
}
