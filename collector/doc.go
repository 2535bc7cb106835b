// Package collector holds the collectors: one per /proc or /sys source,
// each in the file named after it (cpu.go, memory.go, disk.go, ...), listed
// in registry.go. A collector declares its metrics, with their full names
// written out, reads its source through the kernel package and sets values
// through the engine's rates and the cache's builder. It never sees a PDU.
package collector
