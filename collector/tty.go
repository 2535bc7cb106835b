package collector

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Serial ports' interrupt and error counts, from /proc/tty/driver/serial,
// with pmdalinux's items (its cluster 74). One instance per port with a
// UART, named by its line number ("0" for ttyS0).
var (
	ttyTx = engine.Row{Name: "hostcache.tty.serial.tx", Cluster: clusterTTY, Item: 0, Type: cache.TypeU32,
		Sem: cache.SemCounter, InDom: indomTTY}.Desc()
	ttyRx = engine.Row{Name: "hostcache.tty.serial.rx", Cluster: clusterTTY, Item: 1, Type: cache.TypeU32,
		Sem: cache.SemCounter, InDom: indomTTY}.Desc()
	ttyFrame = engine.Row{Name: "hostcache.tty.serial.frame", Cluster: clusterTTY, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemCounter, InDom: indomTTY}.Desc()
	ttyParity = engine.Row{Name: "hostcache.tty.serial.parity", Cluster: clusterTTY, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemCounter, InDom: indomTTY}.Desc()
	ttyBrk = engine.Row{Name: "hostcache.tty.serial.brk", Cluster: clusterTTY, Item: 4, Type: cache.TypeU32,
		Sem: cache.SemCounter, InDom: indomTTY}.Desc()
	ttyOverrun = engine.Row{Name: "hostcache.tty.serial.overrun", Cluster: clusterTTY, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemCounter, InDom: indomTTY}.Desc()
	ttyIRQ = engine.Row{Name: "hostcache.tty.serial.irq", Cluster: clusterTTY, Item: 6, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, InDom: indomTTY}.Desc()
)

// ttyFields are the "key:value" fields of a port's line, by metric. The
// kernel prints the error counts only once they are not zero, and the
// counts only to a privileged reader; irq, last, to every reader.
var ttyFields = []struct {
	key string
	m   cache.Desc
}{{"tx", ttyTx}, {"rx", ttyRx}, {"fe", ttyFrame}, {"pe", ttyParity}, {"brk", ttyBrk}, {"oe", ttyOverrun},
	{"irq", ttyIRQ}}

// ttyCollector reads /proc/tty/driver/serial. Its directory is root's
// alone: the factory opens the file while the agent still runs as root,
// and the kept descriptor goes on reading it after the agent drops to its
// user (procfs checks the permission at open, not at read). The kernel
// prints a port's counts only to a reader with CAP_SYS_ADMIN, checked at
// each read: without it a port has its irq and no counts.
type ttyCollector struct {
	file   *kernel.File
	table  named
	warn   func(error) // told once that the counts are hidden
	warned bool
	buf    []byte
	ports  []ttyPort
}

// ttyPort is one port's line: its name and its fields in ttyFields order.
// counted is whether the line shows the counts (its "tx" field).
type ttyPort struct {
	name    string
	values  [7]uint64
	counted bool
}

// ttyIRQField is the place of irq in ttyFields.
const ttyIRQField = 6

// NewTTYCollector names the file below env.Proc and opens it at once, so
// a root-only file is opened before privileges are dropped.
func NewTTYCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "tty/driver/serial")
	if err != nil {
		return nil, fmt.Errorf("tty: %w", err)
	}
	c := &ttyCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles),
		table: named{ids: env.IDMap(indomTTY)}, warn: env.Warn}
	// A file that cannot be read now fails each sample instead.
	c.buf, _ = c.file.Read(c.buf)
	return c, nil
}

func (c *ttyCollector) Name() string { return "tty" }

func (c *ttyCollector) Source() cache.Source {
	metrics := make([]cache.Desc, len(ttyFields))
	for i, f := range ttyFields {
		metrics[i] = f.m
	}
	return cache.Source{Name: c.Name(), Metrics: metrics,
		InDoms: []cache.InDomDesc{{ID: indomTTY, Name: "serial ports"}}}
}

// Sample reads the file once. A host whose ports have no UART has no
// instances, and no error.
func (c *ttyCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return err
	}
	if !bytes.HasPrefix(c.buf, []byte("serinfo:")) {
		return fmt.Errorf("%s: no serinfo header", c.file.Path)
	}
	c.ports = parseSerial(c.buf, c.ports)
	b.SetInDom(indomTTY, c.table.update(len(c.ports), func(i int) string { return c.ports[i].name }))
	for i, p := range c.ports {
		b.SetU64(ttyIRQ.ID, c.table.insts[i], p.values[ttyIRQField])
		if !p.counted {
			c.hidden()
			continue
		}
		for k, f := range ttyFields[:ttyIRQField] {
			b.SetU64(f.m.ID, c.table.insts[i], p.values[k])
		}
	}
	return nil
}

// hidden says once that the kernel hides the counts from the agent.
func (c *ttyCollector) hidden() {
	if c.warned || c.warn == nil {
		return
	}
	c.warned = true
	c.warn(fmt.Errorf("%s: the serial ports' counts are shown to CAP_SYS_ADMIN only: tty.serial.* "+
		"other than irq have no values unless the agent runs as root", c.file.Path))
}

// parseSerial reads the ports with a UART, pmdalinux's instances: a line
// "N: uart:TYPE ..." whose number parses and whose type is not "unknown".
// A port listed twice keeps its last line, as pmdalinux's does.
func parseSerial(text []byte, ports []ttyPort) []ttyPort {
	ports = ports[:0]
	for line := range bytes.Lines(text) {
		num, rest, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		if _, err := strconv.ParseUint(string(num), 10, 31); err != nil {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 || !bytes.HasPrefix(f[0], []byte("uart:")) || string(f[0]) == "uart:unknown" {
			continue
		}
		p := ttyPort{name: string(num)}
		for _, field := range f[1:] {
			p.set(field)
		}
		if i := slices.IndexFunc(ports, func(q ttyPort) bool { return q.name == p.name }); i >= 0 {
			ports[i] = p
		} else {
			ports = append(ports, p)
		}
	}
	return ports
}

// set stores one "key:value" field; anything else is left alone.
func (p *ttyPort) set(field []byte) {
	key, value, ok := bytes.Cut(field, []byte(":"))
	if !ok {
		return
	}
	for k, f := range ttyFields {
		if string(key) != f.key {
			continue
		}
		if v, err := strconv.ParseUint(string(value), 10, 32); err == nil {
			p.values[k] = v
		}
		p.counted = p.counted || f.m.ID == ttyTx.ID
		return
	}
}
