package collector

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// utmpRecord builds one struct utmp record of the given type and user.
func utmpRecord(typ uint16, user string) []byte {
	r := make([]byte, 384)
	binary.NativeEndian.PutUint16(r, typ)
	copy(r[44:76], user)
	return r
}

// A boot record, a terminal waiting for a login, two logins of root, one
// of alice and a user record without a user: 3 users, 2 of them root, 5
// records counted (the user-less one is not).
func TestLoginCounts(t *testing.T) {
	h := newHarness(t, NewLoginCollector, "proc-t0")
	utmp := filepath.Join(filepath.Dir(h.Proc), "var", "run", "utmp")
	os.MkdirAll(filepath.Dir(utmp), 0o755)
	var data []byte
	for _, r := range [][]byte{utmpRecord(2, "reboot"), utmpRecord(6, "LOGIN"), utmpRecord(7, "root"),
		utmpRecord(7, "root"), utmpRecord(7, "alice"), utmpRecord(7, ""), utmpRecord(7, "rooted")[:100]} {
		data = append(data, r...)
	}
	os.WriteFile(utmp, data, 0o644)
	defer os.Remove(utmp)
	h.MustSample(t0)
	h.WantU64("kernel.all.nusers", cache.InstNone, 3)
	h.WantU64("kernel.all.nroots", cache.InstNone, 2)
	h.WantU64("kernel.all.nsessions", cache.InstNone, 5)
	// No utmp file: no logins, as pmdalinux and who(1) say.
	os.Remove(utmp)
	h.MustSample(t1)
	h.WantU64("kernel.all.nusers", cache.InstNone, 0)
	h.WantU64("kernel.all.nsessions", cache.InstNone, 0)
}
