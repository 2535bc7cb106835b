package main

import (
	"os"
	"syscall"
)

// tmpfsMagic is statfs's f_type of a tmpfs.
const tmpfsMagic = 0x01021994

// memoryDir is where generated trees go: a tmpfs when the machine has one
// at /dev/shm, else the temporary directory. procfs and sysfs live in
// memory; a tree on a disk filesystem does not stay so: on the bench's
// virtual machines the page cache gave back a file's pages within seconds
// of its last read (fincore: 636 KB of a 635 KB diskstats, 472 KB 40 s
// later), so a reader paid disk reads that the files it stands in for
// never cost, and the slower it read the more it paid — which tilted the
// comparison of a slowed-down agent with its full rate.
func memoryDir() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err == nil && st.Type == tmpfsMagic {
		return "/dev/shm"
	}
	return os.TempDir()
}

// treeDir makes a directory for a generated tree.
func treeDir(prefix string) (string, error) {
	return os.MkdirTemp(memoryDir(), prefix)
}
