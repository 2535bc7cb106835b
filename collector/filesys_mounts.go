package collector

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
)

// mount is one filesystem the filesys collector reports.
type mount struct {
	device   string // instance name: the mount source, symlinks resolved
	dir      string // mount point as the kernel prints it (octal escapes kept)
	path     string // mount point unescaped, what statfs is given
	fstype   string
	readonly bool
}

// filesysSkipTypes are the filesystem types pmdalinux (PCP 6.0.3,
// refresh_filesys) never reports: pseudo filesystems with no blocks worth
// watching, network filesystems whose statfs can hang, read-only images
// that are always full (squashfs), and tmpfs, which pmdalinux reports in a
// separate tmpfs.* family (tmpfs.go). Types starting with "auto"
// (autofs trigger mounts) are skipped too; see skipFilesysType.
var filesysSkipTypes = map[string]bool{
	"proc": true, "nfs": true, "devfs": true, "devpts": true, "devtmpfs": true,
	"squashfs": true, "selinuxfs": true, "securityfs": true, "configfs": true,
	"cgroup": true, "sysfs": true, "tmpfs": true,
}

func skipFilesysType(fstype string) bool {
	return filesysSkipTypes[fstype] || strings.HasPrefix(fstype, "auto")
}

// selectMounts applies pmdalinux's rule for which mounts become filesys
// instances, in mount table order:
//
//  1. skip the types in filesysSkipTypes and "auto*";
//  2. keep only mounts whose source starts with "/dev" (block devices, and
//     FUSE filesystems mounted from /dev/fuse or a block device), or that
//     are mounted at "/" (so a container's overlay root is reported, named
//     "overlay"); this drops every other pseudo filesystem (cgroup2,
//     overlay below /, bpf, binfmt_misc, nfs4, ...) by its non-device source;
//  3. name the instance by its source with symlinks resolved, except below
//     /dev/mapper and /dev/md whose persistent names are kept;
//  4. report a device once, at its first mount point in the table: bind
//     mounts and repeated mounts of one device are duplicates.
//
// resolve canonicalises a device path (step 3).
func selectMounts(infos []*procfs.MountInfo, resolve func(string) string) []mount {
	var out []mount
	seen := map[string]bool{}
	for _, mi := range infos {
		if skipFilesysType(mi.FSType) {
			continue
		}
		if !strings.HasPrefix(mi.Source, "/dev") && mi.MountPoint != "/" {
			continue
		}
		device := unescapeMount(mi.Source)
		if !strings.HasPrefix(device, "/dev/mapper") && !strings.HasPrefix(device, "/dev/md") {
			device = resolve(device)
		}
		if seen[device] {
			continue
		}
		seen[device] = true
		_, ro := mi.Options["ro"]
		_, sbRO := mi.SuperOptions["ro"]
		out = append(out, mount{
			device: device, dir: mi.MountPoint, path: unescapeMount(mi.MountPoint),
			fstype: mi.FSType, readonly: ro || sbRO,
		})
	}
	return out
}

// unescapeMount undoes the kernel's octal escapes in mount table fields
// (space \040, tab \011, newline \012, backslash \134).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// deviceResolver returns pmdalinux's realpath() step, done below root (the
// directory holding the /proc root, "/" normally), so that a PMDA reading a
// host's /proc from a container resolves the host's /dev links. A device
// that cannot be resolved, or whose link leads outside root, keeps its name.
func deviceResolver(root string) func(string) string {
	return func(device string) string {
		if !strings.HasPrefix(device, "/dev/") {
			return device
		}
		real, err := filepath.EvalSymlinks(filepath.Join(root, device))
		if err != nil {
			return device
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return device
		}
		return "/" + rel
	}
}
