package kernel

import (
	"bufio"
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// scanLinesRef is what bufio.Scanner makes of data: its lines, and
// whether it stopped at a line too long.
func scanLinesRef(data []byte) ([]string, bool) {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err() != nil
}

// scanLinesOwn is the same through nextTextLine.
func scanLinesOwn(data []byte) []string {
	var lines []string
	for len(data) > 0 {
		line, rest := nextTextLine(data)
		lines = append(lines, string(line))
		data = rest
	}
	return lines
}

// Lines split as bufio.ScanLines splits them (a carriage return before
// the newline dropped), and a line longer than bufio.Scanner takes is
// just a line.
func TestNextTextLineMatchesScanner(t *testing.T) {
	for _, in := range []string{
		"", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r\r\n", "\r", "\r\n",
		" a \n\tb\t\n", "a\n\nb\n",
	} {
		want, _ := scanLinesRef([]byte(in))
		if got := scanLinesOwn([]byte(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("%.40q: got %q; bufio.Scanner %q", in, got, want)
		}
	}
	long := strings.Repeat("x", 1<<17)
	if got := scanLinesOwn([]byte("a\n" + long + "\r\nb")); len(got) != 3 || got[1] != long {
		t.Errorf("a long line: %d lines", len(got))
	}
}

func TestSplitFieldsMatchesStringsFields(t *testing.T) {
	for _, in := range []string{
		"", " ", "a", " a ", "a b", "MemTotal:       24684092 kB",
		"a\tb\vc\fd\re\nf", "  lead  and   trail  ", "one two three four five six",
		"a\u00a0b",       // no-break space: a Unicode space
		"a\u0085b c",     // NEL
		"a\u2003b",       // em space
		"é b",            // non-ASCII, not a space
		"a \xff b",       // invalid UTF-8
		"a b c d \u00a0", // non-ASCII past the fields counted
	} {
		want := strings.Fields(in)
		for size := 0; size <= 6; size++ {
			out := make([][]byte, size)
			n := fieldsOf([]byte(in), out)
			if wantN := min(len(want), size+1); n != wantN {
				t.Errorf("%q, %d wanted: %d fields, want %d", in, size, n, wantN)
				continue
			}
			for i := range min(n, size) {
				if string(out[i]) != want[i] {
					t.Errorf("%q: field %d %q, want %q", in, i, out[i], want[i])
				}
			}
		}
	}
}

func TestParseAtoiMatchesStrconv(t *testing.T) {
	for _, in := range []string{
		"0", "-0", "+0", "1", "-1", "+17", "007", "-007", "", "+", "-", "1_000", "0x10", " 1", "1 ",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"00000000000000000000000000042", "-00000000000000000000000000042",
		"18446744073709551616", "99999999999999999999999", "1a", "٣",
	} {
		want, err := strconv.Atoi(in)
		got, ok := parseAtoi([]byte(in))
		if ok != (err == nil) || (ok && got != int64(want)) {
			t.Errorf("parseAtoi(%q) = %d, %v; strconv.Atoi gives %d, %v", in, got, ok, want, err)
		}
	}
}

func TestParseUintMatchesStrconv(t *testing.T) {
	for _, in := range []string{
		"0", "00", "1", "10", "010", "08", "0x1f", "0X1F", "0o17", "0b101", "1_000", "_1", "+1", "-1", "",
		"18446744073709551615", "18446744073709551616", "000000000000000000000000001", "1e3", "1.0",
		"9999999999999999999", "1000000000000000000", "99999999999999999999", "10000000000000000000", "123456789012345678/",
	} {
		want10, err10 := strconv.ParseUint(in, 10, 64)
		got10, ok := ParseDecimal([]byte(in))
		if ok != (err10 == nil) || (ok && got10 != want10) {
			t.Errorf("parseDecimal(%q) = %d, %v; strconv base 10 gives %d, %v", in, got10, ok, want10, err10)
		}
	}
}

// The parsers allocate nothing on the kernel's text.
func TestParsersDoNotAllocate(t *testing.T) {
	var m Meminfo
	vm := NewVMStat("nr_free_pages", "pgfault", "pswpin", "pswpout", "pgpgin", "pgpgout")
	vmstat := []byte("nr_free_pages 790000\npgfault 12110000\npswpin 1000\nnr_unknown 1\n")
	swaps := []byte(swapsHeader + "/dev/vdb2 partition\t4194300\t102400\t-2\n")
	areas := make([]SwapArea, 0, 4)
	var st PSIStats
	mem, psi := []byte(meminfoText), []byte(psiText)
	loadavg, uptime := []byte("0.52 0.58 0.59 2/1204 81423\n"), []byte("449.29 784.28\n")
	for name, parse := range map[string]func() error{
		"loadavg":  func() (err error) { _, err = ParseLoadavg(loadavg); return err },
		"uptime":   func() (err error) { _, _, err = ParseUptime(uptime); return err },
		"meminfo":  func() error { return ParseMeminfo(mem, &m) },
		"vmstat":   func() error { return ParseVMStat(vmstat, vm) },
		"swaps":    func() (err error) { areas, err = ParseSwaps(swaps, areas); return err },
		"pressure": func() error { return ParsePSI(psi, &st) },
	} {
		if err := parse(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = parse() }); n != 0 {
			t.Errorf("%s: %v allocations per parse", name, n)
		}
	}
}

// NextDecimal reads what NextWord and ParseDecimal read together.
func FuzzNextDecimalIsWordThenDecimal(f *testing.F) {
	for _, s := range []string{"", " ", "12 34", "  007\tx", "18446744073709551615 1", "18446744073709551616",
		"000000000000000000000000042 7", "12x 3", "-1", "1234567890123456789", "12345678901234567890\n", "٣"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, rest, ok := NextDecimal(b)
		w, wantRest := NextWord(b)
		want, wantOK := ParseDecimal(w)
		if ok != wantOK || (ok && (v != want || string(rest) != string(wantRest))) {
			t.Errorf("%q: %d %q %v; NextWord+ParseDecimal %d %q %v", b, v, rest, ok, want, wantRest, wantOK)
		}
	})
}
