package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// loadPMNS reads the project's pmns file into name -> PMID for domain.
func loadPMNS(path string, domain uint32) (map[string]uint32, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]uint32{}
	var block string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[1] == "{":
			block = f[0]
		case len(f) == 2 && strings.HasPrefix(f[1], "HOSTCACHE:"):
			parts := strings.Split(f[1], ":")
			c, _ := strconv.Atoi(parts[1])
			i, _ := strconv.Atoi(parts[2])
			out[block+"."+f[0]] = domain<<22 | uint32(c)<<10 | uint32(i)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no metrics", path)
	}
	return out, nil
}

func pmidsOf(pmns map[string]uint32, names []string) ([]uint32, error) {
	var out []uint32
	for _, n := range names {
		id, ok := pmns[n]
		if !ok {
			return nil, fmt.Errorf("no metric %s in pmns", n)
		}
		out = append(out, id)
	}
	return out, nil
}
