package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// startSynthetic runs our agent on pipes against a synthetic tree.
func startSynthetic(agent, dir string, extraConf string, keep bool) (*driver.Agent, error) {
	own := filepath.Join(dir, "agent") // made with the tree (genproc.go)
	if err := os.MkdirAll(own, 0o755); err != nil {
		return nil, err
	}
	conf := filepath.Join(own, "hostcache.conf")
	// keep_files: the generated files stand in for procfs and sysfs, whose
	// files the agent keeps open; not where a run replaces a file (a FIFO
	// for a stalled source), which a kept fd would never see.
	text := "id_dir = " + own + "\n"
	if keep {
		text += "keep_files = yes\n"
	}
	if err := os.WriteFile(conf, []byte(text+extraConf), 0o644); err != nil {
		return nil, err
	}
	a, err := driver.Start(agent,
		[]string{"-d", "396", "-U", "root", "-c", conf, "-l", filepath.Join(own, "agent.log"),
			"-r", filepath.Join(dir, "proc"), "-s", filepath.Join(dir, "sys")}, os.Stderr)
	if err != nil {
		return nil, err
	}
	if err := a.Send((&pmda.Profile{}).Append(nil)); err != nil {
		a.Kill()
		return nil, err
	}
	return a, nil
}

// fetchValues fetches pmids once and decodes the reply.
func fetchValues(a *driver.Agent, pmids []uint32) (pmda.Result, error) {
	var res pmda.Result
	h, pdu, err := a.Request((&pmda.Fetch{PMIDs: pmids}).Append(nil))
	if err != nil {
		return res, err
	}
	if h.Type != pmda.TypeResult {
		return res, fmt.Errorf("FETCH answered with %s", h.Type)
	}
	// Payloads point into the PDU: keep it past the agent's next reply.
	return res, res.Decode(append([]byte(nil), pdu...))
}

// serviceTimes replays a FETCH n times and returns the sorted latencies.
func serviceTimes(a *driver.Agent, pmids []uint32, n int) ([]time.Duration, error) {
	fetch := (&pmda.Fetch{PMIDs: pmids}).Append(nil)
	lat := make([]time.Duration, n)
	for i := range lat {
		d, err := request(a, fetch)
		if err != nil {
			return nil, err
		}
		lat[i] = d
	}
	slices.Sort(lat)
	return lat, nil
}

// serviceFor replays a FETCH for a duration and returns sorted latencies.
func serviceFor(a *driver.Agent, pmids []uint32, d time.Duration) ([]time.Duration, error) {
	fetch := (&pmda.Fetch{PMIDs: pmids}).Append(nil)
	var lat []time.Duration
	for end := time.Now().Add(d); time.Now().Before(end); {
		x, err := request(a, fetch)
		if err != nil {
			return nil, err
		}
		lat = append(lat, x)
	}
	slices.Sort(lat)
	return lat, nil
}

func pct(lat []time.Duration, p float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	return lat[min(len(lat)-1, int(float64(len(lat))*p))]
}

// instanceValues returns one metric's values by instance name.
func instanceValues(a *driver.Agent, pmid, indom uint32) (map[string]pmda.ResultValue, error) {
	res, err := fetchValues(a, []uint32{pmid})
	if err != nil {
		return nil, err
	}
	h, pdu, err := a.Request((&pmda.InstanceReq{InDom: indom, Inst: pmda.InstNull}).Append(nil))
	if err != nil || h.Type != pmda.TypeInstance {
		return nil, fmt.Errorf("instance request: %v %v", h.Type, err)
	}
	_, insts, err := pmda.DecodeInstance(pdu)
	if err != nil {
		return nil, err
	}
	names := map[uint32]string{}
	for _, in := range insts {
		names[in.Inst] = in.Name
	}
	out := map[string]pmda.ResultValue{}
	for _, v := range res.Sets[0].Values {
		out[names[v.Inst]] = v
	}
	return out, nil
}
