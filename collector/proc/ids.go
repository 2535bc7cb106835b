package proc

import "github.com/pmdahostcache/pmdahostcache/cache"

// Cluster numbers are part of every PMID and therefore an ABI. Each is
// pmdaproc's cluster plus 100, so that a twin's item is its pmdaproc
// item and the host's clusters (below 100) stay clear.
const (
	clusterPsinfo    = 108 // pmdaproc 8: /proc/PID/stat, cmdline; proc.nprocs
	clusterMemory    = 109 // pmdaproc 9: /proc/PID/statm
	clusterCgroup    = 111 // pmdaproc 11: /proc/PID/cgroup
	clusterLabels    = 112 // pmdaproc 12: /proc/PID/attr/current
	clusterRunq      = 113 // pmdaproc 13: every process's state, counted
	clusterStatus    = 124 // pmdaproc 24: /proc/PID/status
	clusterSchedstat = 131 // pmdaproc 31: /proc/PID/schedstat
	clusterIO        = 132 // pmdaproc 32: /proc/PID/io
	clusterSmaps     = 133 // pmdaproc 33: /proc/PID/smaps_rollup
	clusterFD        = 151 // pmdaproc 51: /proc/PID/fd
	clusterOOM       = 162 // pmdaproc 62: /proc/PID/oom_score
	clusterExe       = 169 // pmdaproc 69: /proc/PID/exe
	clusterCwd       = 172 // pmdaproc 72: /proc/PID/cwd
	clusterAutogroup = 174 // pmdaproc 74: /proc/PID/autogroup
)

// indomProcess is the process instance domain, pmdaproc's 3.9: instance
// id the PID, name the PID in six digits and the command's first word.
const indomProcess cache.InDomID = 50
