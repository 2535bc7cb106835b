package hostkit

import (
	"slices"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// IndomLabels are the labels pmdalinux gives the same instance domain:
// device_type, as JSON text (a string or a list of strings), and
// indom_name.
func IndomLabels(deviceType, indomName string) []cache.Label {
	return []cache.Label{{Name: "device_type", Value: deviceType}, cache.StringLabel("indom_name", indomName)}
}

// SameHostInstances reports whether two instance lists are identical,
// labels included, so an unchanged domain keeps its table.
func SameHostInstances(a, b []cache.Instance) bool {
	return slices.EqualFunc(a, b, func(x, y cache.Instance) bool {
		return x.ID == y.ID && x.Name == y.Name && slices.Equal(x.Labels, y.Labels)
	})
}
