// Package chart draws the few figures gopoly reports, line plots of
// training metrics and bar charts of rates with 95% confidence intervals,
// and saves them as PNG or SVG according to the file extension.
package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// palette holds twelve colours that stay distinguishable side by side
// (the training figures draw up to eleven series).
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255}, {0, 0, 0, 255}, {255, 187, 120, 255},
}

// Colour returns the i-th colour of the chart palette.
func Colour(i int) color.Color { return palette[i%len(palette)] }

// Default figure size.
const (
	DefaultWidth  = 8 * vg.Inch
	DefaultHeight = 5 * vg.Inch
)

// Ptr returns a pointer to v, for the optional axis limits.
func Ptr(v float64) *float64 { return &v }

// Series is one line: points (X[i], Y[i]). NaN values leave a gap.
type Series struct {
	Name   string
	X, Y   []float64
	Dashed bool
}

// LineChart is a line plot of several series.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// LogY draws the Y axis on a log scale; points with Y ≤ 0 are left
	// out since they have no place on it.
	LogY bool
	// YMin and YMax fix the Y range when set.
	YMin, YMax *float64
	// Width and Height default to DefaultWidth and DefaultHeight.
	Width, Height vg.Length
}

// Bar is one bar with its 95% confidence interval [Lo, Hi].
type Bar struct {
	Label         string
	Value, Lo, Hi float64
}

// BarChart is a bar chart with confidence-interval error bars.
type BarChart struct {
	Title, YLabel string
	Bars          []Bar
	// Ref, when set, draws a dashed horizontal line at that value: the
	// rate every bar would show by chance, say.
	Ref *float64
	// YMin and YMax fix the Y range when set.
	YMin, YMax    *float64
	Width, Height vg.Length
}

// ErrFormat is returned for a file name that is neither .png nor .svg.
var ErrFormat = errors.New("chart: file name must end in .png or .svg")

func checkExt(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".svg":
		return nil
	}
	return fmt.Errorf("%w: %s", ErrFormat, path)
}

func size(w, h vg.Length) (vg.Length, vg.Length) {
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return w, h
}

// segments splits a series into runs of drawable points.
func segments(s Series, logY bool) ([]plotter.XYs, error) {
	if len(s.X) != len(s.Y) {
		return nil, fmt.Errorf("chart: series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
	}
	var out []plotter.XYs
	var cur plotter.XYs
	for i := range s.X {
		x, y := s.X[i], s.Y[i]
		ok := !math.IsNaN(x) && !math.IsNaN(y) && !math.IsInf(x, 0) && !math.IsInf(y, 0) && (!logY || y > 0)
		if !ok {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, plotter.XY{X: x, Y: y})
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, nil
}

// Save draws the chart to path (.png or .svg).
func (c LineChart) Save(path string) error {
	if err := checkExt(path); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Add(plotter.NewGrid())
	drawn := 0
	for i, s := range c.Series {
		segs, err := segments(s, c.LogY)
		if err != nil {
			return err
		}
		style := draw.LineStyle{Color: Colour(i), Width: vg.Points(1.5)}
		if s.Dashed || i >= len(palette) {
			style.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		for _, seg := range segs {
			l, err := plotter.NewLine(seg)
			if err != nil {
				return fmt.Errorf("chart: series %q: %w", s.Name, err)
			}
			l.LineStyle = style
			p.Add(l)
			drawn++
		}
		// The legend lists every series, even one with nothing to draw.
		p.Legend.Add(s.Name, &plotter.Line{LineStyle: style})
	}
	// A log axis needs positive data to place its ticks.
	if c.LogY && drawn > 0 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if c.YMin != nil {
		p.Y.Min = *c.YMin
	}
	if c.YMax != nil {
		p.Y.Max = *c.YMax
	}
	w, h := size(c.Width, c.Height)
	return render(p, w, h, path, len(c.Series) > 0)
}

// render draws p to path, with the legend, if any, in a column to the
// right of the plot so that it never hides a line.
func render(p *plot.Plot, w, h vg.Length, path string, legend bool) (err error) {
	var cw vg.CanvasWriterTo
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		cw = vgsvg.New(w, h)
	} else {
		cw = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	}
	dc := draw.New(cw)
	if legend {
		leg := p.Legend
		leg.Top = true
		r := leg.Rectangle(dc)
		lw := r.Max.X - r.Min.X + vg.Points(8)
		p.Legend = plot.NewLegend() // drawn separately, outside the data area
		p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
		leg.Draw(draw.Crop(dc, w-lw, 0, 0, -vg.Points(30)))
	} else {
		p.Draw(dc)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("chart: %w", cerr)
		}
	}()
	if _, err := cw.WriteTo(f); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	return nil
}

// errBars adapts bars to gonum's error-bar interfaces.
type errBars []Bar

// Len is the number of bars.
func (b errBars) Len() int { return len(b) }

// XY places bar i at x = i.
func (b errBars) XY(i int) (float64, float64) { return float64(i), b[i].Value }

// YError returns the distances from the value down to Lo and up to Hi.
func (b errBars) YError(i int) (float64, float64) {
	return math.Max(0, b[i].Value-b[i].Lo), math.Max(0, b[i].Hi-b[i].Value)
}

// Save draws the chart to path (.png or .svg).
func (c BarChart) Save(path string) error {
	if err := checkExt(path); err != nil {
		return err
	}
	if len(c.Bars) == 0 {
		return errors.New("chart: bar chart without bars")
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.Y.Label.Text = c.YLabel
	p.Add(plotter.NewGrid())
	vals := make(plotter.Values, len(c.Bars))
	names := make([]string, len(c.Bars))
	for i, b := range c.Bars {
		for _, v := range []float64{b.Value, b.Lo, b.Hi} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("chart: bar %q has a non-finite value", b.Label)
			}
		}
		vals[i] = b.Value
		names[i] = b.Label
	}
	bc, err := plotter.NewBarChart(vals, vg.Points(30))
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	bc.Color = Colour(0)
	bc.LineStyle.Width = 0
	p.Add(bc)
	eb, err := plotter.NewYErrorBars(errBars(c.Bars))
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	eb.LineStyle.Width = vg.Points(1.5)
	p.Add(eb)
	if c.Ref != nil {
		if math.IsNaN(*c.Ref) || math.IsInf(*c.Ref, 0) {
			return errors.New("chart: non-finite reference line")
		}
		n := float64(len(c.Bars))
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: *c.Ref}, {X: n - 0.5, Y: *c.Ref}})
		if err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		l.LineStyle = draw.LineStyle{Color: Colour(3), Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		p.Add(l)
	}
	p.NominalX(names...)
	if c.YMin != nil {
		p.Y.Min = *c.YMin
	}
	if c.YMax != nil {
		p.Y.Max = *c.YMax
	}
	w, h := size(c.Width, c.Height)
	return render(p, w, h, path, false)
}
