// Package mmvfiles is the collector that twins pmdammv: it serves the
// metrics of the MMV files instrumented programs write ($PCP_TMP_DIR/mmv)
// as hostcache.mmv.<file>.<metric>, read through the mmv package, with the
// catalog's own hostcache.mmv.control.* metrics. Registry lists it for
// the collector package's registry.
package mmvfiles
