package network

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// nfsCollector reads the NFS client's and server's RPC statistics,
// <proc>/net/rpc/nfs and nfsd, and nfsd's thread pools, <proc>/fs/nfsd.
// A host without NFS has none of these files: its metrics have no values
// and nothing is logged, that being the normal state of most hosts.
type nfsCollector struct {
	files   [2]*kernel.File // by nfsFile
	threads *kernel.File    // fs/nfsd/threads
	pools   *kernel.File    // fs/nfsd/pool_stats
	lines   [2]map[string][]uint64
	indoms  map[cache.InDomID]*cache.Instances
	buf     []byte
}

// NewNFSCollector names the files below env.Proc.
func NewNFSCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Proc); err != nil {
		return nil, fmt.Errorf("nfs: proc root: %w", err)
	}
	p := func(rel ...string) *kernel.File {
		return kernel.NewFileKept(env.Proc, filepath.Join(append([]string{env.Proc}, rel...)...), env.KeepFiles)
	}
	c := &nfsCollector{
		files:   [2]*kernel.File{p("net", "rpc", "nfs"), p("net", "rpc", "nfsd")},
		threads: p("fs", "nfsd", "threads"), pools: p("fs", "nfsd", "pool_stats"),
		indoms: map[cache.InDomID]*cache.Instances{},
	}
	for id, names := range map[cache.InDomID][]string{indomNFSClient: nfsV2Ops, indomNFS3: nfsV3Ops,
		indomNFS4Client: nfsV4ClientOps, indomNFS4Server: nfsV4ServerOps} {
		list := make([]cache.Instance, len(names))
		for i, n := range names {
			list[i] = cache.Instance{ID: nfsFirstID(id) + uint32(i), Name: n}
		}
		c.indoms[id] = cache.NewInstances(list)
	}
	return c, nil
}

func (c *nfsCollector) Name() string { return "nfs" }

func (c *nfsCollector) Source() cache.Source {
	var metrics []cache.Desc
	for _, s := range nfsScalars {
		metrics = append(metrics, s.desc)
	}
	metrics = append(metrics, nfsZeros...)
	metrics = append(metrics, nfsRAHits, nfsThreadsTotal, nfsThreadsPools, nfsThreadsRequests,
		nfsThreadsEnqueued, nfsThreadsProcessed, nfsThreadsTimedout)
	for _, t := range nfsOpTables {
		metrics = append(metrics, t.reqs, t.calls)
	}
	return cache.Source{Name: c.Name(), Metrics: metrics, InDoms: []cache.InDomDesc{
		{ID: indomNFSClient, Name: "nfs operations"}, {ID: indomNFS3, Name: "nfs3 operations"},
		{ID: indomNFS4Client, Name: "nfs4 client operations"},
		{ID: indomNFS4Server, Name: "nfs4 server operations"},
	}}
}

// Sample reads what exists; a file that is absent is not an error.
func (c *nfsCollector) Sample(b *cache.Builder, _ time.Time) error {
	for id, in := range c.indoms {
		b.SetInDom(id, in)
	}
	var errs []error
	for f := range c.files {
		lines, err := c.readLines(c.files[f])
		c.lines[f] = lines
		if err != nil {
			errs = append(errs, err)
		}
	}
	c.publishScalars(b)
	for _, t := range nfsOpTables {
		c.publishOps(b, t)
	}
	if err := c.publishThreads(b); err != nil {
		errs = append(errs, err)
	}
	return engine.PartialOf(errs, 3)
}

// readLines splits a file into its keyed lines: "net 1 2 3 4" is
// lines["net"] = [1 2 3 4]. nil without the file. Columns that do not
// parse as integers (th's histogram of fractions) end the line's values.
func (c *nfsCollector) readLines(f *kernel.File) (map[string][]uint64, error) {
	var err error
	if c.buf, err = f.Read(c.buf); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	lines := map[string][]uint64{}
	for _, line := range bytes.Split(c.buf, []byte{'\n'}) {
		fields := bytes.Fields(line)
		if len(fields) < 2 {
			continue
		}
		var vals []uint64
		for _, w := range fields[1:] {
			v, err := strconv.ParseUint(string(w), 10, 64)
			if err != nil {
				break
			}
			vals = append(vals, v)
		}
		lines[string(fields[0])] = vals
	}
	return lines, nil
}

