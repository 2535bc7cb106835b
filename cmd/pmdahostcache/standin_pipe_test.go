package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// startStandIn runs the agent as pmcd would run the stand-in: domain 60,
// -S linux, on the fixture tree.
func startStandIn(t *testing.T) *driver.Agent {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	a, err := driver.Start(agentPath, []string{"-d", "60", "-S", "linux", "-l", filepath.Join(dir, "agent.log"),
		"-U", "root", "-c", conf, "-r", "../../testdata/proc-t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	return a
}

// linuxPMID is pmdalinux's PMID of name, from the table.
func linuxPMID(t *testing.T, name string) standin.LinuxMetric {
	t.Helper()
	for _, m := range standin.LinuxTable() {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("pmdalinux has no %s", name)
	return standin.LinuxMetric{}
}

// Standing in for pmdalinux, the agent answers kernel.all.load as
// pmdalinux's 60.2.0 in its domain 60.2, under the agent label "linux",
// with no collector label; hostcache's own PMIDs are unknown, and
// hostcache.rate.* answers in domain 60 past pmdalinux's clusters.
func TestStandInAnswersAsPmdalinux(t *testing.T) {
	a := startStandIn(t)
	load := linuxPMID(t, "kernel.all.load")
	_, reply, err := a.Request((&pmda.DescReq{PMID: load.PMID()}).Append(nil))
	var d pmda.Desc
	if err != nil || d.Decode(reply) != nil || d.PMID != load.PMID() || d.InDom != standin.WireInDom(load.InDom) {
		t.Fatalf("desc of %#x: %v %x; want indom %#x", load.PMID(), err, reply, standin.WireInDom(load.InDom))
	}
	own := pmidOf("hostcache.kernel.all.load")
	rate := pmidOf("hostcache.rate.kernel.all.intr")
	rate = standin.WirePMID((rate>>10)&0xfff+standin.Shift, rate&0x3ff)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, reply, err = a.Request((&pmda.Fetch{PMIDs: []uint32{load.PMID(), own, rate}}).Append(nil))
		var res pmda.Result
		if err != nil || res.Decode(reply) != nil || len(res.Sets) != 3 {
			t.Fatalf("fetch: %v %x", err, reply)
		}
		if res.Sets[1].NumVal != int32(pmda.ErrPMID) {
			t.Errorf("hostcache's own PMID %#x answered: %+v", own, res.Sets[1])
		}
		if res.Sets[0].NumVal == 3 && res.Sets[2].NumVal == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kernel.all.load %d values, the rate of kernel.all.intr (%#x) %d", res.Sets[0].NumVal, rate, res.Sets[2].NumVal)
		}
		time.Sleep(200 * time.Millisecond)
	}
	_, reply, _ = a.Request((&pmda.LabelReq{Ident: 60 << 22, Type: pmda.LabelDomain}).Append(nil))
	if !bytes.Contains(reply, []byte(`{"agent":"linux"}`)) {
		t.Errorf("domain labels %q, want the agent linux", reply)
	}
	_, reply, _ = a.Request((&pmda.LabelReq{Ident: standin.WireInDom(load.InDom), Type: pmda.LabelInDom}).Append(nil))
	if bytes.Contains(reply, []byte("collector")) {
		t.Errorf("indom labels %q carry the collector", reply)
	}
}

// -S names pmdalinux only, and only as domain 60.
func TestStandInRefusesOtherAgentsAndDomains(t *testing.T) {
	for _, args := range [][]string{{"-d", "396", "-S", "linux"}, {"-d", "60", "-S", "xfs"}} {
		a, err := driver.Start(agentPath, append(args, "-l", "-"), nil)
		if err == nil {
			a.Kill()
			t.Errorf("%v: the agent started", args)
		}
	}
}
