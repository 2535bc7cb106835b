package collector

import (
	"fmt"
	"os/user"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Each SysV IPC object of /proc/sysvipc, as pmdalinux's clusters 64 (shm),
// 65 (msg) and 66 (sem) give them: one instance per object, named by its
// id. Our cluster of each table holds pmdalinux's sums in its low items,
// so the objects' items are pmdalinux's plus ipcObjectItemBase.
const ipcObjectItemBase = 100

// pmdalinux's types are 32 bits: a segment of 4 GiB or more has its size
// published truncated, as pmdalinux publishes it. Its units make the last
// sender's pid a number of bytes; the twin keeps the descriptor.
var (
	ipcShmKey = engine.Row{Name: "hostcache.ipc.shm.key", Cluster: clusterIPCShm, Item: ipcObjectItemBase + 0,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomIPCShm}.Desc()
	ipcShmOwner = engine.Row{Name: "hostcache.ipc.shm.owner", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 1, Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomIPCShm}.Desc()
	ipcShmPerms = engine.Row{Name: "hostcache.ipc.shm.perms", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 2, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCShm}.Desc()
	ipcShmSegsz = engine.Row{Name: "hostcache.ipc.shm.segsz", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 3, Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsByte,
		InDom: indomIPCShm}.Desc()
	ipcShmNattch = engine.Row{Name: "hostcache.ipc.shm.nattch", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 4, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCShm}.Desc()
	ipcShmStatus = engine.Row{Name: "hostcache.ipc.shm.status", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 5, Type: cache.TypeString, Sem: cache.SemInstant, InDom: indomIPCShm}.Desc()
	ipcShmCPID = engine.Row{Name: "hostcache.ipc.shm.creator_pid", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 6, Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomIPCShm}.Desc()
	ipcShmLPID = engine.Row{Name: "hostcache.ipc.shm.last_access_pid", Cluster: clusterIPCShm,
		Item: ipcObjectItemBase + 7, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCShm}.Desc()
	ipcMsgKey = engine.Row{Name: "hostcache.ipc.msg.key", Cluster: clusterIPCMsg, Item: ipcObjectItemBase + 0,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomIPCMsg}.Desc()
	ipcMsgOwner = engine.Row{Name: "hostcache.ipc.msg.owner", Cluster: clusterIPCMsg,
		Item: ipcObjectItemBase + 1, Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomIPCMsg}.Desc()
	ipcMsgPerms = engine.Row{Name: "hostcache.ipc.msg.perms", Cluster: clusterIPCMsg,
		Item: ipcObjectItemBase + 2, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCMsg}.Desc()
	ipcMsgMsgsz = engine.Row{Name: "hostcache.ipc.msg.msgsz", Cluster: clusterIPCMsg,
		Item: ipcObjectItemBase + 3, Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsByte,
		InDom: indomIPCMsg}.Desc()
	ipcMsgCount = engine.Row{Name: "hostcache.ipc.msg.messages", Cluster: clusterIPCMsg,
		Item: ipcObjectItemBase + 4, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCMsg}.Desc()
	ipcMsgSendPID = engine.Row{Name: "hostcache.ipc.msg.last_send_pid", Cluster: clusterIPCMsg,
		Item: ipcObjectItemBase + 5, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte,
		InDom: indomIPCMsg}.Desc()
	ipcMsgRecvPID = engine.Row{Name: "hostcache.ipc.msg.last_recv_pid", Cluster: clusterIPCMsg,
		Item: ipcObjectItemBase + 6, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCMsg}.Desc()
	ipcSemKey = engine.Row{Name: "hostcache.ipc.sem.key", Cluster: clusterIPCSem, Item: ipcObjectItemBase + 0,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomIPCSem}.Desc()
	ipcSemOwner = engine.Row{Name: "hostcache.ipc.sem.owner", Cluster: clusterIPCSem,
		Item: ipcObjectItemBase + 1, Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomIPCSem}.Desc()
	ipcSemPerms = engine.Row{Name: "hostcache.ipc.sem.perms", Cluster: clusterIPCSem,
		Item: ipcObjectItemBase + 2, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCSem}.Desc()
	ipcSemNsems = engine.Row{Name: "hostcache.ipc.sem.nsems", Cluster: clusterIPCSem,
		Item: ipcObjectItemBase + 3, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomIPCSem}.Desc()
)

// ipcObjectLimit caps the objects published per table and sample: the
// kernel numbers at most 32768 objects of a kind (IPCMNI) unless booted
// with ipcmni_extend, so only such a host loses objects past it, and a
// sample's cost stays bounded on it.
const ipcObjectLimit = 32768

// ipcKind is what one table publishes of each object. The kept columns
// are "key", the id column, "perms", "uid", then the numbers' columns.
type ipcKind struct {
	indom   cache.InDomDesc
	idCol   string
	key     cache.Desc
	owner   cache.Desc
	perms   cache.Desc
	status  cache.Desc // shm's only: a zero ID for the others
	numbers []ipcNumber
}

// ipcNumber is a column published as it reads.
type ipcNumber struct {
	column string
	metric cache.Desc
}

var (
	ipcShmKind = ipcKind{cache.InDomDesc{ID: indomIPCShm, Name: "SysV shared memory segments"}, "shmid",
		ipcShmKey, ipcShmOwner, ipcShmPerms, ipcShmStatus,
		[]ipcNumber{{"size", ipcShmSegsz}, {"nattch", ipcShmNattch}, {"cpid", ipcShmCPID},
			{"lpid", ipcShmLPID}}}
	ipcMsgKind = ipcKind{cache.InDomDesc{ID: indomIPCMsg, Name: "SysV message queues"}, "msqid",
		ipcMsgKey, ipcMsgOwner, ipcMsgPerms, cache.Desc{},
		[]ipcNumber{{"cbytes", ipcMsgMsgsz}, {"qnum", ipcMsgCount}, {"lspid", ipcMsgSendPID},
			{"lrpid", ipcMsgRecvPID}}}
	ipcSemKind = ipcKind{cache.InDomDesc{ID: indomIPCSem, Name: "SysV semaphore sets"}, "semid",
		ipcSemKey, ipcSemOwner, ipcSemPerms, cache.Desc{},
		[]ipcNumber{{"nsems", ipcSemNsems}}}
)

// The kept columns' places.
const (
	ipcColKey = iota
	ipcColID
	ipcColPerms
	ipcColUID
	ipcColNumbers
)

// columns lists the columns a table keeps for this kind.
func (k *ipcKind) columns() []string {
	cols := []string{"key", k.idCol, "perms", "uid"}
	for _, n := range k.numbers {
		cols = append(cols, n.column)
	}
	return cols
}

// metrics lists the kind's descriptors.
func (k *ipcKind) metrics() []cache.Desc {
	out := []cache.Desc{k.key, k.owner, k.perms}
	if k.status.ID != 0 {
		out = append(out, k.status)
	}
	for _, n := range k.numbers {
		out = append(out, n.metric)
	}
	return out
}

// ipcObjects publishes the objects of one table. Their texts (the
// instance name, the key in hex) are made when an object first shows and
// kept while it lasts, so an unchanged table allocates nothing.
type ipcObjects struct {
	kind  *ipcKind
	table named
	known map[uint32]ipcTexts // by object id
	rows  []uint32            // ids of the last read, in file order
	cells []int               // their kept rows in the table
	gen   uint64              // the sample's number, to find who vanished
}

// ipcTexts are one object's texts and the sample that last saw it.
type ipcTexts struct {
	name    string
	key     uint32
	keyText string
	seen    uint64
}

func newIPCObjects(kind *ipcKind, env engine.Env) *ipcObjects {
	return &ipcObjects{kind: kind, table: named{ids: env.IDMap(kind.indom.ID)}, known: map[uint32]ipcTexts{}}
}

// publish sets the instances and values of the objects t kept.
func (o *ipcObjects) publish(b *cache.Builder, t *kernel.IPCTable, owners *ipcOwners) {
	o.scan(t)
	b.SetInDom(o.kind.indom.ID, o.table.update(len(o.rows), func(i int) string { return o.known[o.rows[i]].name }))
	for i, id := range o.rows {
		o.values(b, t, o.cells[i], o.table.insts[i], o.known[id], owners)
	}
}

// scan lists the kept objects with a readable id, once each (pmdalinux
// also skips a repeated id), and forgets the vanished.
func (o *ipcObjects) scan(t *kernel.IPCTable) {
	o.gen++
	o.rows, o.cells = o.rows[:0], o.cells[:0]
	for r := range t.Kept() {
		id, ok := kernel.ParseDecimal(t.Cell(r, ipcColID))
		if !ok || id > 1<<31-1 || o.known[uint32(id)].seen == o.gen {
			continue
		}
		o.rows, o.cells = append(o.rows, uint32(id)), append(o.cells, r)
		o.known[uint32(id)] = o.texts(uint32(id), t.Cell(r, ipcColKey))
	}
	for id, x := range o.known {
		if x.seen != o.gen {
			delete(o.known, id)
			// An IPC id is never made again once its object is gone: its
			// instance id goes with it, so the id file holds the objects
			// that exist, however many a program creates and removes.
			o.table.ids.Forget(x.name)
		}
	}
}

// texts returns the object's texts, made anew for a new object or key.
func (o *ipcObjects) texts(id uint32, keyCell []byte) ipcTexts {
	x, ok := o.known[id]
	if !ok {
		x.name = strconv.FormatUint(uint64(id), 10)
	}
	key, keyOK := parseIPCKey(keyCell)
	switch {
	case !keyOK:
		x.keyText = ""
	case !ok || key != x.key || x.keyText == "":
		// pmdalinux's form: the key as 32 bits, in hex.
		x.key, x.keyText = key, fmt.Sprintf("0x%08x", key)
	}
	x.seen = o.gen
	return x
}

// values sets one object's values: a cell missing or unreadable leaves
// its metric without a value for that object.
func (o *ipcObjects) values(b *cache.Builder, t *kernel.IPCTable, r int, inst uint32, x ipcTexts, owners *ipcOwners) {
	k := o.kind
	if x.keyText != "" {
		b.SetString(k.key.ID, inst, x.keyText)
	}
	if uid, ok := kernel.ParseDecimal(t.Cell(r, ipcColUID)); ok && uid <= 1<<32-1 {
		b.SetString(k.owner.ID, inst, owners.name(uint32(uid)))
	}
	if mode, ok := parseOctal(t.Cell(r, ipcColPerms)); ok {
		b.SetU64(k.perms.ID, inst, ipcPermsDigits(mode))
		if k.status.ID != 0 {
			b.SetString(k.status.ID, inst, ipcShmStatusText(mode))
		}
	}
	for j, n := range k.numbers {
		if v, ok := kernel.ParseDecimal(t.Cell(r, ipcColNumbers+j)); ok {
			b.SetU64(n.metric.ID, inst, uint64(uint32(v)))
		}
	}
}

// parseIPCKey reads a key as the kernel prints it, a signed decimal
// (key_t), into its 32 bits.
func parseIPCKey(b []byte) (uint32, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	v, ok := kernel.ParseDecimal(b)
	switch {
	case !ok || (neg && v > 1<<31) || (!neg && v > 1<<31-1):
		return 0, false
	case neg:
		return uint32(-int64(v)), true
	}
	return uint32(v), true
}

// parseOctal reads the perms column, which the kernel prints in octal.
func parseOctal(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 11 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '7' {
			return 0, false
		}
		v = v<<3 | uint64(c-'0')
	}
	return v, true
}

