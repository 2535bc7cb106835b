// Package proc is the home of the collectors that twin pmdaproc: the
// per-process metrics (proc.*), read from /proc/<pid>. It holds none yet;
// Registry is its entry in the collector package's registry, so that a
// collector added here is registered by listing it there.
package proc
