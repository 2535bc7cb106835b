package collector

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The attributes of /sys/block/zramN read every sample, in this order.
const (
	zramDisksize = iota
	zramIO
	zramMM
	zramBD
	zramNFiles
)

var zramFileNames = [zramNFiles]string{"disksize", "io_stat", "mm_stat", "bd_stat"}

// zramStats are the fields of each statistics file (disksize has its own
// rule).
var zramStats = [zramNFiles][]zramStat{zramIO: zramIOStat, zramMM: zramMMStat, zramBD: zramBDStat}

// zramDev is one device's attributes, kept open while /proc/diskstats
// lists it, with the text each last read.
type zramDev struct {
	files [zramNFiles]*kernel.File
	texts [zramNFiles][]byte
	ok    [zramNFiles]bool
	// absent are the files that did not exist: a device's attributes are
	// made with it (bd_stat only when the kernel can write back), so they
	// are not looked for again until the device is new.
	absent [zramNFiles]bool
	listed bool // published in the sample being built
}

// zramDevs are the disk collector's zram devices by kernel name.
type zramDevs struct {
	root     string // the /sys root
	keep     bool   // Env.KeepFiles
	pageSize uint64
	devs     map[string]*zramDev
	scratch  []byte
	nums     []uint64
}

func newZramDevs(sysRoot string, keep bool) zramDevs {
	return zramDevs{root: sysRoot, keep: keep, pageSize: zramPageSize(), devs: map[string]*zramDev{}}
}

// begin starts a sample built in full: the devices it publishes are listed
// again.
func (z *zramDevs) begin() {
	for _, d := range z.devs {
		d.listed = false
	}
}

// end closes the files of the devices the sample did not publish.
func (z *zramDevs) end() {
	for name, d := range z.devs {
		if !d.listed {
			d.close()
			delete(z.devs, name)
		}
	}
}

// publish reads a device's attributes and sets their metrics for inst.
// An unreadable or odd file leaves its own metrics without values.
func (z *zramDevs) publish(b *cache.Builder, inst uint32, name string) {
	d := z.dev(name)
	if d == nil {
		return
	}
	d.listed = true
	for i := range d.files {
		d.texts[i], d.ok[i] = d.read(i, d.texts[i])
	}
	if d.ok[zramDisksize] {
		line, _ := kernel.AttrLine(d.texts[zramDisksize])
		if v, ok := kernel.ParseDecimal(line); ok {
			b.SetU64(zramCapacity.ID, inst, v>>10)
		}
	}
	for i, stats := range zramStats {
		if d.ok[i] && len(stats) > 0 {
			z.publishStats(b, inst, stats, d.texts[i])
		}
	}
}

// publishStats sets the fields of one statistics file; a kernel that
// writes fewer fields leaves the rest without values.
func (z *zramDevs) publishStats(b *cache.Builder, inst uint32, stats []zramStat, text []byte) {
	var err error
	if z.nums, err = kernel.ParseNumbers(text, z.nums); err != nil {
		return
	}
	for i, s := range stats {
		if i < len(z.nums) {
			b.SetU64(s.desc.ID, inst, s.scale.kb(z.nums[i], z.pageSize))
		}
	}
}

// same reports whether every published device's attributes read as they
// did when published: they move without /proc/diskstats moving (the
// compressor's memory, compaction).
func (z *zramDevs) same() bool {
	for _, d := range z.devs {
		for i := range d.files {
			var ok bool
			if z.scratch, ok = d.read(i, z.scratch); ok != d.ok[i] ||
				(ok && !bytes.Equal(z.scratch, d.texts[i])) {
				return false
			}
		}
	}
	return true
}

// dev returns a device's entry, made (its files named) when new; nil for
// a name that cannot be a directory of /sys/block.
func (z *zramDevs) dev(name string) *zramDev {
	if d := z.devs[name]; d != nil {
		return d
	}
	if !diskSafeName(name) {
		return nil
	}
	d := &zramDev{}
	for i, file := range zramFileNames {
		d.files[i] = kernel.NewFileKept(z.root, filepath.Join(z.root, "block", name, file), z.keep)
	}
	z.devs[name] = d
	return d
}

// read reads file i into buf; false when it is absent, unreadable or
// empty.
func (d *zramDev) read(i int, buf []byte) ([]byte, bool) {
	if d.absent[i] {
		return buf[:0], false
	}
	buf, err := d.files[i].ReadAttr(buf)
	if errors.Is(err, fs.ErrNotExist) {
		d.absent[i] = true
	}
	return buf, err == nil && len(buf) > 0
}

func (d *zramDev) close() {
	for _, f := range d.files {
		f.Close()
	}
}
