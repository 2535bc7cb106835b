package collector

// Placeholders until the filesys, pressure, vmstat and swap collectors land.
func NewFilesysCollector(env Env) (Collector, error)  { return newStub("filesys"), nil }
func NewPressureCollector(env Env) (Collector, error) { return newStub("pressure"), nil }
func NewVMStatCollector(env Env) (Collector, error)   { return newStub("vmstat"), nil }
func NewSwapCollector(env Env) (Collector, error)     { return newStub("swap"), nil }
