package collector

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/prometheus/procfs/blockdevice"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// diskKind is where a /proc/diskstats device is published.
type diskKind int

const (
	diskIgnored    diskKind = iota // loop, ram, cdrom, ...: none of ours
	diskWhole                      // disk.dev and disk.all
	diskPartition                  // disk.partitions
	diskMapped                     // disk.dm, under its mapped name
	diskRAID                       // disk.md: software RAID arrays, by kernel name
	diskCompressed                 // zram: compressed RAM devices, by kernel name
)

// classifyDisk sorts a device by its kernel name exactly as pmdalinux does,
// so that disk.dev, disk.partitions, disk.dm and disk.md list the same instances and
// disk.all sums the same devices as pmdalinux. The rule is by name only:
//
//   - "dm-N" is a device-mapper device (disk.dm);
//   - "md..." is a software RAID device (disk.md), never a disk, so md
//     arrays are not counted twice in disk.all (once as the array, once as
//     its members);
//   - a partition is a name ending in a digit (sda1, xvda2, nvme0n1p1)
//     unless it is a whole device whose name ends in a digit anyway: loop,
//     ram, zram, sr (CD-ROM), md, dm-, and mmcblk, nvme, rbd and nbd without
//     a "p" after the prefix (mmcblk0 is a disk, mmcblk0p1 a partition);
//   - a disk is anything else except loop, ram, zram and CD-ROM devices
//     (not real disks), names containing "xvm" (SGI volumes) and 18
//     character names starting 1, 2 or 3 (multipath WWIDs), which pmdalinux
//     keeps out of disk.dev and therefore out of disk.all;
//   - a name starting "zram" that is none of these is a compressed RAM
//     device (zram.*), whose I/O is memory traffic, not disk traffic.
//
// disk.all is the sum over whole disks only: partitions and dm/md devices
// would count the same I/O again.
func classifyDisk(name string) diskKind {
	switch {
	case strings.HasPrefix(name, "dm-"):
		return diskMapped
	case strings.HasPrefix(name, "md"):
		return diskRAID
	case diskIsPartitionName(name):
		return diskPartition
	case diskIsDiskName(name):
		return diskWhole
	case strings.HasPrefix(name, "zram"):
		return diskCompressed
	}
	return diskIgnored
}

// diskIsPartitionName is pmdalinux's partition test.
func diskIsPartitionName(name string) bool {
	if name == "" {
		return false
	}
	if strings.Contains(name, "/") {
		// Old cciss/rd style "c0d0p1" names (the kernel now prints '!'
		// for '/'): a partition ends in "p<digits>". pmdalinux also calls a
		// name with no trailing digits a partition; we follow it.
		trimmed := strings.TrimRight(name, "0123456789")
		return trimmed == name || strings.HasSuffix(trimmed, "p")
	}
	return diskIsDigit(name[len(name)-1]) &&
		!diskHasPrefix(name, "loop", "ram", "zram", "md", "dm-") &&
		!diskWholeUnlessP(name, "mmcblk") && !diskWholeUnlessP(name, "nvme") &&
		!diskWholeUnlessP(name, "rbd") && !diskWholeUnlessP(name, "nbd") &&
		!diskIsCDROM(name)
}

// diskIsDiskName is pmdalinux's disk test, applied after the dm, md and
// partition tests.
func diskIsDiskName(name string) bool {
	return !diskHasPrefix(name, "loop", "ram", "zram") && !diskIsCDROM(name) &&
		!strings.Contains(name, "xvm") && !diskIsWWID(name)
}

// diskWholeUnlessP reports a name with the prefix and no "p" after it: a whole
// device of a family whose partitions are named <disk>p<N>.
func diskWholeUnlessP(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	return ok && !strings.Contains(rest, "p")
}

func diskIsCDROM(name string) bool {
	return len(name) > 2 && strings.HasPrefix(name, "sr") && diskIsDigit(name[2])
}

func diskIsWWID(name string) bool {
	return len(name) == 18 && (name[0] == '1' || name[0] == '2' || name[0] == '3')
}

func diskIsDigit(c byte) bool { return c >= '0' && c <= '9' }

func diskHasPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// diskSys reads small files below <sys>/block.
type diskSys struct {
	root string
	fs   blockdevice.FS
}

// diskSafeName accepts names that stay inside /sys/block when joined to it.
// Names come from /proc/diskstats, where the kernel writes '!' for '/', so
// this refuses only what a kernel never prints.
func diskSafeName(dev string) bool {
	return dev != "" && dev != "." && dev != ".." && !strings.ContainsAny(dev, "/\x00")
}

// line returns the first line of <sys>/block/<dev>/<rel>, or false when it
// is unreadable or empty.
func (s diskSys) line(dev string, rel ...string) (string, bool) {
	return s.lineIn(filepath.Join(s.root, "block"), dev, rel...)
}

// classLine is line for <sys>/class/block/<dev>/<rel>, which has
// partitions beside whole devices.
func (s diskSys) classLine(dev string, rel ...string) (string, bool) {
	return s.lineIn(filepath.Join(s.root, "class", "block"), dev, rel...)
}

// lineIn is line below dir instead of <sys>/block.
func (s diskSys) lineIn(dir, dev string, rel ...string) (string, bool) {
	if !diskSafeName(dev) {
		return "", false
	}
	data, err := kernel.ReadFile(filepath.Join(append([]string{dir, dev}, rel...)...))
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return line, line != ""
}

// dmName is the mapped name of device-mapper device dev ("dm-3"), from
// /sys/block/dm-3/dm/name, taken up to its newline as pmdalinux takes it.
// We read the one file rather than procfs's SysBlockDeviceMapperInfo, which
// fails unless five dm files all exist.
func (s diskSys) dmName(dev string) (string, bool) {
	return s.line(dev, "dm", "name")
}

// labels returns the instance labels of a disk or dm device, sorted by
// name: "model" (disks whose driver reports one) and "rotational" (from the
// queue settings), plus "dm_device", the kernel name, for dm devices.
func (s diskSys) labels(dev string, kind diskKind) []cache.Label {
	var out []cache.Label
	if kind == diskMapped {
		out = append(out, cache.StringLabel("dm_device", dev))
	}
	if kind == diskWhole {
		// Drivers pad the model with spaces (SCSI to 16 characters).
		if model, ok := s.line(dev, "device", "model"); ok && strings.TrimSpace(model) != "" {
			out = append(out, cache.StringLabel("model", strings.TrimSpace(model)))
		}
	}
	if !diskSafeName(dev) {
		return out
	}
	if rot, err := s.fs.SysBlockDeviceRotational(dev); err == nil && rot <= 1 {
		out = append(out, cache.Label{Name: "rotational", Value: strconv.FormatBool(rot == 1)})
	}
	return out
}
