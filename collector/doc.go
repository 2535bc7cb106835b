// Package collector holds the registry of every collector and the host's
// collectors, pmdalinux's twins: one per /proc or /sys source, each in the
// file named after it (cpu.go, memory.go, disk.go, ...). The host's network
// collectors are in the network subpackage; the collectors that twin other
// agents are in mmvfiles (pmdammv's MMV files) and proc (pmdaproc's
// processes). registry.go lists every package's entries in one fixed order.
// hostkit holds what the host's packages share, and collectortest runs a
// collector in the engine for their tests. A collector declares its
// metrics, with their full names written out, reads its source through the
// kernel package and sets values through the engine's rates and the cache's
// builder. It never sees a PDU.
package collector
