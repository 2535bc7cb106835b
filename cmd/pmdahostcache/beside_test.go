package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// startStandInBeside runs the stand-in as Install -S linux has pmcd run
// it: domain 60 on the pipe, and hostcache's own domain on a socket.
func startStandInBeside(t *testing.T) (*driver.Agent, string) {
	t.Helper()
	return startStandInBesideIn(t, t.TempDir())
}

// startStandInBesideIn runs the stand-in with its socket, ids and log in
// dir.
func startStandInBesideIn(t *testing.T, dir string) (*driver.Agent, string) {
	t.Helper()
	sock := filepath.Join(dir, "hostcache.socket")
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	a, err := driver.Start(agentPath, []string{"-d", "60", "-S", "linux", "-B", sock, "-l", filepath.Join(dir, "agent.log"),
		"-U", "root", "-c", conf, "-r", "../../testdata/proc-t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	return a, sock
}

// besideConn is pmcd's connection to the socket entry.
type besideConn struct {
	c   net.Conn
	buf []byte
}

// dialBeside connects as pmcd does and completes the handshake: the
// socket is there as soon as the pipe's CREDS are.
func dialBeside(t *testing.T, sock string) *besideConn {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	b := &besideConn{c: c}
	h, pdu, err := b.read()
	var creds pmda.Creds
	if err != nil || h.Type != pmda.TypeCreds || creds.Decode(pdu) != nil {
		t.Fatalf("CREDS on the socket: %v %s %x", err, h.Type, pdu)
	}
	reply := pmda.Creds{From: int32(os.Getpid()), Version: 2, Flags: creds.Flags & pmda.FlagAuth}
	if _, err := c.Write(reply.Append(nil)); err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *besideConn) read() (pmda.Header, []byte, error) {
	b.c.SetReadDeadline(time.Now().Add(driver.ReplyTimeout))
	h, pdu, err := pmda.ReadPDU(b.c, b.buf, 1<<30)
	b.buf = pdu
	return h, pdu, err
}

func (b *besideConn) request(t *testing.T, pdu []byte) []byte {
	t.Helper()
	if _, err := b.c.Write(pdu); err != nil {
		t.Fatal(err)
	}
	_, reply, err := b.read()
	if err != nil {
		t.Fatal(err)
	}
	return reply
}

// fetchValues fetches pmids until the first has want values, or fails.
func fetchValues(t *testing.T, request func([]byte) []byte, want int32, pmids ...uint32) pmda.Result {
	t.Helper()
	var res pmda.Result
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		reply := request((&pmda.Fetch{PMIDs: pmids}).Append(nil))
		if err := res.Decode(reply); err != nil || len(res.Sets) != len(pmids) {
			t.Fatalf("fetch: %v %x", err, reply)
		}
		if res.Sets[0].NumVal == want {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("%#x: %d values, want %d", pmids[0], res.Sets[0].NumVal, want)
		}
	}
}

// Standing in, the socket answers hostcache's names as the agent beside
// pmdalinux does: its PMIDs, descriptors, labels with the collector, its
// help; the placeholders of pmdalinux's metrics are not there. The pipe
// answers none of hostcache's own PMIDs.
func TestStandInAnswersHostcacheOnItsSocket(t *testing.T) {
	a, sock := startStandInBeside(t)
	b := dialBeside(t, sock)
	req := func(p []byte) []byte { return b.request(t, p) }
	load := pmidOf("hostcache.kernel.all.load")
	rate := pmidOf("hostcache.rate.kernel.all.intr")
	res := fetchValues(t, req, 3, load, rate)
	if res.Sets[1].NumVal < 0 {
		t.Errorf("hostcache.rate.kernel.all.intr: %d", res.Sets[1].NumVal)
	}
	var d pmda.Desc
	if err := d.Decode(req((&pmda.DescReq{PMID: load}).Append(nil))); err != nil || d.PMID != load || d.InDom != testDomain<<22|2 {
		t.Errorf("desc of hostcache.kernel.all.load: %+v %v", d, err)
	}
	if reply := req((&pmda.LabelReq{Ident: testDomain << 22, Type: pmda.LabelDomain}).Append(nil)); !bytes.Contains(reply, []byte(`{"agent":"hostcache"}`)) {
		t.Errorf("domain labels %q, want the agent hostcache", reply)
	}
	if reply := req((&pmda.LabelReq{Ident: load, Type: pmda.LabelItem}).Append(nil)); !bytes.Contains(reply, []byte(`"collector":"load"`)) {
		t.Errorf("item labels %q, want the collector", reply)
	}
	ours, err := help.Parse(help.Source())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ours.MetricText("hostcache.kernel.all.load", false)
	if _, text, err := pmda.DecodeText(req((&pmda.TextReq{Ident: load, Type: pmda.TextPMID | pmda.TextOneLine}).Append(nil))); err != nil || text != want {
		t.Errorf("help %q %v, want %q", text, err, want)
	}
	// hostcache.swap.in is the stand-in's placeholder of pmdalinux's
	// swap.in: hostcache's domain does not have it beside pmdalinux.
	_, store, _ := buildCache(standInConfig(t), discardLog())
	if ph, ok := store.Schema().Lookup("hostcache.swap.in"); !ok {
		t.Error("the stand-in's schema has no placeholder for swap.in")
	} else if err := d.Decode(req((&pmda.DescReq{PMID: testDomain<<22 | uint32(ph.ID)}).Append(nil))); err == nil {
		t.Errorf("the placeholder answers in hostcache's domain: %+v", d)
	}
	pipe := func(p []byte) []byte {
		_, reply, err := a.Request(p)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	twin := standin.Linux().PMID(linuxPMID(t, "kernel.all.load"))
	res = fetchValues(t, pipe, 3, twin, load, standin.Linux().WirePMID((load>>10)&0xfff+standin.Shift, load&0x3ff))
	if res.Sets[1].NumVal != int32(pmda.ErrPMID) || res.Sets[2].NumVal != int32(pmda.ErrPMID) {
		t.Errorf("the pipe answers hostcache's own PMIDs: %+v %+v", res.Sets[1], res.Sets[2])
	}
}

// pmcd connects again after it dropped the agent, and unlinks the path
// where it may: the agent listens again, on a socket made anew when the
// path has gone. The socket's end leaves the process running; the pipe's
// ends it.
func TestBesideSocketListensAgain(t *testing.T) {
	a, sock := startStandInBeside(t)
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket %v %v, want a socket of mode 0600", fi, err)
	}
	load := pmidOf("hostcache.kernel.all.load")
	b := dialBeside(t, sock)
	fetchValues(t, func(p []byte) []byte { return b.request(t, p) }, 3, load)
	b.c.Close()
	b = dialBeside(t, sock)
	fetchValues(t, func(p []byte) []byte { return b.request(t, p) }, 3, load)
	b.c.Close()
	os.Remove(sock)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the socket was not made again")
		}
	}
	b = dialBeside(t, sock)
	fetchValues(t, func(p []byte) []byte { return b.request(t, p) }, 3, load)
	if a.Exited() {
		t.Fatal("the agent exited with its socket's connections")
	}
	if rest, err := a.Close(5 * time.Second); err != nil || len(rest) != 0 {
		t.Errorf("at the pipe's EOF: %v, wrote %x", err, rest)
	}
}

