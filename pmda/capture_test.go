package pmda

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// capture reads a PDU written as hex words in testdata/pdu.
func capture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "pdu", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var digits strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		digits.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(digits.String())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

// words prints bytes as the hex words the captures use, for diffs.
func words(b []byte) string {
	var s strings.Builder
	for i := 0; i < len(b); i += 4 {
		s.WriteString(hex.EncodeToString(b[i:min(i+4, len(b))]))
		s.WriteByte(' ')
	}
	return s.String()
}

func sameBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if string(got) != string(want) {
		t.Errorf("%s:\n got  %s\n want %s", what, words(got), words(want))
	}
}