// publishScalars sets the single figures of the files that exist.
func (c *nfsCollector) publishScalars(b *cache.Builder) {
	for _, s := range nfsScalars {
		if vals := c.lines[s.file][s.key]; s.column < len(vals) {
			b.SetU64(s.desc.ID, cache.InstNone, vals[s.column])
		}
	}
	server := c.lines[nfsServer]
	if server == nil {
		return
	}
	for _, d := range nfsZeros {
		b.SetU64(d.ID, cache.InstNone, 0)
	}
	if ra := server["ra"]; len(ra) >= 12 {
		var hits uint64
		for _, v := range ra[1:11] {
			hits += v
		}
		b.SetU64(nfsRAHits.ID, cache.InstNone, hits)
	}
}

// publishOps sets one version's operation counts and their sum. A procN
// line is "procN <count> <count values>"; more columns than the table
// knows (a newer kernel) are left out, fewer (an older one) leave the
// rest without values.
func (c *nfsCollector) publishOps(b *cache.Builder, t nfsOps) {
	lines := c.lines[t.file]
	vals, ok := lines[t.key]
	if !ok || len(vals) == 0 {
		return
	}
	counts := vals[1:][:min(int(vals[0]), len(vals)-1)]
	first := nfsFirstID(t.indom)
	end := first + uint32(c.indoms[t.indom].Len())
	var sum uint64
	for i, v := range counts {
		inst := first + uint32(i)
		if inst >= end {
			break
		}
		b.SetU64(t.reqs.ID, inst, v)
		sum += v
	}
	b.SetU64(t.calls.ID, cache.InstNone, sum)
}

// nfsFirstID is the instance id of an operation domain's first column:
// pmdalinux numbers the NFSv4 server's operations from 1, the others
// from 0.
func nfsFirstID(indom cache.InDomID) uint32 {
	if indom == indomNFS4Server {
		return 1
	}
	return 0
}

// publishThreads sets nfsd's thread figures: the thread count, and the
// pools' counters summed (pool_stats is meaningful only while threads run).
func (c *nfsCollector) publishThreads(b *cache.Builder) error {
	var err error
	if c.buf, err = c.threads.Read(c.buf); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	line, _ := kernel.AttrLine(c.buf)
	threads, ok := kernel.ParseDecimal(line)
	if !ok {
		return fmt.Errorf("%s: not a number: %q", c.threads.Path, line)
	}
	b.SetU64(nfsThreadsTotal.ID, cache.InstNone, threads)
	if threads == 0 {
		return nil
	}
	if c.buf, err = c.pools.Read(c.buf); err != nil {
		return err
	}
	var pools uint64
	var sums [4]uint64
	for _, line := range bytes.Split(c.buf, []byte{'\n'}) {
		f := bytes.Fields(line)
		if len(f) < 5 || f[0][0] == '#' {
			continue
		}
		ok := true
		var v [4]uint64
		for i := range v {
			v[i], err = strconv.ParseUint(string(f[i+1]), 10, 64)
			ok = ok && err == nil
		}
		if !ok {
			continue
		}
		pools++
		for i := range sums {
			sums[i] += v[i]
		}
	}
	if pools == 0 {
		return fmt.Errorf("%s: no pool", c.pools.Path)
	}
	b.SetU64(nfsThreadsPools.ID, cache.InstNone, pools)
	for i, d := range []cache.Desc{nfsThreadsRequests, nfsThreadsEnqueued, nfsThreadsProcessed,
		nfsThreadsTimedout} {
		b.SetU64(d.ID, cache.InstNone, sums[i])
	}
	return nil
}
