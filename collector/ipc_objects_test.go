package collector

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// fakeUsers knows root (0) and alice (1000), as a user database would.
func fakeUsers(uid string) (*user.User, error) {
	names := map[string]string{"0": "root", "1000": "alice"}
	if name, ok := names[uid]; ok {
		return &user.User{Uid: uid, Username: name}, nil
	}
	return nil, user.UnknownUserIdError(0)
}

// newIPCHarness samples tree with the user database faked.
func newIPCHarness(t *testing.T, tree string, warn func(error)) *harness {
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use(tree)
	h.Attach(NewIPCCollector, engine.Env{Proc: h.Proc, Warn: warn})
	h.C.(*ipcCollector).owners.lookup = fakeUsers
	return h
}

// Every per-object metric the collector declares is pmdalinux's, with its
// descriptor, and every per-object metric of pmdalinux's is declared.
func TestIPCObjectDescriptors(t *testing.T) {
	c, err := NewIPCCollector(engine.Env{Proc: filepath.Join(testdataDir, "ipc_objects/t0")})
	if err != nil {
		t.Fatal(err)
	}
	var perObject []cache.Desc
	for _, d := range c.Source().Metrics {
		if d.InDom != cache.InDomNone {
			perObject = append(perObject, d)
		}
	}
	for _, kind := range []string{"ipc.shm.", "ipc.msg.", "ipc.sem."} {
		var skip []string // pmdalinux's totals of the kind, on no instance domain
		for name, m := range linuxTwins() {
			if strings.HasPrefix(name, kind) && m.InDom == cache.InDomNone {
				skip = append(skip, name)
			}
		}
		checkTwinFamily(t, perObject, kind, skip...)
	}
}

// ipcWant is one object's expected values, by metric name below ipc.KIND.
type ipcWant struct {
	texts map[string]string
	nums  map[string]uint64
}

func (h *harness) wantIPCObject(kind string, inst uint32, w ipcWant) {
	h.T.Helper()
	for m, want := range w.texts {
		if got := h.MustValue("ipc."+kind+"."+m, inst).Str; got != want {
			h.T.Errorf("ipc.%s.%s[%d] = %q, want %q", kind, m, inst, got, want)
		}
	}
	for m, want := range w.nums {
		h.WantU64("ipc."+kind+"."+m, inst, want)
	}
}

func (h *harness) wantInstances(indom cache.InDomID, want []cache.Instance) {
	h.T.Helper()
	if got := h.hostInstances(indom); !reflect.DeepEqual(got, want) {
		h.T.Errorf("indom %d instances\n got %v\nwant %v", indom, got, want)
	}
}

// testdata/ipc_objects/t0: three segments (one removed while attached, one
// locked, one of 4 GiB + 4096 bytes owned by a uid without a user), two
// queues, two semaphore sets. t1: segment 0 gone, 32769 both removed and
// locked with its key now private, 98307 new; every semaphore set gone.
func TestIPCObjectValues(t *testing.T) {
	h := newIPCHarness(t, "ipc_objects/t0", nil)
	h.MustSample(t0)
	h.wantInstances(indomIPCShm, []cache.Instance{{ID: 0, Name: "0"}, {ID: 1, Name: "32769"}, {ID: 2, Name: "65538"}})
	h.wantIPCObject("shm", 0, ipcWant{map[string]string{"key": "0x7323f316", "owner": "root", "status": ""},
		map[string]uint64{"perms": 644, "segsz": 4096, "nattch": 0, "creator_pid": 8497, "last_access_pid": 0}})
	h.wantIPCObject("shm", 1, ipcWant{map[string]string{"key": "0xb340b157", "owner": "3999999", "status": "dest"},
		map[string]uint64{"perms": 600, "segsz": 4096, "nattch": 2, "creator_pid": 9001, "last_access_pid": 9002}})
	h.wantIPCObject("shm", 2, ipcWant{map[string]string{"key": "0x00000000", "owner": "alice", "status": "locked"},
		map[string]uint64{"perms": 600, "segsz": 100000, "nattch": 1, "creator_pid": 9100, "last_access_pid": 9100}})
	h.wantInstances(indomIPCMsg, []cache.Instance{{ID: 0, Name: "0"}, {ID: 1, Name: "98305"}})
	h.wantIPCObject("msg", 0, ipcWant{map[string]string{"key": "0xd7d96ca7", "owner": "root"},
		map[string]uint64{"perms": 644, "msgsz": 0, "messages": 0, "last_send_pid": 0, "last_recv_pid": 0}})
	h.wantIPCObject("msg", 1, ipcWant{map[string]string{"key": "0x00bc614e", "owner": "alice"},
		map[string]uint64{"perms": 600, "msgsz": 1000, "messages": 5, "last_send_pid": 13471, "last_recv_pid": 13472}})
	h.wantInstances(indomIPCSem, []cache.Instance{{ID: 0, Name: "0"}, {ID: 1, Name: "1"}})
	h.wantIPCObject("sem", 0, ipcWant{map[string]string{"key": "0xf192f630", "owner": "root"}, map[string]uint64{"perms": 644, "nsems": 3}})
	h.wantIPCObject("sem", 1, ipcWant{map[string]string{"key": "0x00000000", "owner": "alice"}, map[string]uint64{"perms": 640, "nsems": 250}})

	h.Use("ipc_objects/t1")
	h.MustSample(t1)
	h.wantInstances(indomIPCShm, []cache.Instance{{ID: 1, Name: "32769"}, {ID: 2, Name: "65538"}, {ID: 3, Name: "98307"}})
	h.wantIPCObject("shm", 1, ipcWant{map[string]string{"key": "0x00000000", "status": "dest locked"},
		map[string]uint64{"perms": 600, "nattch": 1, "last_access_pid": 9003}})
	h.wantIPCObject("shm", 3, ipcWant{map[string]string{"key": "0x7fffffff", "owner": "alice", "status": ""},
		map[string]uint64{"perms": 640, "segsz": 8192, "creator_pid": 9200}})
	h.wantInstances(indomIPCSem, []cache.Instance{})
	h.WantU64("ipc.sem.used_sem", cache.InstNone, 0)
}

