package config

import "maps"

// NeedsRestart lists the keys whose values differ between the running
// configuration and a re-read one but wait for a restart (OnReload):
// first the keys without a NAME or INDOM, then those with one, each in
// the order of Keys.
func NeedsRestart(running, next Config) []string {
	var plain, named []string
	for _, k := range Keys() {
		if k.OnReload != WaitsForRestart {
			continue
		}
		for _, part := range k.field.differ(&running, &next) {
			if k.Pattern() {
				named = append(named, k.written(part))
			} else {
				plain = append(plain, k.Name)
			}
		}
	}
	return append(plain, named...)
}

// Keep returns running with every key a reload applies (OnReload) taken
// from next: what a reload leaves in force.
func Keep(running, next Config) Config {
	kept := running
	for _, k := range Keys() {
		if k.OnReload == Applied {
			k.field.take(&kept, &next)
		}
	}
	kept.Origins = maps.Clone(next.Origins)
	return kept
}
