package network

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// testdata/nfs t0 and t1: a host that is both NFS client (v3 and v4) and
// server, every operation count i*seed mod 97 (t1 adds 10 to every fifth
// column from the second); old: an older client-only kernel with proc2 and
// a 35-column proc4 line. The kernel's proc lines start with their column
// count.
func TestNFSValues(t *testing.T) {
	h := collectortest.NewHarness(t, NewNFSCollector, "nfs/t0/proc")
	h.MustSample(t0)
	h.WantU64("rpc.client.rpccnt", cache.InstNone, 1520)
	h.WantU64("rpc.client.rpcretrans", cache.InstNone, 2)
	h.WantU64("nfs3.client.reqs", 1, 7) // getattr
	h.WantU64("nfs3.client.reqs", 21, 50)
	h.WantU64("nfs3.client.calls", cache.InstNone, 841)
	h.WantU64("nfs4.client.calls", cache.InstNone, 2584) // the 56 operations known, of 59 columns
	h.WantAbsent("nfs.client.reqs", 1)                   // no proc2 line on this kernel
	h.WantU64("rpc.server.rcmisses", cache.InstNone, 35)
	h.WantU64("rpc.server.fh_stale", cache.InstNone, 3)
	h.WantU64("rpc.server.fh_cached", cache.InstNone, 0)
	h.WantU64("rpc.server.io_read", cache.InstNone, 409600)
	h.WantU64("rpc.server.th_cnt", cache.InstNone, 8)
	h.WantU64("rpc.server.ra_size", cache.InstNone, 32)
	h.WantU64("rpc.server.ra_hits", cache.InstNone, 1+2+3+4)
	h.WantU64("rpc.server.ra_misses", cache.InstNone, 5)
	h.WantU64("rpc.server.nettcpconn", cache.InstNone, 4)
	h.WantU64("nfs3.server.reqs", 4, 52)
	h.WantAbsent("nfs4.server.reqs", 0) // no NULL procedure: pmdalinux's ids start at 1
	h.WantU64("nfs4.server.reqs", 1, 0) // op0-unused: proc4ops column 0
	h.WantU64("nfs4.server.reqs", 2, 17)
	h.WantU64("nfs4.server.calls", cache.InstNone, 3348) // 71 operations known, of 72 columns
	h.WantU64("nfs.server.threads.total", cache.InstNone, 8)
	h.WantU64("nfs.server.threads.pools", cache.InstNone, 2)
	h.WantU64("nfs.server.threads.requests", cache.InstNone, 1555+100)
	h.WantU64("nfs.server.threads.timedout", cache.InstNone, 2)

	h.Use("nfs/t1/proc")
	h.MustSample(t1)
	h.WantFloat("rate.nfs3.client.calls", cache.InstNone, 25) // (891 - 841) / 2 s
	h.WantFloat("rate.nfs3.client.reqs", 1, 5)
	h.WantFloat("rate.rpc.client.rpccnt", cache.InstNone, 5)
}

func TestNFSOlderClientOnly(t *testing.T) {
	h := collectortest.NewHarness(t, NewNFSCollector, "nfs/old/proc")
	if err := h.Sample(t0); err != nil {
		t.Fatalf("a client-only host: %v", err)
	}
	h.WantU64("nfs.client.reqs", 1, 3)
	h.WantU64("nfs.client.calls", cache.InstNone, 459)
	h.WantU64("nfs4.client.calls", cache.InstNone, 1190) // 35 columns, all known
	h.WantU64("nfs4.client.reqs", 34, 68)
	h.WantAbsent("nfs4.client.reqs", 35)
	h.WantAbsent("rpc.server.rpccnt", cache.InstNone)
	h.WantAbsent("rpc.server.fh_cached", cache.InstNone)
	h.WantAbsent("nfs.server.threads.total", cache.InstNone)
}

// A host without NFS (the usual one): no values, and no error to log.
func TestNFSAbsent(t *testing.T) {
	h := collectortest.NewHarness(t, NewNFSCollector, "proc-t0")
	if err := h.Sample(t0); err != nil {
		t.Fatalf("a host without NFS: %v", err)
	}
	h.WantAbsent("rpc.client.rpccnt", cache.InstNone)
	h.WantAbsent("nfs3.client.calls", cache.InstNone)
}
