package cache

import (
	"strings"
)

// libpcpLoad is what libpcp_pmda's instance cache holds after loading a
// file, read here by the rules of src/libpcp_pmda/src/cache.c, so tests
// can check that files hostcache writes are read whole by pmdalinux.
type libpcpLoad struct {
	names   map[int64]string // id -> name, as insert_cache kept them
	stopped string           // why load_cache stopped before the end, if it did
	ignored int              // lines insert_cache ignored (an id or name already held)
	maxID   int64            // the highest id held, -1 with none
}

// nextID is the id pmdaCacheStore gives a new name after the load in
// mode 0 (insert_cache: the last entry's id plus one).
func (l libpcpLoad) nextID() int64 { return l.maxID + 1 }

// loadLikeLibpcp follows load_cache: the header through sscanf, then each
// record as fgets gives it into a 1024-byte buffer, parsed by hand, each
// handed to insert_cache with its id; the first bad record ends the load.
func loadLikeLibpcp(data string) libpcpLoad {
	l := libpcpLoad{names: map[int64]string{}, maxID: -1}
	records := fgetsRecords(data, 1024)
	if len(records) == 0 {
		return l // "empty file?": nothing loaded, not an error
	}
	if !libpcpHeaderOK(records[0]) {
		l.stopped = "illegal cache header record"
		return l
	}
	byPrefix := map[string]bool{}
	for _, rec := range records[1:] {
		inst, name, ok := libpcpRecord(rec)
		if !ok {
			l.stopped = "illegal record: " + rec
			return l
		}
		if name == "" {
			l.stopped = "zero length instance name" // insert_cache refuses it
			return l
		}
		// insert_cache: a held id, or a name equal up to its first space
		// (name_eq), keeps the entry already there.
		prefix, _, _ := strings.Cut(name, " ")
		if _, held := l.names[inst]; held || byPrefix[prefix] {
			l.ignored++
			continue
		}
		l.names[inst], byPrefix[prefix] = name, true
		l.maxID = max(l.maxID, inst)
	}
	return l
}

// fgetsRecords cuts data as repeated fgets calls with a buffer of size
// bytes do: at each newline, or after size-1 bytes.
func fgetsRecords(data string, size int) []string {
	var out []string
	for data != "" {
		n := strings.IndexByte(data, '\n') + 1
		if n == 0 || n > size-1 {
			n = min(len(data), size-1)
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// libpcpHeaderOK reads the header as load_cache does: sscanf "%d" for the
// version (1 or 2), then "%d %d" or "%d %d %d" for the mode (0 or 1) and
// the highest id (not negative); what follows is not looked at.
func libpcpHeaderOK(rec string) bool {
	nums, _ := scanInts(rec, 3)
	if len(nums) == 0 || nums[0] < 1 || nums[0] > 2 {
		return false
	}
	want := int(nums[0]) + 1
	if len(nums) < want || nums[1] < 0 || nums[1] > 1 {
		return false
	}
	return want == 2 || nums[2] >= 0
}

// scanInts reads up to n whitespace-separated decimal ints the way sscanf
// "%d %d %d" does, stopping at the first that does not convert.
func scanInts(s string, n int) ([]int64, string) {
	var nums []int64
	for len(nums) < n {
		i := skipCSpace(s, 0)
		j := i
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := skipDigits(s, j)
		if k == j {
			break
		}
		v := cDigits(s[j:k])
		if s[i] == '-' {
			v = -v
		}
		nums, s = append(nums, v), s[k:]
	}
	return nums, s
}

// cDigits accumulates digits into a 32-bit int, wrapping as load_cache's
// int does on overflow.
func cDigits(s string) int64 {
	var v int32
	for i := 0; i < len(s); i++ {
		v = v*10 + int32(s[i]-'0')
	}
	return int64(v)
}

// libpcpRecord parses one record as load_cache's loop does: strip the
// newline, skip blanks, digits for the id (none reads as 0), blanks,
// digits for the stamp, blanks, an optional "[hex]" key (skipping the
// bracket and the byte after it), blanks, then the name to the end or
// the first NUL. ok is false where load_cache jumps to "bad".
func libpcpRecord(rec string) (inst int64, name string, ok bool) {
	if i := strings.IndexByte(rec, '\n'); i >= 0 {
		rec = rec[:i]
	}
	if i := strings.IndexByte(rec, 0); i >= 0 {
		rec = rec[:i] // C strings end here
	}
	p := skipCSpace(rec, 0)
	if p == len(rec) {
		return 0, "", false
	}
	q := skipDigits(rec, p)
	inst = cDigits(rec[p:q])
	p = skipCSpace(rec, q)
	if inst < 0 || p == len(rec) {
		return 0, "", false
	}
	p = skipCSpace(rec, skipDigits(rec, p))
	if p < len(rec) && rec[p] == '[' {
		end := strings.IndexByte(rec[p:], ']')
		if end < 0 {
			return 0, "", false
		}
		keyChars := (end - 1) / 2 * 2
		p = min(len(rec), p+1+keyChars+2)
		p = skipCSpace(rec, p)
	}
	if p == len(rec) {
		return 0, "", false
	}
	return inst, rec[p:], true
}
