package collector

import (
	"bufio"
	"bytes"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Each node's maximum memory bandwidth in MB/s, pmdalinux's item 38 of its
// cluster 36: not measured, but what an administrator wrote in
// $PCP_PMDAS_DIR/linux/bandwidth.conf, the file pmdalinux reads (see its
// samplebandwidth.conf): a "Version:1.0" line, then "nodeN:MBps" lines.
// A node without a positive figure has no value, as in pmdalinux.
var numaMaxBandwidth = engine.Row{Name: "hostcache.mem.numa.max_bandwidth", Cluster: clusterNUMA, Item: 38,
	Type: cache.TypeDouble, Sem: cache.SemDiscrete,
	Units: cache.MakeUnits(1, -1, 0, cache.SpaceMByte, cache.TimeSec, 0), InDom: indomNUMA}.Desc()

// bandwidthCheck is how often the file is looked at: a stat, and a read
// only when it changed.
const bandwidthCheck = time.Minute

// bandwidthEntry is a "nodeN:figure" line; node is -1 when the name is
// not a node's.
type bandwidthEntry struct {
	node int
	mbps float64
}

// numaBandwidth holds the file's lines as last read.
type numaBandwidth struct {
	path    string
	checked time.Time   // the last stat
	stamp   os.FileInfo // what it found; nil when the file could not be read
	entries []bandwidthEntry
	reads   int // how often the file was read, for the tests
}

// newNUMABandwidth reads the file named by the environment, as pmdalinux
// finds it through pmGetConfig (pmcd passes PCP_PMDAS_DIR on).
func newNUMABandwidth() numaBandwidth {
	dir := os.Getenv("PCP_PMDAS_DIR")
	if dir == "" {
		dir = "/var/lib/pcp/pmdas"
	}
	w := numaBandwidth{path: filepath.Join(dir, "linux", "bandwidth.conf")}
	w.reload()
	return w
}

// publish sets the figure of each online node, after looking at the file
// if bandwidthCheck has passed.
func (w *numaBandwidth) publish(b *cache.Builder, now time.Time, nodes []int) {
	if now.Sub(w.checked) >= bandwidthCheck || now.Before(w.checked) {
		w.checked = now
		if st, err := os.Stat(w.path); !sameStamp(st, err, w.stamp) {
			w.reload()
		}
	}
	for node, mbps := range w.values(nodes) {
		b.SetDouble(numaMaxBandwidth.ID, uint32(node), mbps)
	}
}

// values yields the figure of each of nodes the file gives one: as in
// pmdalinux, a node it does not know ends the list, a node's last line
// wins and a figure of 0 is none.
func (w *numaBandwidth) values(nodes []int) iter.Seq2[int, float64] {
	return func(yield func(int, float64) bool) {
		known := slices.IndexFunc(w.entries,
			func(e bandwidthEntry) bool { return !slices.Contains(nodes, e.node) })
		if known < 0 {
			known = len(w.entries)
		}
		for i, e := range w.entries[:known] {
			later := slices.ContainsFunc(w.entries[i+1:known],
				func(l bandwidthEntry) bool { return l.node == e.node })
			if e.mbps > 0 && !later && !yield(e.node, e.mbps) {
				return
			}
		}
	}
}

// sameStamp reports whether a stat finds the file as it was last read.
func sameStamp(st os.FileInfo, err error, old os.FileInfo) bool {
	if err != nil || old == nil {
		return err != nil && old == nil
	}
	return os.SameFile(st, old) && st.ModTime().Equal(old.ModTime()) && st.Size() == old.Size()
}

// reload reads the file; one missing or unreadable has no entries.
func (w *numaBandwidth) reload() {
	w.reads++
	w.stamp, w.entries = nil, nil
	data, err := kernel.ReadFile(w.path)
	if err != nil {
		return
	}
	if st, err := os.Stat(w.path); err == nil {
		w.stamp = st
	}
	w.entries = parseBandwidth(data)
}

// parseBandwidth reads the lines pmdalinux reads, up to the first it
// cannot: comments start with '#', a "Version:1.0" line comes first, a
// node line is "name:figure". Unlike pmdalinux, whose whitespace
// skipping does nothing, blank lines and spaces before a name are let
// through: its own sample file has a blank line after the version.
func parseBandwidth(data []byte) []bandwidthEntry {
	var entries []bandwidthEntry
	version := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " \t\r\v\f")
		switch {
		case strings.HasPrefix(sc.Text(), "#") || line == "":
			continue
		case strings.Contains(line, "Version"):
			name, v, ok := strings.Cut(line, ":")
			if !ok || !strings.HasPrefix(name, "Version") ||
				!strings.HasPrefix(strings.TrimLeft(v, " \t"), "1.0") {
				return entries
			}
			version = true
			continue
		}
		name, v, ok := strings.Cut(line, ":")
		if !version || !ok {
			return entries
		}
		entries = append(entries, bandwidthEntry{node: nodeNumber(name), mbps: leadingFloat(v)})
	}
	return entries
}

// nodeNumber is N of "nodeN" written as the kernel writes it, else -1.
func nodeNumber(name string) int {
	digits, ok := strings.CutPrefix(name, "node")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 0 || strconv.Itoa(n) != digits {
		return -1
	}
	return n
}

// leadingFloat is the number at the start of s, 0 when there is none,
// as C's atof reads it.
func leadingFloat(s string) float64 {
	s = strings.TrimLeft(s, " \t\r\v\f")
	end := 0
	for end < len(s) && strings.IndexByte("+-.0123456789eE", s[end]) >= 0 {
		end++
	}
	for ; end > 0; end-- {
		if v, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return v
		}
	}
	return 0
}
