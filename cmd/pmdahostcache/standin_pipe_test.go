package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// startStandIn runs the agent as pmcd would run the stand-in: domain 60,
// -S linux, on the fixture tree.
func startStandIn(t *testing.T) *driver.Agent {
	return startStandInIn(t, t.TempDir())
}

// startStandInIn runs the stand-in with its ids in dir.
func startStandInIn(t *testing.T, dir string) *driver.Agent {
	t.Helper()
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
func linuxPMID(t *testing.T, name string) standin.Metric {
	t.Helper()
	for _, m := range standin.LinuxTable() {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("pmdalinux has no %s", name)
	return standin.Metric{}
}

// Standing in for pmdalinux, the agent answers kernel.all.load as
// pmdalinux's 60.2.0 in its domain 60.2, under the agent label "linux",
// with no collector label; hostcache's own PMIDs are unknown there, in
// domain 396 or past pmdalinux's clusters.
func TestStandInAnswersAsPmdalinux(t *testing.T) {
	a := startStandIn(t)
	load := linuxPMID(t, "kernel.all.load")
	_, reply, err := a.Request((&pmda.DescReq{PMID: standin.Linux().PMID(load)}).Append(nil))
	var d pmda.Desc
	if err != nil || d.Decode(reply) != nil || d.PMID != standin.Linux().PMID(load) || d.InDom != standin.Linux().WireInDom(load.InDom) {
		t.Fatalf("desc of %#x: %v %x; want indom %#x", standin.Linux().PMID(load), err, reply, standin.Linux().WireInDom(load.InDom))
	}
	own := pmidOf("hostcache.kernel.all.load")
	rate := pmidOf("hostcache.rate.kernel.all.intr")
	rate = standin.Linux().WirePMID((rate>>10)&0xfff+standin.Shift, rate&0x3ff)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, reply, err = a.Request((&pmda.Fetch{PMIDs: []uint32{standin.Linux().PMID(load), own, rate}}).Append(nil))
		var res pmda.Result
		if err != nil || res.Decode(reply) != nil || len(res.Sets) != 3 {
			t.Fatalf("fetch: %v %x", err, reply)
		}
		if res.Sets[1].NumVal != int32(pmda.ErrPMID) {
			t.Errorf("hostcache's own PMID %#x answered: %+v", own, res.Sets[1])
		}
		if res.Sets[2].NumVal != int32(pmda.ErrPMID) {
			t.Errorf("the rate of kernel.all.intr answered in domain 60 (%#x): %+v", rate, res.Sets[2])
		}
		if res.Sets[0].NumVal == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("kernel.all.load %d values", res.Sets[0].NumVal)
		}
		time.Sleep(200 * time.Millisecond)
	}
	_, reply, _ = a.Request((&pmda.LabelReq{Ident: 60 << 22, Type: pmda.LabelDomain}).Append(nil))
	if !bytes.Contains(reply, []byte(`{"agent":"linux"}`)) {
		t.Errorf("domain labels %q, want the agent linux", reply)
	}
	_, reply, _ = a.Request((&pmda.LabelReq{Ident: standin.Linux().WireInDom(load.InDom), Type: pmda.LabelInDom}).Append(nil))
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

// The stand-in continues pmdalinux's ids in pmdalinux's own file: the
// interrupt lines pmdalinux numbered keep their ids, and a line it never
// saw gets one past every id in the file, saved there for pmdalinux.
func TestStandInKeepsPmdalinuxIDs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "60.4")
	os.WriteFile(file, []byte("2 0 2147483647\n0 1795769698 25\n5 1795769698 NMI\n"), 0o644)
	a := startStandInIn(t, dir)
	total := linuxPMID(t, "kernel.all.interrupts.total")
	_, reply, err := a.Request((&pmda.InstanceReq{InDom: standin.Linux().WireInDom(total.InDom), Inst: pmda.InstNull}).Append(nil))
	_, all, derr := pmda.DecodeInstance(reply)
	if err != nil || derr != nil {
		t.Fatalf("instances of %#x: %v %v", standin.Linux().WireInDom(total.InDom), err, derr)
	}
	ids := map[string]uint32{}
	for _, in := range all {
		ids[in.Name] = in.Inst
	}
	if id, ok := ids["25"]; !ok || id != 0 {
		t.Errorf("line 25 has id %d (%v), pmdalinux's 0; all %v", id, ok, ids)
	}
	if id, ok := ids["24"]; !ok || id <= 5 {
		t.Errorf("line 24, new to the file, has id %d (%v); want one past 5", id, ok)
	}
	var data []byte
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if data, _ = os.ReadFile(file); bytes.Contains(data, []byte(" 24\n")) {
			break
		}
	}
	if !bytes.Contains(data, []byte(" 24\n")) || !bytes.HasPrefix(data, []byte("2 0 2147483647")) {
		t.Errorf("60.4 after the stand-in:\n%s", data)
	}
}

// A pmdalinux metric hostcache does not sample (swap.in) answers its
// descriptor and a help text, and a fetch gets PM_ERR_APPVERSION, as
// from pmdalinux: PCP's clients look every name up before they fetch,
// and PCP's QA test 003 accepts that error for it.
func TestStandInDescribesWhatItDoesNotSample(t *testing.T) {
	// swap.in is the "swap" line of /proc/stat, which no kernel since 2.6
	// prints: hostcache has no twin of it. Without pmdalinux's help the
	// placeholder's own answers.
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	a := startStandIn(t)
	swapIn := linuxPMID(t, "swap.in")
	_, reply, err := a.Request((&pmda.DescReq{PMID: standin.Linux().PMID(swapIn)}).Append(nil))
	var d pmda.Desc
	if err != nil || d.Decode(reply) != nil || d.PMID != standin.Linux().PMID(swapIn) || d.InDom != standin.InDomNull {
		t.Fatalf("desc of swap.in %#x: %v %x", standin.Linux().PMID(swapIn), err, reply)
	}
	_, reply, err = a.Request((&pmda.TextReq{Ident: standin.Linux().PMID(swapIn), Type: pmda.TextPMID | pmda.TextOneLine}).Append(nil))
	if _, text, derr := pmda.DecodeText(reply); err != nil || derr != nil || !strings.Contains(text, "swap.in") {
		t.Errorf("help of swap.in: %q %v %v", text, err, derr)
	}
	_, reply, err = a.Request((&pmda.Fetch{PMIDs: []uint32{standin.Linux().PMID(swapIn)}}).Append(nil))
	var res pmda.Result
	if err != nil || res.Decode(reply) != nil || len(res.Sets) != 1 || res.Sets[0].NumVal != int32(pmda.ErrAppVersion) {
		t.Errorf("fetch of swap.in: %v %+v", err, res.Sets)
	}
}