// Damaged rows cost only what cannot be read: a short row keeps its key
// and perms, an unreadable key or perms or pid leaves that value out, a
// row whose id does not parse is no instance and a repeated id keeps its
// first row, as pmdalinux keeps it. A sem file without its header has no
// objects; a missing msg file leaves the queues without instances.
func TestIPCObjectsDamaged(t *testing.T) {
	h := newIPCHarness(t, "ipc_objects/damaged", nil)
	if err := h.Sample(t0); err == nil {
		t.Error("sample without /proc/sysvipc/msg succeeded")
	}
	h.wantInstances(indomIPCShm, []cache.Instance{{ID: 0, Name: "4"}, {ID: 1, Name: "5"}, {ID: 2, Name: "6"}})
	h.wantIPCObject("shm", 0, ipcWant{map[string]string{"key": "0x00000011", "status": ""}, map[string]uint64{"perms": 600}})
	for _, m := range []string{"owner", "segsz", "nattch", "creator_pid", "last_access_pid"} {
		h.WantAbsent("ipc.shm."+m, 0)
	}
	h.wantIPCObject("shm", 1, ipcWant{map[string]string{"owner": "root"},
		map[string]uint64{"segsz": 4096, "creator_pid": 300, "last_access_pid": 301}})
	for _, m := range []string{"key", "perms", "status"} {
		h.WantAbsent("ipc.shm."+m, 1)
	}
	h.wantIPCObject("shm", 2, ipcWant{map[string]string{"key": "0x00000013"}, map[string]uint64{"segsz": 8192, "last_access_pid": 302}})
	h.WantAbsent("ipc.shm.creator_pid", 2)
	h.WantAbsent("ipc.shm.owner", 2)
	h.wantInstances(indomIPCSem, []cache.Instance{})
	if n := h.Published("ipc.msg."); n != 0 {
		t.Errorf("%d msg values without a msg file", n)
	}
}

