package mmv

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// FuzzParse parses any bytes and reads every value of what parses, from
// the bytes and from every shorter prefix of the value's record; nothing
// may panic and a parsed file's values must lie inside it.
func FuzzParse(f *testing.F) {
	for v := 1; v <= 3; v++ {
		spec := mmvtest.AllTypes(v)
		f.Add(mmvtest.Build(spec).Data)
		spec.Flags |= mmvtest.FlagSentinel
		spec.Indoms = nil
		for i := range spec.Metrics {
			spec.Metrics[i].Indom = mmvtest.NoIndom
			spec.Metrics[i].Values = spec.Metrics[i].Values[:1]
		}
		spec.Labels = spec.Labels[:min(1, len(spec.Labels))]
		f.Add(mmvtest.Build(spec).Data)
	}
	now := time.Now()
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, DefaultLimits())
		if err != nil {
			if file != nil {
				t.Fatal("a file with an error")
			}
			return
		}
		for i := range file.Values {
			v := &file.Values[i]
			if v.Offset+16 > int64(len(data)) || v.Metric >= len(file.Metrics) {
				t.Fatalf("value %d outside the file: %+v", i, v)
			}
			read(v, data)
			v.Elapsed(data, now)
			read(v, data[:v.Offset+4])
		}
	})
}
