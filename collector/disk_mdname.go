package collector

import (
	"os"
	"path/filepath"
)

// mdLinks is where udev's persistent md names are: /dev/md below the
// directory holding the /proc root, as filesys resolves device links, so
// that an agent reading a host's /proc from a container finds the host's.
func mdLinks(proc string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(proc)), "dev", "md")
}

// mdName is the instance name of md array dev ("md127"), as pmdalinux
// names it: the entry of /dev/md whose link ends in dev ("root" for
// /dev/md/root -> ../md127), leaving out udev's numbered entries ("0"),
// or dev itself when no entry names it. It is read at a placement and at
// the layout's minute check only: a host has a handful of arrays.
func mdName(links, dev string) string {
	entries, err := os.ReadDir(links)
	if err != nil {
		return dev
	}
	for _, e := range entries {
		name := e.Name()
		if name[0] == '.' || (name[0] >= '0' && name[0] <= '9') {
			continue
		}
		target, err := os.Readlink(filepath.Join(links, name))
		if err == nil && filepath.Base(target) == dev {
			return name
		}
	}
	return dev
}