// A table longer than ipcObjectLimit publishes its first objects, counts
// them all, and says so once.
func TestIPCObjectsCapped(t *testing.T) {
	var warnings []error
	h := newIPCHarness(t, "ipc_objects/t0", func(err error) { warnings = append(warnings, err) })
	var text strings.Builder
	text.WriteString("key semid perms nsems uid gid cuid cgid otime ctime\n")
	for i := range ipcObjectLimit + 2 {
		fmt.Fprintf(&text, "0 %d 600 1 0 0 0 0 0 0\n", i)
	}
	if err := os.WriteFile(filepath.Join(h.Proc, "sysvipc", "sem"), []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	h.MustSample(t1)
	if n := len(h.hostInstances(indomIPCSem)); n != ipcObjectLimit {
		t.Errorf("%d semaphore sets published, want %d", n, ipcObjectLimit)
	}
	h.WantU64("ipc.sem.used_sem", cache.InstNone, ipcObjectLimit+2)
	if len(warnings) != 1 {
		t.Errorf("warnings %v, want one", warnings)
	}
}

// An unchanged table is parsed and listed without allocating: only new
// objects cost their texts and a new instance table.
func TestIPCObjectsUnchangedAllocateNothing(t *testing.T) {
	var text strings.Builder
	text.WriteString("key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime ctime rss swap\n")
	for i := range 1000 {
		fmt.Fprintf(&text, "%d %d 600 4096 1 2 0 0 0 0 0 0 0 0 0 0\n", i-500, i)
	}
	data := []byte(text.String())
	table := kernel.NewIPCTable("size").Keep(ipcObjectLimit, ipcShmKind.columns()...)
	o := newIPCObjects(&ipcShmKind, engine.Env{})
	list := func() {
		table.Parse(data)
		o.scan(table)
		o.table.update(len(o.rows), func(i int) string { return o.known[o.rows[i]].name })
	}
	list()
	if n := testing.AllocsPerRun(10, list); n != 0 {
		t.Errorf("%v allocations per unchanged sample of 1000 objects", n)
	}
	if len(o.rows) != 1000 || o.known[999].keyText != "0x000001f3" || o.known[0].keyText != "0xfffffe0c" {
		t.Errorf("%d rows, texts %+v %+v", len(o.rows), o.known[0], o.known[999])
	}
}

// Users' names are looked up once per uid and ipcOwnerTTL, and a uid
// without a user is named by its number.
func TestIPCOwners(t *testing.T) {
	lookups := 0
	u := newIPCOwners()
	u.lookup = func(uid string) (*user.User, error) { lookups++; return fakeUsers(uid) }
	now := time.Unix(1795320600, 0)
	u.refresh(now)
	for range 3 {
		if got := u.name(1000); got != "alice" {
			t.Errorf("uid 1000 named %q", got)
		}
	}
	if got := u.name(42); got != "42" {
		t.Errorf("uid 42 named %q", got)
	}
	u.refresh(now.Add(ipcOwnerTTL - time.Second))
	u.name(1000)
	if lookups != 2 {
		t.Errorf("%d lookups within the TTL, want 2", lookups)
	}
	u.refresh(now.Add(ipcOwnerTTL))
	u.name(1000)
	if lookups != 3 {
		t.Errorf("%d lookups after the TTL, want 3", lookups)
	}
}

func TestIPCFormats(t *testing.T) {
	for in, want := range map[string]uint32{"0": 0, "-1": 0xffffffff, "2147483647": 0x7fffffff, "-2147483648": 0x80000000} {
		if got, ok := parseIPCKey([]byte(in)); !ok || got != want {
			t.Errorf("key %s: %#x %v, want %#x", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "-", "2147483648", "-2147483649", "0x10", "1e3"} {
		if _, ok := parseIPCKey([]byte(bad)); ok {
			t.Errorf("key %q read", bad)
		}
	}
	for mode, want := range map[uint64]uint64{0o644: 644, 0o1600: 600, 0o3777: 777, 0: 0} {
		if got := ipcPermsDigits(mode); got != want {
			t.Errorf("perms %o: %d, want %d", mode, got, want)
		}
	}
	if _, ok := parseOctal([]byte("648")); ok {
		t.Error("perms 648 read as octal")
	}
}

// A vanished object's name leaves the id file, whose ids of the objects
// that exist are kept: a program that creates and removes segments all day
// grows no file. Its id is never given again.
func TestIPCObjectIDsForgetTheVanished(t *testing.T) {
	dir := t.TempDir()
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("ipc_objects/t0")
	h.Attach(NewIPCCollector, engine.Env{Proc: h.Proc, IDDir: dir})
	h.C.(*ipcCollector).owners.lookup = fakeUsers
	h.MustSample(t0)
	h.Use("ipc_objects/t1")
	h.MustSample(t1)
	data, err := os.ReadFile(filepath.Join(dir, "hostcache.38"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"1 32769\n", "2 65538\n", "3 98307\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the shm id file lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0 0\n") {
		t.Errorf("the shm id file still holds segment 0, gone at t1:\n%s", text)
	}
	if strings.Count(text, "\n") != 4 {
		t.Errorf("the shm id file has %d lines, want a header and 3:\n%s", strings.Count(text, "\n"), text)
	}
}
