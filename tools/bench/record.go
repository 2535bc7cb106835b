package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// runRecord measures fetch service time while the flight recorder writes
// archives. Two agents run on identical generated trees (the 1x scale
// host); in one, a store asks for the whole history as an archive again
// as soon as the last is written. Fetches alternate between the two, so
// both see the same noise from a shared machine.
func runRecord(agent, pmnsPath string, warm, d time.Duration) (string, error) {
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
	rec, err := newTreeAgent(agent, "record_dir = $DIR/archives\nrecord_min_gap = 0\n")
	if err != nil {
		return "", err
	}
	defer rec.close()
	// The agent stores only for users it allows: say, as pmcd would, that
	// the client asking (0, as every PDU here is from) is root.
	for _, key := range []uint32{pmda.AttrUserID, pmda.AttrGroupID} {
		if err := rec.a.Send((&pmda.Attr{From: 0, Key: key, Value: []byte("0\x00")}).Append(nil)); err != nil {
			return "", err
		}
	}
	time.Sleep(warm) // a history to write
	store := pmda.AppendResult(nil, 0, []pmda.ValueSet{{PMID: pmns["hostcache.control.record.seconds"],
		Type: cache.TypeU32, Values: []cache.Value{cache.U32Value(cache.InstNone, 900)}}})
	fetch := (&pmda.Fetch{PMIDs: req}).Append(nil)
	var baseLat, recLat []time.Duration
	writing, stores := 0, 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		if len(recLat)%50 == 0 {
			// Ask again; while an archive is being written the answer is
			// PM_ERR_AGAIN. Either way the store is not a fetch timed here.
			_, reply, err := rec.a.Request(store)
			if err != nil {
				return "", err
			}
			var e pmda.ErrorPDU
			if err := e.Decode(reply); err != nil {
				return "", err
			}
			stores++
			if e.Code == pmda.ErrAgain {
				writing++
			} else if e.Code != 0 {
				return "", fmt.Errorf("store answered %v", e.Code)
			}
		}
		x, err := request(base.a, fetch)
		if err != nil {
			return "", err
		}
		y, err := request(rec.a, fetch)
		if err != nil {
			return "", err
		}
		baseLat, recLat = append(baseLat, x), append(recLat, y)
	}
	slices.Sort(baseLat)
	slices.Sort(recLat)
	archives, _ := filepath.Glob(filepath.Join(rec.dir, "archives", "*.meta"))
	var bytes int64
	files, _ := filepath.Glob(filepath.Join(rec.dir, "archives", "*"))
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			bytes += fi.Size()
		}
	}
	var b strings.Builder
	b.WriteString("## Fetch latency while the flight recorder writes\n\n")
	fmt.Fprintf(&b, "Two agents run on identical 1x trees, with %s of history each.\n"+
		"One is asked for its whole history as an archive again and again.\n", warm)
	fmt.Fprintf(&b, "Of %d stores, %d found it still writing: %d archives, %.1f MB written in %s.\n",
		stores, writing, len(archives), float64(bytes)/1e6, d)
	b.WriteString("Fetches of every fast source's metrics alternate between the two.\n\n")
	b.WriteString("| agent | fetches | p50 | p99 | p99.9 |\n|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		lat  []time.Duration
	}{{"idle", baseLat}, {"writing archives", recLat}} {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", r.name, len(r.lat), us(pct(r.lat, .5)),
			us(pct(r.lat, .99)), us(pct(r.lat, .999)))
	}
	p99 := ratio(pct(recLat, .99), pct(baseLat, .99))
	fmt.Fprintf(&b, "\np99 writing / idle: %.2f (target ≤ 1.20: %s)\n", p99, verdict(p99 <= 1.2))
	return b.String(), nil
}
