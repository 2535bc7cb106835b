package integration

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// metricLabels is what pminfo -l prints for one metric: the labels of the
// metric as a whole and of each instance, by instance name.
type metricLabels struct {
	all   map[string]any
	insts map[string]map[string]any
}

var (
	labelsLine     = regexp.MustCompile(`^\s+labels (\{.*\})$`)
	instLabelsLine = regexp.MustCompile(`^\s+inst \[\d+ or "([^"]*)"\] labels (\{.*\})$`)
)

// pminfoLabels runs pminfo -l on names and parses its output.
func pminfoLabels(t *testing.T, names []string) map[string]metricLabels {
	t.Helper()
	out, _ := run(t, 2*time.Minute, "pminfo", append([]string{"-l"}, names...)...)
	got := map[string]metricLabels{}
	var cur string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			cur = strings.TrimSpace(line)
			got[cur] = metricLabels{insts: map[string]map[string]any{}}
			continue
		}
		if m := labelsLine.FindStringSubmatch(line); m != nil && cur != "" {
			ml := got[cur]
			ml.all = parseLabels(t, m[1])
			got[cur] = ml
		} else if m := instLabelsLine.FindStringSubmatch(line); m != nil && cur != "" {
			got[cur].insts[m[1]] = parseLabels(t, m[2])
		}
	}
	return got
}

func parseLabels(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Errorf("labels %s: %v", text, err)
	}
	return m
}

// testTwinLabels: every label pmdalinux gives a metric or an instance
// (indom_name, device_type, device_name, interface, cpu, ...) hostcache's
// twin gives with the same value; the agent label names each agent, and
// every hostcache metric carries the collector that samples it.
func testTwinLabels(t *testing.T) {
	var ours, twins []string
	for _, n := range metricNames(t) {
		if tw := twinOf(n); tw != "" && !isComputed(n) {
			ours, twins = append(ours, n), append(twins, tw)
		}
	}
	ol, tl := pminfoLabels(t, ours), pminfoLabels(t, twins)
	compared := 0
	for i, n := range ours {
		o, w := ol[n], tl[twins[i]]
		if o.all["agent"] != "hostcache" || o.all["collector"] == nil {
			t.Errorf("%s labels %v: want agent hostcache and a collector", n, o.all)
		}
		compared += sameLabels(t, n, "", o.all, w.all)
		for inst, wl := range w.insts {
			if il, ok := o.insts[inst]; ok {
				compared += sameLabels(t, n, inst, il, wl)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no pmdalinux label compared")
	}
	t.Logf("%d pmdalinux labels compared on %d twins", compared, len(ours))
}

// sameLabels reports each of pmdalinux's labels (but agent) that ours
// lacks or gives another value, and counts those compared.
func sameLabels(t *testing.T, metric, inst string, ours, theirs map[string]any) int {
	t.Helper()
	n := 0
	for k, v := range theirs {
		if k == "agent" {
			continue
		}
		n++
		if !reflect.DeepEqual(ours[k], v) {
			t.Errorf("%s %q: label %s is %v, pmdalinux's %v", metric, inst, k, ours[k], v)
		}
	}
	return n
}
