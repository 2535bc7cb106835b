// Package kernel reads the kernel's text files under /proc and /sys and
// parses them into plain integer and float fields.
//
// Files sampled every second are kept open and re-read with pread (File);
// the parsers reuse their storage, so a steady-state sample allocates
// nothing. Each parser documents the format it accepts, after the kernel's
// documentation and what pmdalinux reads, and is checked against procfs
// where both parse the same file. The package knows nothing of metrics.
package kernel
