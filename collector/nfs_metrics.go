package collector

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
	{engine.Metric("hostcache.rpc.client.rpccnt", clusterNFSClient, 20, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "rpc", 0},
	{engine.Metric("hostcache.rpc.client.rpcretrans", clusterNFSClient, 21, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "rpc", 1},
	{engine.Metric("hostcache.rpc.client.rpcauthrefresh", clusterNFSClient, 22, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "rpc", 2},
	{engine.Metric("hostcache.rpc.client.netcnt", clusterNFSClient, 24, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "net", 0},
	{engine.Metric("hostcache.rpc.client.netudpcnt", clusterNFSClient, 25, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "net", 1},
	{engine.Metric("hostcache.rpc.client.nettcpcnt", clusterNFSClient, 26, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "net", 2},
	{engine.Metric("hostcache.rpc.client.nettcpconn", clusterNFSClient, 27, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsClient, "net", 3},
	{engine.Metric("hostcache.rpc.server.rpccnt", clusterNFSClient, 30, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rpc", 0},
	{engine.Metric("hostcache.rpc.server.rpcerr", clusterNFSClient, 31, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rpc", 1},
	{engine.Metric("hostcache.rpc.server.rpcbadfmt", clusterNFSClient, 32, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rpc", 2},
	{engine.Metric("hostcache.rpc.server.rpcbadauth", clusterNFSClient, 33, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rpc", 3},
	{engine.Metric("hostcache.rpc.server.rpcbadclnt", clusterNFSClient, 34, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rpc", 4},
	{engine.Metric("hostcache.rpc.server.rchits", clusterNFSClient, 35, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rc", 0},
	{engine.Metric("hostcache.rpc.server.rcmisses", clusterNFSClient, 36, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rc", 1},
	{engine.Metric("hostcache.rpc.server.rcnocache", clusterNFSClient, 37, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "rc", 2},
	{engine.Metric("hostcache.rpc.server.fh_lookup", clusterNFSClient, 41, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "fh", 1},
	{engine.Metric("hostcache.rpc.server.fh_stale", clusterNFSClient, 42, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "fh", 0},
	{engine.Metric("hostcache.rpc.server.netcnt", clusterNFSClient, 44, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "net", 0},
	{engine.Metric("hostcache.rpc.server.netudpcnt", clusterNFSClient, 45, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "net", 1},
	{engine.Metric("hostcache.rpc.server.nettcpcnt", clusterNFSClient, 46, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "net", 2},
	{engine.Metric("hostcache.rpc.server.nettcpconn", clusterNFSClient, 47, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "net", 3},
	{engine.Metric("hostcache.rpc.server.fh_anon", clusterNFSClient, 51, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "fh", 2},
	{engine.Metric("hostcache.rpc.server.fh_nocache_dir", clusterNFSClient, 52, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "fh", 3},
	{engine.Metric("hostcache.rpc.server.fh_nocache_nondir", clusterNFSClient, 53, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "fh", 4},
	{engine.Metric("hostcache.rpc.server.io_read", clusterNFSClient, 54, cache.TypeU32, cache.SemCounter, cache.UnitsByte, cache.InDomNone), nfsServer, "io", 0},
	{engine.Metric("hostcache.rpc.server.io_write", clusterNFSClient, 55, cache.TypeU32, cache.SemCounter, cache.UnitsByte, cache.InDomNone), nfsServer, "io", 1},
	{engine.Metric("hostcache.rpc.server.th_cnt", clusterNFSClient, 56, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone), nfsServer, "th", 0},
	{engine.Metric("hostcache.rpc.server.th_fullcnt", clusterNFSClient, 57, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "th", 1},
	{engine.Metric("hostcache.rpc.server.ra_size", clusterNFSClient, 68, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "ra", 0},
	{engine.Metric("hostcache.rpc.server.ra_misses", clusterNFSClient, 70, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone), nfsServer, "ra", 11},
}

// The kernel stopped counting these file-handle figures in 2.6; pmdalinux
// still reads nine numbers from the rc line, which has three, and so
// always shows 0. We show 0 as well while the server file exists.
var nfsZeros = []cache.Desc{
	engine.Metric("hostcache.rpc.server.fh_cached", clusterNFSClient, 38, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.rpc.server.fh_valid", clusterNFSClient, 39, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.rpc.server.fh_fixup", clusterNFSClient, 40, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.rpc.server.fh_concurrent", clusterNFSClient, 43, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
}

// rpc.server.ra_hits is the sum of the ra line's ten depth columns.
var nfsRAHits = engine.Metric("hostcache.rpc.server.ra_hits", clusterNFSClient, 69, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone)

// nfsOps is one protocol version's operation counts on one side: the
// "procN" line's columns per operation, and their sum.
type nfsOps struct {
	reqs, calls cache.Desc
	file        nfsFile
	key         string
	indom       cache.InDomID
}

var nfsOpTables = []nfsOps{
	{engine.Metric("hostcache.nfs.client.reqs", clusterNFSClient, 4, cache.TypeU32, cache.SemCounter, cache.UnitsCount, indomNFSClient),
		engine.Metric("hostcache.nfs.client.calls", clusterNFSClient, 1, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
		nfsClient, "proc2", indomNFSClient},
	{engine.Metric("hostcache.nfs.server.reqs", clusterNFSClient, 12, cache.TypeU32, cache.SemCounter, cache.UnitsCount, indomNFSClient),
		engine.Metric("hostcache.nfs.server.calls", clusterNFSClient, 50, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
		nfsServer, "proc2", indomNFSClient},
	{engine.Metric("hostcache.nfs3.client.reqs", clusterNFSClient, 61, cache.TypeU32, cache.SemCounter, cache.UnitsCount, indomNFS3),
		engine.Metric("hostcache.nfs3.client.calls", clusterNFSClient, 60, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
		nfsClient, "proc3", indomNFS3},
	{engine.Metric("hostcache.nfs3.server.reqs", clusterNFSClient, 63, cache.TypeU32, cache.SemCounter, cache.UnitsCount, indomNFS3),
		engine.Metric("hostcache.nfs3.server.calls", clusterNFSClient, 62, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
		nfsServer, "proc3", indomNFS3},
	{engine.Metric("hostcache.nfs4.client.reqs", clusterNFSClient, 65, cache.TypeU32, cache.SemCounter, cache.UnitsCount, indomNFS4Client),
		engine.Metric("hostcache.nfs4.client.calls", clusterNFSClient, 64, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
		nfsClient, "proc4", indomNFS4Client},
	// The server's NFSv4 operations are on the proc4ops line.
	{engine.Metric("hostcache.nfs4.server.reqs", clusterNFSClient, 67, cache.TypeU32, cache.SemCounter, cache.UnitsCount, indomNFS4Server),
		engine.Metric("hostcache.nfs4.server.calls", clusterNFSClient, 66, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
		nfsServer, "proc4ops", indomNFS4Server},
}

// nfsd's thread pools, from <proc>/fs/nfsd/threads and pool_stats.
var (
	nfsThreadsTotal     = engine.Metric("hostcache.nfs.server.threads.total", clusterNFSClient, 71, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	nfsThreadsPools     = engine.Metric("hostcache.nfs.server.threads.pools", clusterNFSClient, 72, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	nfsThreadsRequests  = engine.Metric("hostcache.nfs.server.threads.requests", clusterNFSClient, 73, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	nfsThreadsEnqueued  = engine.Metric("hostcache.nfs.server.threads.enqueued", clusterNFSClient, 74, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	nfsThreadsProcessed = engine.Metric("hostcache.nfs.server.threads.processed", clusterNFSClient, 75, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	nfsThreadsTimedout  = engine.Metric("hostcache.nfs.server.threads.timedout", clusterNFSClient, 76, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
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
