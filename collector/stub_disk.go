package collector

// Placeholder until the disk collector lands; replaced by diskstats.go.
func NewDiskCollector(env Env) (Collector, error) { return newStub("disk"), nil }
