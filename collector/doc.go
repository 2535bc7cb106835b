// Package collector holds the registry of every collector and the host's
// collectors, pmdalinux's twins: one per /proc or /sys source, each in the
// file named after it (cpu.go, memory.go, disk.go, ...). Its subpackages
// hold the collectors that twin other agents: mmvfiles (pmdammv's MMV
// files) and proc (pmdaproc's processes); registry.go lists each part's
// entries in one fixed order. A collector declares its metrics, with their
// full names written out, reads its source through the kernel package and
// sets values through the engine's rates and the cache's builder. It never
// sees a PDU.
package collector
