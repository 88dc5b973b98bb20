package chart

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
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

// Every bar, its label's slot and its interval lie inside the plot's
// ranges with room to spare: the last bar used to be cut in half and the
// error bars ran into the frame.
func TestBarChartRanges(t *testing.T) {
	for _, c := range []BarChart{
		{Bars: []Bar{{Label: "0 shark", Value: 0.3, Lo: 0.18, Hi: 0.45}, {Label: "3 turtle", Value: 0, Lo: 0, Hi: 0.09}}, YMin: Ptr(0)},
		{Bars: []Bar{{Label: "a", Value: 0.98, Lo: 0.95, Hi: 0.995}}, YMin: Ptr(0), YMax: Ptr(1)},
		{Bars: []Bar{{Label: "up", Value: 520, Lo: 380, Hi: 525}, {Label: "down", Value: -520, Lo: -525, Hi: -380}}, Ref: Ptr(0)},
		{Bars: []Bar{{Label: "x", Value: 0.1, Lo: 0.05, Hi: 0.15}, {Label: "y", Value: 0.1, Lo: 0.05, Hi: 0.15}}, Ref: Ptr(0.5)},
	} {
		p, err := c.plot()
		if err != nil {
			t.Fatal(err)
		}
		n := float64(len(c.Bars))
		if p.X.Min > -0.5 || p.X.Max < n-0.5 {
			t.Errorf("%v: X range [%g, %g] cuts a slot of bars 0..%g", c.Bars, p.X.Min, p.X.Max, n-1)
		}
		lo, hi := 0.0, 0.0
		for _, b := range c.Bars {
			lo, hi = min(lo, b.Lo, b.Value), max(hi, b.Hi, b.Value)
		}
		if c.Ref != nil {
			lo, hi = min(lo, *c.Ref), max(hi, *c.Ref)
		}
		room := 0.05 * (hi - lo)
		if p.Y.Max < hi+room {
			t.Errorf("%v: Y max %g leaves no room above %g", c.Bars, p.Y.Max, hi)
		}
		if lo < 0 && p.Y.Min > lo-room {
			t.Errorf("%v: Y min %g leaves no room below %g", c.Bars, p.Y.Min, lo)
		}
		if lo == 0 && p.Y.Min != 0 {
			t.Errorf("%v: Y min %g, want the bars' base 0", c.Bars, p.Y.Min)
		}
		if c.YMax != nil && p.Y.Max < *c.YMax {
			t.Errorf("Y max %g short of the fixed %g", p.Y.Max, *c.YMax)
		}
	}
}

// Long labels widen the figure rather than run into each other.
func TestBarChartWidensForLabels(t *testing.T) {
	dir := t.TempDir()
	var bs []Bar
	for range 10 {
		bs = append(bs, Bar{Label: "all-four-sealed-and-more\n3 turtle", Value: 0.2, Lo: 0.1, Hi: 0.3})
	}
	path := filepath.Join(dir, "w.svg")
	if err := (BarChart{Bars: bs}).Save(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt"`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("no width in %.200s", data)
	}
	if w, _ := strconv.ParseFloat(string(m[1]), 64); w <= DefaultWidth.Points() {
		t.Errorf("width %gpt for ten long labels", w)
	}
}

// The legend lists only series with something drawn, and a line at a
// fixed end of the range keeps clear of the frame.
func TestLineChartLegendAndRange(t *testing.T) {
	x := []float64{0, 200, 400}
	c := LineChart{LogY: true, Series: []Series{
		{Name: "max", X: x, Y: []float64{10, 100, 1000}},
		{Name: "min", X: x, Y: []float64{0, 0, 0}},
	}}
	p, legend, err := c.plot()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(legend, []string{"max"}) {
		t.Errorf("legend %q, want only the drawn series", legend)
	}
	if p.Y.Min >= 1 || p.Y.Max <= 3 {
		t.Errorf("log10 Y range [%g, %g] does not hold 1..3 with room", p.Y.Min, p.Y.Max)
	}
	c = LineChart{YMin: Ptr(0), YMax: Ptr(1), Series: []Series{{Name: "p", X: x, Y: []float64{0.5, 1, 1}}}}
	if p, _, _ = c.plot(); p.Y.Min != 0 || p.Y.Max <= 1 {
		t.Errorf("Y range [%g, %g], want [0, past 1]", p.Y.Min, p.Y.Max)
	}
}

