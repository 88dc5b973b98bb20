package chart

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestLineChartFormats(t *testing.T) {
	dir := t.TempDir()
	c := LineChart{
		Title: "t", XLabel: "x", YLabel: "y", LogY: true,
		Series: []Series{
			{Name: "a", X: []float64{1, 2, 3, 4}, Y: []float64{1, 10, math.NaN(), 100}},
			{Name: "b", X: []float64{1, 2, 3, 4}, Y: []float64{0, 2, 3, 4}, Dashed: true},
		},
	}
	png := filepath.Join(dir, "a.png")
	svg := filepath.Join(dir, "a.SVG")
	for _, p := range []string{png, svg} {
		if err := c.Save(p); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(png)
	if !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatal("not a PNG")
	}
	data, _ = os.ReadFile(svg)
	if !bytes.Contains(data[:min(len(data), 400)], []byte("<svg")) {
		t.Fatal("not an SVG")
	}
	if err := c.Save(filepath.Join(dir, "a.pdf")); !errors.Is(err, ErrFormat) {
		t.Fatalf("pdf accepted: %v", err)
	}
	bad := LineChart{Series: []Series{{Name: "x", X: []float64{1}, Y: nil}}}
	if err := bad.Save(filepath.Join(dir, "b.png")); err == nil {
		t.Fatal("mismatched series accepted")
	}
	// Nothing positive on a log axis still draws (linear) rather than panicking.
	empty := LineChart{LogY: true, Series: []Series{{Name: "z", X: []float64{1, 2}, Y: []float64{0, 0}}}}
	if err := empty.Save(filepath.Join(dir, "c.svg")); err != nil {
		t.Fatal(err)
	}
}

func TestBarChart(t *testing.T) {
	dir := t.TempDir()
	c := BarChart{Title: "win rates", YLabel: "rate", YMin: Ptr(0), YMax: Ptr(1), Bars: []Bar{
		{Label: "A", Value: 0.6, Lo: 0.55, Hi: 0.65},
		{Label: "B", Value: 0.3, Lo: 0.2, Hi: 0.4},
	}}
	for _, name := range []string{"b.png", "b.svg"} {
		p := filepath.Join(dir, name)
		if err := c.Save(p); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Fatalf("%s not written", name)
		}
	}
	if err := (BarChart{}).Save(filepath.Join(dir, "e.png")); err == nil {
		t.Fatal("empty bar chart accepted")
	}
	nan := BarChart{Bars: []Bar{{Label: "x", Value: math.NaN()}}}
	if err := nan.Save(filepath.Join(dir, "n.png")); err == nil {
		t.Fatal("NaN bar accepted")
	}
}

// A reference line is drawn (dashed, across the bars) only when asked.
func TestBarChartRef(t *testing.T) {
	dir := t.TempDir()
	c := BarChart{Bars: []Bar{{Label: "A", Value: 0.4, Lo: 0.3, Hi: 0.5}, {Label: "B", Value: 0.2, Lo: 0.1, Hi: 0.3}}}
	plain := filepath.Join(dir, "plain.svg")
	if err := c.Save(plain); err != nil {
		t.Fatal(err)
	}
	c.Ref = Ptr(0.25)
	ref := filepath.Join(dir, "ref.svg")
	if err := c.Save(ref); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(ref)
	if bytes.Contains(a, []byte("stroke-dasharray")) || !bytes.Contains(b, []byte("stroke-dasharray")) {
		t.Error("the dashed reference line is not where it was asked for")
	}
	c.Ref = Ptr(math.Inf(1))
	if err := c.Save(filepath.Join(dir, "inf.png")); err == nil {
		t.Error("an infinite reference line accepted")
	}
}
