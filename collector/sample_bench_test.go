package collector

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// BenchmarkSample times one sample of each registered collector against
// this machine's /proc and /sys: the background cost the agent pays per
// interval.
func BenchmarkSample(b *testing.B) {
	for _, reg := range Registry() {
		b.Run(reg.Name, func(b *testing.B) {
			c, err := reg.Factory(engine.Env{Proc: "/proc", Sys: "/sys", IDDir: b.TempDir()})
			if err != nil {
				b.Skip(err)
			}
			schema, err := cache.NewSchema(c.Source())
			if err != nil {
				b.Fatal(err)
			}
			now := time.Now()
			bld := schema.NewBuilder(0, now) // reused, as the runner does
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(time.Second)
				bld.Reset(now)
				if err := c.Sample(bld, now); err != nil {
					b.Fatal(err)
				}
				if _, err := bld.Part(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