// ipcPermsDigits gives the permission bits as pmdalinux does: their octal
// digits read as a decimal number, 0644 as 644.
func ipcPermsDigits(mode uint64) uint64 {
	return (mode>>6&7)*100 + (mode>>3&7)*10 + mode&7
}

// The flags the kernel keeps in a segment's mode beside the permissions.
const (
	shmDest   = 0o1000 // removed, destroyed at its last detach
	shmLocked = 0o2000 // locked in memory (SHM_LOCK)
)

// ipcShmStatusText is pmdalinux's status of a segment, "" without flags.
func ipcShmStatusText(mode uint64) string {
	switch {
	case mode&shmDest != 0 && mode&shmLocked != 0:
		return "dest locked"
	case mode&shmLocked != 0:
		return "locked"
	case mode&shmDest != 0:
		return "dest"
	}
	return ""
}

// ipcOwnerTTL is how long a user's name is trusted: names change rarely,
// and a table's objects mostly share a few owners.
const ipcOwnerTTL = 10 * time.Minute

// ipcOwners names owners as pmdalinux does: the user's name, or the uid
// when the user database has none.
type ipcOwners struct {
	lookup func(uid string) (*user.User, error)
	names  map[uint32]string
	since  time.Time
}

func newIPCOwners() *ipcOwners {
	return &ipcOwners{lookup: user.LookupId, names: map[uint32]string{}}
}

// refresh forgets the names once they are older than ipcOwnerTTL.
func (u *ipcOwners) refresh(now time.Time) {
	if now.Sub(u.since) >= ipcOwnerTTL || now.Before(u.since) {
		clear(u.names)
		u.since = now
	}
}

func (u *ipcOwners) name(uid uint32) string {
	if name, ok := u.names[uid]; ok {
		return name
	}
	id := strconv.FormatUint(uint64(uid), 10)
	name := id
	if usr, err := u.lookup(id); err == nil && usr.Username != "" {
		name = usr.Username
	}
	u.names[uid] = name
	return name
}
