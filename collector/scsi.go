package collector

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The block device of each SCSI device, pmdalinux's hinv.map.scsi (its
// cluster 15): instance "scsi0:0:0:0_Direct-Access" maps to "sda".
// pmdalinux lists /proc/scsi/scsi, which kernels without SCSI_PROC_FS
// lack; we list /sys/bus/scsi/devices, the same devices, and turn each
// one's type number into the word /proc/scsi/scsi prints. As pmdalinux,
// only devices with a block device (disks, CD-ROMs) are listed.
var scsiMap = engine.Row{Name: "hostcache.hinv.map.scsi", Cluster: clusterSCSI, Item: 0,
	Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomSCSI}.Desc()

// scsiDevice is one SCSI device with a block device.
type scsiDevice struct {
	addr  [4]uint64 // host, channel, target id, LUN
	name  string    // the instance name
	block string    // "sda"
}

// scsiCollector lists the SCSI devices each sample.
type scsiCollector struct {
	dir   string // <sys>/bus/scsi/devices
	table named
	devs  []scsiDevice
	buf   []byte
}

// NewSCSICollector names the device directory below env.Sys.
func NewSCSICollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Sys); err != nil {
		return nil, fmt.Errorf("scsi: sys root: %w", err)
	}
	return &scsiCollector{dir: filepath.Join(env.Sys, "bus", "scsi", "devices"),
		table: named{ids: env.IDMap(indomSCSI)}}, nil
}

func (c *scsiCollector) Name() string { return "scsi" }

func (c *scsiCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{scsiMap},
		// pmdalinux labels its 60.11 as a disk domain, its instances not.
		InDoms: []cache.InDomDesc{{ID: indomSCSI, Name: "scsi",
			Labels: hostkit.IndomLabels(`"block"`, "per disk")}}}
}

// Sample lists the devices. A host without the SCSI bus has none: an
// empty domain and no error. A device whose type cannot be read is left
// out and reported.
func (c *scsiCollector) Sample(b *cache.Builder, _ time.Time) error {
	entries, err := os.ReadDir(c.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("scsi: %w", err)
	}
	c.devs = c.devs[:0]
	var errs []error
	for _, e := range entries {
		addr, ok := parseSCSIAddr(e.Name())
		if !ok {
			continue // a host ("host0") or a target ("target0:0:0")
		}
		dev, err := c.device(e.Name(), addr)
		if err != nil {
			errs = append(errs, err)
		} else if dev.block != "" {
			c.devs = append(c.devs, dev)
		}
	}
	// /proc/scsi/scsi's order, in which pmdalinux numbers new devices.
	slices.SortFunc(c.devs, func(a, b scsiDevice) int { return slices.Compare(a.addr[:], b.addr[:]) })
	b.SetInDom(indomSCSI, c.table.update(len(c.devs), func(i int) string { return c.devs[i].name }))
	for i, d := range c.devs {
		b.SetString(scsiMap.ID, c.table.insts[i], d.block)
	}
	return engine.Partial(errors.Join(errs...))
}

// device reads one device's type and block device ("" when it has none).
func (c *scsiCollector) device(entry string, addr [4]uint64) (scsiDevice, error) {
	path := filepath.Join(c.dir, entry, "type")
	var err error
	if c.buf, err = kernel.ReadFileInto(path, c.buf); err != nil {
		return scsiDevice{}, err
	}
	line, _ := kernel.AttrLine(c.buf)
	typ, ok := kernel.ParseDecimal(line)
	if !ok {
		return scsiDevice{}, fmt.Errorf("%s: not a number: %q", path, line)
	}
	name := fmt.Sprintf("scsi%d:%d:%d:%d_%s", addr[0], addr[1], addr[2], addr[3], scsiTypeWord(typ))
	return scsiDevice{addr: addr, name: name, block: firstEntry(filepath.Join(c.dir, entry, "block"))}, nil
}

// parseSCSIAddr reads a device's "host:channel:id:lun" directory name.
func parseSCSIAddr(s string) ([4]uint64, bool) {
	var addr [4]uint64
	fields := strings.Split(s, ":")
	if len(fields) != len(addr) {
		return addr, false
	}
	for i, f := range fields {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return addr, false
		}
		addr[i] = v
	}
	return addr, true
}

// firstEntry is the first name in dir not starting with a dot, "" when
// there is none or dir cannot be read.
func firstEntry(dir string) string {
	entries, _ := os.ReadDir(dir) // sorted by name
	i := slices.IndexFunc(entries, func(e os.DirEntry) bool { return !strings.HasPrefix(e.Name(), ".") })
	if i < 0 {
		return ""
	}
	return entries[i].Name()
}

// scsiTypeWords are the first words of the kernel's SCSI device type
// names (scsi_device_type), as pmdalinux reads them from the "Type:"
// field of /proc/scsi/scsi.
var scsiTypeWords = []string{
	"Direct-Access", "Sequential-Access", "Printer", "Processor", "WORM", "CD-ROM", "Scanner",
	"Optical", "Medium", "Communications", "ASC", "ASC", "RAID", "Enclosure", "Direct-Access-RBC",
	"Optical", "Bridge", "Object", "Automation/Drive", "Security", "Direct-Access-ZBC",
}

// scsiTypeWord names a SCSI peripheral device type number.
func scsiTypeWord(typ uint64) string {
	switch {
	case typ == 0x1e:
		return "Well-known"
	case typ == 0x1f:
		return "No"
	case typ < uint64(len(scsiTypeWords)):
		return scsiTypeWords[typ]
	}
	return "Unknown"
}