// Series that run together are given lanes side by side.
func TestLanes(t *testing.T) {
	x := []float64{0, 1, 2}
	run := func(y ...float64) []plotter.XYs {
		var r plotter.XYs
		for i := range x {
			r = append(r, plotter.XY{X: x[i], Y: y[i]})
		}
		return []plotter.XYs{r}
	}
	l := lanes([][]plotter.XYs{run(1, 1, 0.5), run(1, 1, 1), run(0.2, 0.3, 0.4)})
	if l[0][0][0] == l[1][0][0] || l[0][0][1] == l[1][0][1] {
		t.Errorf("shared points on the same lane: %v, %v", l[0], l[1])
	}
	if l[0][0][2] != 0 || l[1][0][2] != 0 || l[2][0][0] != 0 {
		t.Errorf("a point of its own off its line: %v", l)
	}
}

func tickLabels(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestNiceTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{56, 1000, []string{"200", "400", "600", "800", "1000"}},
		{0, 1000, []string{"0", "200", "400", "600", "800", "1000"}},
		{0, 1.08, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{-0.06, 1.06, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{-610, 610, []string{"-600", "-400", "-200", "0", "200", "400", "600"}},
		{0, 0.037, []string{"0.000", "0.005", "0.010", "0.015", "0.020", "0.025", "0.030", "0.035"}},
	} {
		if got := tickLabels(niceTicks{}.Ticks(c.lo, c.hi)); !slices.Equal(got, c.want) {
			t.Errorf("ticks of [%g, %g]: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
	if got := tickLabels(decadeTicks{}.Ticks(-0.2, 3.3)); !slices.Equal(got, []string{"1", "10", "100", "1000"}) {
		t.Errorf("decades: %q", got)
	}
	if got := tickLabels(decadeTicks{}.Ticks(math.Log10(2.5), math.Log10(8.5))); !slices.Equal(got, []string{"3", "4", "5", "6", "7", "8"}) {
		t.Errorf("within a decade: %q", got)
	}
}

// SVG text is drawn as outlines that span the width the layout measured,
// so that no viewer's font substitution changes it; the words stay in the
// document's <desc>.
func TestSVGTextOutlines(t *testing.T) {
	const s = "Marvin Gardens"
	face := plot.DefaultTextHandler.Cache().Lookup(font.Font{Typeface: "Liberation", Variant: "Sans"}, 20)
	c := NewSVG(4*vg.Inch, vg.Inch, "a title & more")
	c.FillString(face, vg.Point{X: 10, Y: 30}, s)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	doc := buf.String()
	if strings.Contains(doc, "<text") || !strings.Contains(doc, "<path") {
		t.Fatalf("text not drawn as outlines:\n%.400s", doc)
	}
	if !strings.Contains(doc, "<title>a title &amp; more</title>") || !strings.Contains(doc, "<desc>"+s+"</desc>") {
		t.Errorf("no title or desc:\n%.400s", doc)
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, m := range regexp.MustCompile(`[MLQC ]([-0-9.e+]+),([-0-9.e+]+)`).FindAllStringSubmatch(doc[strings.Index(doc, "<path"):], -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		xmin, xmax = min(xmin, x), max(xmax, x)
	}
	w := face.Width(s).Points()
	if xmin < 10 || xmax > 10+w || xmax-xmin < 0.9*w {
		t.Errorf("outlines span x %g..%g, the measured text 10..%g", xmin, xmax, 10+w)
	}
}
