// Package proc holds the collectors that twin pmdaproc: the per-process
// metrics (hostcache.proc.*), read from /proc/<pid> once a sample for
// every client. Registry is its entry in the collector package's registry.
package proc
