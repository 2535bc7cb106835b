package main

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// e2eResult is one fetchloop run through the real pmcd.
type e2eResult struct {
	clients, errors int
	fetches         int
	p50, p99        float64 // microseconds
	perSec          float64
}

// fetchloop runs the libpcp client: n fetches per client of names.
func fetchloop(bin string, clients, n int, names []string) (e2eResult, error) {
	args := append([]string{"-n", strconv.Itoa(n), "-c", strconv.Itoa(clients)}, names...)
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		return e2eResult{}, fmt.Errorf("fetchloop: %v: %s", err, out)
	}
	kv := map[string]float64{}
	for _, f := range strings.Fields(string(out)) {
		k, v, ok := strings.Cut(f, "=")
		if ok {
			kv[k], _ = strconv.ParseFloat(v, 64)
		}
	}
	return e2eResult{clients: int(kv["clients"]), errors: int(kv["errors"]), fetches: int(kv["fetches"]),
		p50: kv["p50_us"], p99: kv["p99_us"], perSec: kv["fetches_per_s"]}, nil
}
