package render_test

import (
	"testing"

	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
	"github.com/gopoly/gopoly/wire/wiretest"
)

func BenchmarkSnapshotSVG(b *testing.B) {
	s := wire.NewSnapshot(wiretest.TradePosition(b), -1, names)
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		size = len(render.SVG(s))
	}
	b.ReportMetric(float64(size), "bytes/doc")
}
