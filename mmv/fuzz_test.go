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
		f.Add(mmvtest.Build(small(v)).Data)
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

// small is a version's file of two metrics, one over a domain of one
// instance, so the fuzzer's mutations and minimisations stay cheap.
func small(version int) mmvtest.Spec {
	s := mmvtest.Spec{Version: version, Cluster: 1,
		Indoms: []mmvtest.Indom{{Serial: 1, Instances: []mmvtest.Instance{{ID: 0, Name: "i"}}, Short: "d"}},
		Metrics: []mmvtest.Metric{
			{Name: "a", Item: 1, Type: mmvtest.TypeString, Sem: mmvtest.SemInstant, Indom: 1, Values: []mmvtest.Val{mmvtest.Str("s")}},
			{Name: "b.c", Item: 2, Type: mmvtest.TypeElapsed, Sem: mmvtest.SemCounter, Indom: mmvtest.NoIndom, Long: "h", Values: []mmvtest.Val{mmvtest.Elapsed(1, -1)}},
		},
	}
	if version == 3 {
		s.Labels = []mmvtest.Label{{Flags: mmvtest.LabelInstances, Identity: 1, Instance: 0, Text: `{"x":1}`}}
	}
	return s
}
