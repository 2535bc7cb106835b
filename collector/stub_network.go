package collector

// Placeholders until the network collectors land.
func NewNetworkCollector(env Env) (Collector, error)  { return newStub("network"), nil }
func NewNetProtoCollector(env Env) (Collector, error) { return newStub("netproto"), nil }