// -B answers hostcache's domain beside a stand-in's pipe only.
func TestBesideSocketNeedsAStandIn(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	for _, args := range [][]string{{"-d", "396", "-B", sock}, {"-d", "60", "-S", "linux", "-u", sock + "2", "-B", sock}} {
		if a, err := driver.Start(agentPath, append(args, "-l", "-"), nil); err == nil {
			a.Kill()
			t.Errorf("%v: the agent started", args)
		}
	}
}

// standInConfig is the stand-in's configuration, its ids in a directory
// of the test's.
func standInConfig(t *testing.T) config.Config {
	c := config.Default()
	c.StandIn, c.Domain, c.IDDir = config.StandInLinux, config.LinuxDomain, t.TempDir()
	return c
}

// A connection from a user other than root and PCP's is refused, with a
// line in the log, and pmcd's next connection is served.
func TestBesideSocketRefusesOtherUsers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can connect as another user")
	}
	setpriv, err1 := exec.LookPath("setpriv")
	curl, err2 := exec.LookPath("curl")
	if err1 != nil || err2 != nil {
		t.Skip("setpriv and curl connect as another user here; one is missing")
	}
	dir, err := os.MkdirTemp("", "beside")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	_, sock := startStandInBesideIn(t, dir)
	// Open to all for the test: the peer check is what refuses now.
	os.Chmod(sock, 0o666)
	out, _ := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		curl, "-s", "-S", "--max-time", "3", "--unix-socket", sock, "http://localhost/").CombinedOutput()
	log := filepath.Join(dir, "agent.log")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		data, _ := os.ReadFile(log)
		if bytes.Contains(data, []byte("refused a connection")) && bytes.Contains(data, []byte("uid=65534")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no refusal of uid 65534 in the log (curl said %q):\n%s", out, data)
		}
	}
	b := dialBeside(t, sock)
	fetchValues(t, func(p []byte) []byte { return b.request(t, p) }, 3, pmidOf("hostcache.kernel.all.load"))
}

// pmcd may start a new stand-in while the one before still runs: the new
// one binds the path afresh. The earlier one must leave it to the new
// one, or pmcd would find a dead socket there once it exits.
func TestBesideSocketYieldsToALaterAgent(t *testing.T) {
	dir := t.TempDir()
	_, sock := startStandInBesideIn(t, dir)
	later := t.TempDir()
	conf := filepath.Join(later, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+later+"\n"), 0o644)
	b, err := driver.Start(agentPath, []string{"-d", "60", "-S", "linux", "-B", sock, "-l", filepath.Join(later, "agent.log"),
		"-U", "root", "-c", conf, "-r", "../../testdata/proc-t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Kill)
	bound, err := os.Stat(sock)
	if err != nil {
		t.Fatal(err)
	}
	log := waitLogLine(t, filepath.Join(dir, "agent.log"), "another process's socket", "the socket is gone")
	if !strings.Contains(log, "another process's socket") {
		t.Fatalf("the earlier agent took the path back:\n%s", log)
	}
	if now, err := os.Stat(sock); err != nil || !os.SameFile(now, bound) {
		t.Fatalf("the later agent's socket was replaced: %v", err)
	}
	c := dialBeside(t, sock)
	fetchValues(t, func(p []byte) []byte { return c.request(t, p) }, 3, pmidOf("hostcache.kernel.all.load"))
}

// waitLogLine waits for a log file to hold any of the texts, for at most
// 10 s, and returns the log.
func waitLogLine(t *testing.T, path string, texts ...string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		for _, s := range texts {
			if strings.Contains(string(b), s) {
				return string(b)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds none of %q:\n%s", path, texts, b)
		}
	}
}
