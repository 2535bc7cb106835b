package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// batch bounds how many names one pminfo command line carries.
const batch = 256

// pminfo runs pminfo and returns its standard output. With strict set,
// anything on its standard error is a failure: a name pmcd could not
// describe must not leave the table silently. Otherwise it is passed on
// as a warning (another agent's dynamic namespace that did not answer).
func pminfo(strict bool, args ...string) (string, error) {
	cmd := exec.Command("pminfo", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil || (strict && stderr.Len() > 0) {
		return "", fmt.Errorf("pminfo %s: %v: %s",
			strings.Join(head(args), " "), err, strings.TrimSpace(stderr.String()))
	}
	if stderr.Len() > 0 {
		fmt.Fprintf(os.Stderr, "genlinux: warning: pminfo %s: %s\n", strings.Join(head(args), " "),
			strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// head shortens a long argument list for an error message.
func head(args []string) []string {
	if len(args) > 4 {
		return append(args[:4:4], "...")
	}
	return args
}

// pcpVersion is the version pmcd reports, written into the table's header.
func pcpVersion() (string, error) {
	out, err := exec.Command("pmprobe", "-v", "pmcd.version").Output()
	if err != nil {
		return "", fmt.Errorf("pmprobe -v pmcd.version: %w (is pmcd running?)", err)
	}
	m := regexp.MustCompile(`^pmcd\.version 1 "([^"]+)"`).FindStringSubmatch(string(out))
	if m == nil {
		return "", fmt.Errorf("pmprobe -v pmcd.version printed %q", out)
	}
	return m[1], nil
}

// agentNames lists every name in pmcd's namespace whose PMID is in the
// agent's domain. pmdalinux shares its roots (hinv, kernel, ...) with
// other agents, and proc.* holds derived metrics (domain 511) beside
// pmdaproc's, so the domain decides, not the root.
func agentNames(a agent) ([]string, error) {
	out, err := pminfo(false, "-m")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name, pmid, err := parseHeader(line)
		if err != nil {
			return nil, err
		}
		if pmid[0] == a.domain {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("pmcd serves no name in domain %d: is %s installed?", a.domain, a.name)
	}
	return names, nil
}

// describe asks pminfo for the descriptor of every name, each in a's domain.
func describe(a agent, names []string) ([]metric, error) {
	var all []metric
	for lo := 0; lo < len(names); lo += batch {
		hi := min(lo+batch, len(names))
		out, err := pminfo(true, append([]string{"-md"}, names[lo:hi]...)...)
		if err != nil {
			return nil, err
		}
		ms, err := parseDescs(out)
		if err != nil {
			return nil, err
		}
		if err := sameNames(ms, names[lo:hi]); err != nil {
			return nil, err
		}
		if err := checkDomains(a, ms); err != nil {
			return nil, err
		}
		all = append(all, ms...)
	}
	return all, nil
}

// sameNames checks that pminfo described exactly the names asked for.
func sameNames(ms []metric, names []string) error {
	if len(ms) != len(names) {
		return fmt.Errorf("asked pminfo for %d descriptors, read %d", len(names), len(ms))
	}
	for i, m := range ms {
		if m.name != names[i] {
			return fmt.Errorf("asked pminfo for %s, read %s", names[i], m.name)
		}
	}
	return nil
}

// parseHeader reads "NAME PMID: D.C.I", the first line pminfo -m prints.
func parseHeader(line string) (string, [3]uint32, error) {
	var pmid [3]uint32
	name, id, ok := strings.Cut(line, " PMID: ")
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return "", pmid, fmt.Errorf("not a pminfo -m line: %q", line)
	}
	parts := strings.Split(id, ".")
	if len(parts) != 3 {
		return "", pmid, fmt.Errorf("%s: PMID %q is not domain.cluster.item", name, id)
	}
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return "", pmid, fmt.Errorf("%s: PMID %q: %w", name, id, err)
		}
		pmid[i] = uint32(v)
	}
	return name, pmid, nil
}
