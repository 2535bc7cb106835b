package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// testdata/nfs t0 and t1: a host that is both NFS client (v3 and v4) and
// server, every operation count i*seed mod 97 (t1 adds 10 to every fifth
// column from the second); old: an older client-only kernel with proc2 and
// a 35-column proc4 line. The kernel's proc lines start with their column
// count.
func TestNFSValues(t *testing.T) {
	h := newHarness(t, NewNFSCollector, "nfs/t0/proc")
	h.mustSample(t0)
	h.wantU64("rpc.client.rpccnt", cache.InstNone, 1520)
	h.wantU64("rpc.client.rpcretrans", cache.InstNone, 2)
	h.wantU64("nfs3.client.reqs", 1, 7) // getattr
	h.wantU64("nfs3.client.reqs", 21, 50)
	h.wantU64("nfs3.client.calls", cache.InstNone, 841)
	h.wantU64("nfs4.client.calls", cache.InstNone, 2584) // the 56 operations known, of 59 columns
	h.wantAbsent("nfs.client.reqs", 1)                   // no proc2 line on this kernel
	h.wantU64("rpc.server.rcmisses", cache.InstNone, 35)
	h.wantU64("rpc.server.fh_stale", cache.InstNone, 3)
	h.wantU64("rpc.server.fh_cached", cache.InstNone, 0)
	h.wantU64("rpc.server.io_read", cache.InstNone, 409600)
	h.wantU64("rpc.server.th_cnt", cache.InstNone, 8)
	h.wantU64("rpc.server.ra_size", cache.InstNone, 32)
	h.wantU64("rpc.server.ra_hits", cache.InstNone, 1+2+3+4)
	h.wantU64("rpc.server.ra_misses", cache.InstNone, 5)
	h.wantU64("rpc.server.nettcpconn", cache.InstNone, 4)
	h.wantU64("nfs3.server.reqs", 4, 52)
	h.wantAbsent("nfs4.server.reqs", 0) // no NULL procedure: pmdalinux's ids start at 1
	h.wantU64("nfs4.server.reqs", 1, 0) // op0-unused: proc4ops column 0
	h.wantU64("nfs4.server.reqs", 2, 17)
	h.wantU64("nfs4.server.calls", cache.InstNone, 3348) // 71 operations known, of 72 columns
	h.wantU64("nfs.server.threads.total", cache.InstNone, 8)
	h.wantU64("nfs.server.threads.pools", cache.InstNone, 2)
	h.wantU64("nfs.server.threads.requests", cache.InstNone, 1555+100)
	h.wantU64("nfs.server.threads.timedout", cache.InstNone, 2)

	h.use("nfs/t1/proc")
	h.mustSample(t1)
	h.wantFloat("rate.nfs3.client.calls", cache.InstNone, 25) // (891 - 841) / 2 s
	h.wantFloat("rate.nfs3.client.reqs", 1, 5)
	h.wantFloat("rate.rpc.client.rpccnt", cache.InstNone, 5)
}

func TestNFSOlderClientOnly(t *testing.T) {
	h := newHarness(t, NewNFSCollector, "nfs/old/proc")
	if err := h.sample(t0); err != nil {
		t.Fatalf("a client-only host: %v", err)
	}
	h.wantU64("nfs.client.reqs", 1, 3)
	h.wantU64("nfs.client.calls", cache.InstNone, 459)
	h.wantU64("nfs4.client.calls", cache.InstNone, 1190) // 35 columns, all known
	h.wantU64("nfs4.client.reqs", 34, 68)
	h.wantAbsent("nfs4.client.reqs", 35)
	h.wantAbsent("rpc.server.rpccnt", cache.InstNone)
	h.wantAbsent("rpc.server.fh_cached", cache.InstNone)
	h.wantAbsent("nfs.server.threads.total", cache.InstNone)
}

// A host without NFS (the usual one): no values, and no error to log.
func TestNFSAbsent(t *testing.T) {
	h := newHarness(t, NewNFSCollector, "proc-t0")
	if err := h.sample(t0); err != nil {
		t.Fatalf("a host without NFS: %v", err)
	}
	h.wantAbsent("rpc.client.rpccnt", cache.InstNone)
	h.wantAbsent("nfs3.client.calls", cache.InstNone)
}
