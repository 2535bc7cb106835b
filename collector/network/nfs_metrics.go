package network

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The NFS and RPC metrics, all in pmdalinux's cluster 7, with its items in
// our clusterNFSClient: client and server share the cluster as they share
// it there.

// nfsFile says which file a figure comes from.
type nfsFile int

const (
	nfsClient nfsFile = iota // <proc>/net/rpc/nfs
	nfsServer                // <proc>/net/rpc/nfsd
)

// nfsScalars are the single figures: a column of a keyed line ("net 1 2 3
// 4" gives rpc.client.netcnt its column 0), each as pmdalinux reads it.
var nfsScalars = []struct {
	desc   cache.Desc
	file   nfsFile
	key    string
	column int
}{
	{engine.Row{Name: "hostcache.rpc.client.rpccnt", Cluster: clusterNFSClient, Item: 20, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsClient, "rpc", 0},
	{engine.Row{Name: "hostcache.rpc.client.rpcretrans", Cluster: clusterNFSClient, Item: 21,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsClient, "rpc", 1},
	{engine.Row{Name: "hostcache.rpc.client.rpcauthrefresh", Cluster: clusterNFSClient, Item: 22,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsClient, "rpc", 2},
	{engine.Row{Name: "hostcache.rpc.client.netcnt", Cluster: clusterNFSClient, Item: 24, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsClient, "net", 0},
	{engine.Row{Name: "hostcache.rpc.client.netudpcnt", Cluster: clusterNFSClient, Item: 25,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsClient, "net", 1},
	{engine.Row{Name: "hostcache.rpc.client.nettcpcnt", Cluster: clusterNFSClient, Item: 26,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsClient, "net", 2},
	{engine.Row{Name: "hostcache.rpc.client.nettcpconn", Cluster: clusterNFSClient, Item: 27,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsClient, "net", 3},
	{engine.Row{Name: "hostcache.rpc.server.rpccnt", Cluster: clusterNFSClient, Item: 30, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "rpc", 0},
	{engine.Row{Name: "hostcache.rpc.server.rpcerr", Cluster: clusterNFSClient, Item: 31, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "rpc", 1},
	{engine.Row{Name: "hostcache.rpc.server.rpcbadfmt", Cluster: clusterNFSClient, Item: 32,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "rpc", 2},
	{engine.Row{Name: "hostcache.rpc.server.rpcbadauth", Cluster: clusterNFSClient, Item: 33,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "rpc", 3},
	{engine.Row{Name: "hostcache.rpc.server.rpcbadclnt", Cluster: clusterNFSClient, Item: 34,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "rpc", 4},
	{engine.Row{Name: "hostcache.rpc.server.rchits", Cluster: clusterNFSClient, Item: 35, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "rc", 0},
	{engine.Row{Name: "hostcache.rpc.server.rcmisses", Cluster: clusterNFSClient, Item: 36, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "rc", 1},
	{engine.Row{Name: "hostcache.rpc.server.rcnocache", Cluster: clusterNFSClient, Item: 37,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "rc", 2},
	{engine.Row{Name: "hostcache.rpc.server.fh_lookup", Cluster: clusterNFSClient, Item: 41,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "fh", 1},
	{engine.Row{Name: "hostcache.rpc.server.fh_stale", Cluster: clusterNFSClient, Item: 42, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "fh", 0},
	{engine.Row{Name: "hostcache.rpc.server.netcnt", Cluster: clusterNFSClient, Item: 44, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "net", 0},
	{engine.Row{Name: "hostcache.rpc.server.netudpcnt", Cluster: clusterNFSClient, Item: 45,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "net", 1},
	{engine.Row{Name: "hostcache.rpc.server.nettcpcnt", Cluster: clusterNFSClient, Item: 46,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "net", 2},
	{engine.Row{Name: "hostcache.rpc.server.nettcpconn", Cluster: clusterNFSClient, Item: 47,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "net", 3},
	{engine.Row{Name: "hostcache.rpc.server.fh_anon", Cluster: clusterNFSClient, Item: 51, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "fh", 2},
	{engine.Row{Name: "hostcache.rpc.server.fh_nocache_dir", Cluster: clusterNFSClient, Item: 52,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "fh", 3},
	{engine.Row{Name: "hostcache.rpc.server.fh_nocache_nondir", Cluster: clusterNFSClient, Item: 53,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "fh", 4},
	{engine.Row{Name: "hostcache.rpc.server.io_read", Cluster: clusterNFSClient, Item: 54, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(), nfsServer, "io", 0},
	{engine.Row{Name: "hostcache.rpc.server.io_write", Cluster: clusterNFSClient, Item: 55, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(), nfsServer, "io", 1},
	{engine.Row{Name: "hostcache.rpc.server.th_cnt", Cluster: clusterNFSClient, Item: 56, Type: cache.TypeU32,
		Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "th", 0},
	{engine.Row{Name: "hostcache.rpc.server.th_fullcnt", Cluster: clusterNFSClient, Item: 57,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "th", 1},
	{engine.Row{Name: "hostcache.rpc.server.ra_size", Cluster: clusterNFSClient, Item: 68, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), nfsServer, "ra", 0},
	{engine.Row{Name: "hostcache.rpc.server.ra_misses", Cluster: clusterNFSClient, Item: 70,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), nfsServer, "ra", 11},
}

// The kernel stopped counting these file-handle figures in 2.6; pmdalinux
// still reads nine numbers from the rc line, which has three, and so
// always shows 0. We show 0 as well while the server file exists.
var nfsZeros = []cache.Desc{
	engine.Row{Name: "hostcache.rpc.server.fh_cached", Cluster: clusterNFSClient, Item: 38, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.rpc.server.fh_valid", Cluster: clusterNFSClient, Item: 39, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.rpc.server.fh_fixup", Cluster: clusterNFSClient, Item: 40, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.rpc.server.fh_concurrent", Cluster: clusterNFSClient, Item: 43,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
}

// rpc.server.ra_hits is the sum of the ra line's ten depth columns.
var nfsRAHits = engine.Row{Name: "hostcache.rpc.server.ra_hits", Cluster: clusterNFSClient, Item: 69,
	Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()

// nfsOps is one protocol version's operation counts on one side: the
// "procN" line's columns per operation, and their sum.
type nfsOps struct {
	reqs, calls cache.Desc
	file        nfsFile
	key         string
	indom       cache.InDomID
}

var nfsOpTables = []nfsOps{
	{engine.Row{Name: "hostcache.nfs.client.reqs", Cluster: clusterNFSClient, Item: 4, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNFSClient}.Desc(),
		engine.Row{Name: "hostcache.nfs.client.calls", Cluster: clusterNFSClient, Item: 1, Type: cache.TypeU32,
			Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
		nfsClient, "proc2", indomNFSClient},
	{engine.Row{Name: "hostcache.nfs.server.reqs", Cluster: clusterNFSClient, Item: 12, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNFSClient}.Desc(),
		engine.Row{Name: "hostcache.nfs.server.calls", Cluster: clusterNFSClient, Item: 50, Type: cache.TypeU32,
			Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
		nfsServer, "proc2", indomNFSClient},
	{engine.Row{Name: "hostcache.nfs3.client.reqs", Cluster: clusterNFSClient, Item: 61, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNFS3}.Desc(),
		engine.Row{Name: "hostcache.nfs3.client.calls", Cluster: clusterNFSClient, Item: 60,
			Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		nfsClient, "proc3", indomNFS3},
	{engine.Row{Name: "hostcache.nfs3.server.reqs", Cluster: clusterNFSClient, Item: 63, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNFS3}.Desc(),
		engine.Row{Name: "hostcache.nfs3.server.calls", Cluster: clusterNFSClient, Item: 62,
			Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		nfsServer, "proc3", indomNFS3},
	{engine.Row{Name: "hostcache.nfs4.client.reqs", Cluster: clusterNFSClient, Item: 65, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNFS4Client}.Desc(),
		engine.Row{Name: "hostcache.nfs4.client.calls", Cluster: clusterNFSClient, Item: 64,
			Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		nfsClient, "proc4", indomNFS4Client},
	// The server's NFSv4 operations are on the proc4ops line.
	{engine.Row{Name: "hostcache.nfs4.server.reqs", Cluster: clusterNFSClient, Item: 67, Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNFS4Server}.Desc(),
		engine.Row{Name: "hostcache.nfs4.server.calls", Cluster: clusterNFSClient, Item: 66,
			Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		nfsServer, "proc4ops", indomNFS4Server},
}

// nfsd's thread pools, from <proc>/fs/nfsd/threads and pool_stats.
var (
	nfsThreadsTotal = engine.Row{Name: "hostcache.nfs.server.threads.total", Cluster: clusterNFSClient,
		Item: 71, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	nfsThreadsPools = engine.Row{Name: "hostcache.nfs.server.threads.pools", Cluster: clusterNFSClient,
		Item: 72, Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	nfsThreadsRequests = engine.Row{Name: "hostcache.nfs.server.threads.requests", Cluster: clusterNFSClient,
		Item: 73, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	nfsThreadsEnqueued = engine.Row{Name: "hostcache.nfs.server.threads.enqueued", Cluster: clusterNFSClient,
		Item: 74, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	nfsThreadsProcessed = engine.Row{Name: "hostcache.nfs.server.threads.processed", Cluster: clusterNFSClient,
		Item: 75, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	nfsThreadsTimedout = engine.Row{Name: "hostcache.nfs.server.threads.timedout", Cluster: clusterNFSClient,
		Item: 76, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
)

// The operations of each version, in the kernel's column order, with
// pmdalinux's instance names; the instance id is the position.
var (
	nfsV2Ops = []string{"null", "getattr", "setattr", "root", "lookup", "readlink", "read", "wrcache", "write",
		"create", "remove", "rename", "link", "symlink", "mkdir", "rmdir", "readdir", "statfs"}
	nfsV3Ops = []string{"null", "getattr", "setattr", "lookup", "access", "readlink", "read", "write", "create",
		"mkdir", "symlink", "mknod", "remove", "rmdir", "rename", "link", "readdir", "readdir+", "statfs",
		"fsinfo", "pathconf", "commit"}
	nfsV4ClientOps = []string{"null", "read", "write", "commit", "open", "open_conf", "open_noat", "open_dgrd",
		"close", "setattr", "fsinfo", "renew", "setclntid", "confirm", "lock", "lockt", "locku", "access",
		"getattr", "lookup", "lookup_root", "remove", "rename", "link", "symlink", "create", "pathconf",
		"statfs", "readlink", "readdir", "server_caps", "delegreturn", "getacl", "setacl", "fs_locations",
		"rel_lkowner", "secinfo", "fsid_present", "exchange_id", "create_ses", "destroy_ses", "sequence",
		"get_lease_t", "reclaim_comp", "layoutget", "getdevinfo", "layoutcommit", "secinfononam",
		"test_stateid", "free_stateid", "getdevlist", "bind_ses", "destroy_clntid", "seek", "allocate",
		"deallocate"}
	// The proc4ops columns, operation 0 first, as pmdalinux's instances
	// 1..71: the NULL procedure (on the proc4 line) is no operation and
	// has no instance.
	nfsV4ServerOps = []string{"op0-unused", "op1-unused", "op2-future", "access", "close", "commit",
		"create", "delegpurge", "delegreturn", "getattr", "getfh", "link", "lock", "lockt", "locku", "lookup",
		"lookup_root", "nverify", "open", "openattr", "open_conf", "open_dgrd", "putfh", "putpubfh",
		"putrootfh", "read", "readdir", "readlink", "remove", "rename", "renew", "restorefh", "savefh",
		"secinfo", "setattr", "setcltid", "setcltidconf", "verify", "write", "rellockowner", "bc_ctl",
		"bind_conn", "exchange_id", "create_ses", "destroy_ses", "free_stateid", "getdirdeleg",
		"getdevinfo", "getdevlist", "layoutcommit", "layoutget", "layoutreturn", "secinfononam", "sequence",
		"set_ssv", "test_stateid", "want_deleg", "destroy_clid", "reclaim_comp", "allocate", "copy",
		"copy_notify", "deallocate", "io_advise", "layouterror", "layoutstats", "offload_cancel",
		"offload_status", "read_plus", "seek", "write_same"}
)
