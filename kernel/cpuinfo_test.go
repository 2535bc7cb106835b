package kernel

import "testing"

func TestParseCPUInfo(t *testing.T) {
	data := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu MHz\t\t: 2596.128\nflags\t\t: fpu vme\n\n" +
		"processor\t: 1\nvendor_id\t: AuthenticAMD\ncache size\t: 1024 KB\npower management:\n\n"
	got := map[string]string{}
	n := ParseCPUInfo([]byte(data), func(cpu int, key, value []byte) {
		got[string(rune('0'+cpu))+"/"+string(key)] = string(value)
	})
	want := map[string]string{"0/vendor_id": "AuthenticAMD", "0/cpu MHz": "2596.128", "0/flags": "fpu vme",
		"1/vendor_id": "AuthenticAMD", "1/cache size": "1024 KB", "1/power management": ""}
	if n != 2 || len(got) != len(want) {
		t.Errorf("%d processors, %v", n, got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}
