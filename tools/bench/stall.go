package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// stallRequest is fetched throughout the stall run: every fast source but
// the stalled one.
var stallRequest = []string{"hostcache.kernel.all.cpu.user", "hostcache.kernel.percpu.cpu.idle",
	"hostcache.mem.util.free", "hostcache.disk.dev.read", "hostcache.network.interface.in.bytes"}

// runStall measures fetch service time while one collector is stuck in a
// read that never returns (/proc/loadavg replaced by a FIFO nobody writes).
// Two agents run side by side on identical trees, one stalled and one not,
// and fetches alternate between them, so both see the same noise from a
// shared machine; the stall shows in the stalled agent's self-metrics.
func runStall(agent, pmnsPath string, d time.Duration) (string, error) {
	pmns, err := loadPMNS(pmnsPath, 396)
	if err != nil {
		return "", err
	}
	req, err := pmidsOf(pmns, stallRequest)
	if err != nil {
		return "", err
	}
	base, err := newStallAgent(agent)
	if err != nil {
		return "", err
	}
	defer base.close()
	stuck, err := newStallAgent(agent)
	if err != nil {
		return "", err
	}
	defer stuck.close()
	time.Sleep(2 * time.Second)
	if err := stuck.stall(); err != nil {
		return "", err
	}
	baseLat, stuckLat, err := alternate(base, stuck, req, d)
	if err != nil {
		return "", err
	}
	st, err := stuck.inspect(pmns)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Fault isolation: one collector stalled\n\n")
	fmt.Fprintf(&b, "Two agents run on identical trees.\n"+
		"In one, the load collector's read of /proc/loadavg blocks for %s (a FIFO with no writer).\n", d)
	b.WriteString("Fetches of the other collectors' metrics alternate between the two.\n\n")
	b.WriteString("| agent | fetches | p50 | p99 | p99.9 |\n|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		lat  []time.Duration
	}{{"unstalled", baseLat}, {"load collector stalled", stuckLat}} {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", r.name, len(r.lat), us(pct(r.lat, .5)),
			us(pct(r.lat, .99)), us(pct(r.lat, .999)))
	}
	p99 := ratio(pct(stuckLat, .99), pct(baseLat, .99))
	fmt.Fprintf(&b, "\np99 stalled / unstalled: %.2f (target ≤ 1.20: %s)\n\n", p99, verdict(p99 <= 1.2))
	fmt.Fprintf(&b, "During the stall: load age %s, cpu age %s; kernel.all.load values %d (withheld once stale); "+
		"after the read returned: %d values, load samples %d -> %d.\n", st.loadAge, st.cpuAge,
		st.loadValsDuring, st.loadValsAfter, st.samplesDuring, st.samplesAfter)
	return b.String(), nil
}

type stallState struct {
	loadAge, cpuAge               time.Duration
	loadValsDuring, loadValsAfter int
	samplesDuring, samplesAfter   uint64
}

// stallAgent is one agent on its own generated tree.
type stallAgent struct {
	dir string
	a   *driver.Agent
}

func newStallAgent(agent string) (*stallAgent, error) { return newTreeAgent(agent, "") }

// newTreeAgent starts an agent on a generated tree of its own, with extra
// configuration lines.
func newTreeAgent(agent, extraConf string) (*stallAgent, error) {
	dir, err := treeDir("hostcache-stall")
	if err != nil {
		return nil, err
	}
	if err := generateTree(dir, scaleBase); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	a, err := startSynthetic(agent, dir, strings.ReplaceAll(extraConf, "$DIR", dir), false)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &stallAgent{dir: dir, a: a}, nil
}

func (s *stallAgent) close() {
	s.a.Kill()
	os.RemoveAll(s.dir)
}

func (s *stallAgent) loadavg() string { return filepath.Join(s.dir, "proc", "loadavg") }

// stall replaces /proc/loadavg by a FIFO: the next read blocks.
func (s *stallAgent) stall() error {
	os.Remove(s.loadavg())
	return syscall.Mkfifo(s.loadavg(), 0o644)
}

// alternate fetches req from a and b in turn for d.
func alternate(a, b *stallAgent, req []uint32, d time.Duration) ([]time.Duration, []time.Duration, error) {
	fetch := (&pmda.Fetch{PMIDs: req}).Append(nil)
	var la, lb []time.Duration
	for end := time.Now().Add(d); time.Now().Before(end); {
		x, err := request(a.a, fetch)
		if err != nil {
			return nil, nil, err
		}
		y, err := request(b.a, fetch)
		if err != nil {
			return nil, nil, err
		}
		la, lb = append(la, x), append(lb, y)
	}
	slices.Sort(la)
	slices.Sort(lb)
	return la, lb, nil
}

// inspect reads the stall from the self-metrics, unblocks the reader, and
// checks the collector recovers.
func (s *stallAgent) inspect(pmns map[string]uint32) (stallState, error) {
	var st stallState
	ages, err := instanceValues(s.a, pmns["hostcache.control.collector.age"], 396<<22|0)
	if err != nil {
		return st, err
	}
	st.loadAge = time.Duration(beUint64(ages["load"].Payload)) * time.Millisecond
	st.cpuAge = time.Duration(beUint64(ages["cpu"].Payload)) * time.Millisecond
	samples, _ := instanceValues(s.a, pmns["hostcache.control.collector.samples"], 396<<22|0)
	st.samplesDuring = beUint64(samples["load"].Payload)
	res, _ := fetchValues(s.a, []uint32{pmns["hostcache.kernel.all.load"]})
	st.loadValsDuring = int(res.Sets[0].NumVal)
	// Unblock the reader: open the FIFO for writing and give it a line,
	// then put a regular file back so later samples succeed.
	line := []byte("0.50 0.40 0.30 2/300 12345\n")
	if err := os.WriteFile(s.loadavg(), line, 0o644); err != nil {
		return st, err
	}
	os.Remove(s.loadavg())
	if err := os.WriteFile(s.loadavg(), line, 0o644); err != nil {
		return st, err
	}
	time.Sleep(2500 * time.Millisecond)
	res, _ = fetchValues(s.a, []uint32{pmns["hostcache.kernel.all.load"]})
	st.loadValsAfter = int(res.Sets[0].NumVal)
	samples, _ = instanceValues(s.a, pmns["hostcache.control.collector.samples"], 396<<22|0)
	st.samplesAfter = beUint64(samples["load"].Payload)
	return st, nil
}
