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
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// palette holds eleven colours that stay apart side by side as lines
// (the training figures draw up to eleven series): the Okabe–Ito colours
// without their yellow, which is faint on white, and four more.
var palette = []color.RGBA{
	{0, 114, 178, 255},   // blue
	{230, 159, 0, 255},   // orange
	{0, 158, 115, 255},   // bluish green
	{213, 94, 0, 255},    // vermilion
	{204, 121, 167, 255}, // reddish purple
	{86, 180, 233, 255},  // sky blue
	{0, 0, 0, 255},       // black
	{140, 86, 75, 255},   // brown
	{127, 127, 127, 255}, // grey
	{106, 61, 154, 255},  // violet
	{153, 153, 51, 255},  // olive
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
	// Colour is the line's colour; nil takes the palette's colour of the
	// series' index.
	Colour color.Color
}

// LineChart is a line plot of several series.
//
// Where lines run together (a probability of 1 for several actions, say)
// they are drawn side by side a line's width apart, so that every series
// stays visible instead of the last one hiding the others. The legend
// lists the series that have something drawn.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// LogY draws the Y axis on a log scale; points with Y ≤ 0 are left
	// out since they have no place on it.
	LogY bool
	// YMin and YMax, when set, are values the Y axis always reaches;
	// it goes a little past the data, and so past them, to keep the
	// lines clear of the frame.
	YMin, YMax *float64
	// Width and Height default to DefaultWidth and DefaultHeight.
	Width, Height vg.Length
}

// Bar is one bar with its 95% confidence interval [Lo, Hi].
type Bar struct {
	Label         string
	Value, Lo, Hi float64
}

// BarChart is a bar chart with confidence-interval error bars. Each bar
// stands centred in a slot of its own, so the first and the last are as
// clear of the frame as of their neighbours, and the Y axis reaches a
// little past the highest (and lowest) thing drawn so that no error bar
// or reference line runs into the frame. The figure is widened when the
// bars' labels or the title need more room than Width gives.
type BarChart struct {
	Title, YLabel string
	Bars          []Bar
	// Ref, when set, draws a dashed horizontal line at that value: the
	// rate every bar would show by chance, say.
	Ref *float64
	// YMin and YMax, when set, are values the Y axis always reaches (0
	// and 1 for a rate, say); it goes past them only to keep what is
	// drawn clear of the frame.
	YMin, YMax    *float64
	Width, Height vg.Length
}

// Layout constants.
const (
	// margin keeps the title and the outermost labels off the edges.
	margin vg.Length = 9 // points
	// lineWidth is a series' width; series that run together are
	// drawn laneSpacing apart.
	lineWidth             = 1.8
	laneSpacing vg.Length = 2.6 // points
	// A bar fills barShare of its slot, up to maxBarWidth.
	barShare    = 0.6
	maxBarWidth = vg.Inch
	// headroom is the share of the data's span left between the data
	// and the frame, above and below (but not under bars standing on
	// zero).
	headroom = 0.08
)

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

// laneLine is one run of a series, each point moved up or down by its
// lane (in line spacings) so that series that run together are drawn
// side by side, like tracks that share a route, instead of on top of one
// another. A run of one point is drawn as a dot.
type laneLine struct {
	pts   plotter.XYs
	lanes []float64
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (l laneLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, len(l.pts))
	for i, q := range l.pts {
		pts[i] = vg.Point{X: trX(q.X), Y: trY(q.Y) + vg.Length(l.lanes[i])*laneSpacing}
	}
	if len(pts) == 1 {
		if c.Contains(pts[0]) {
			c.DrawGlyph(draw.GlyphStyle{Color: l.style.Color, Radius: l.style.Width * 1.2, Shape: draw.CircleGlyph{}}, pts[0])
		}
		return
	}
	c.StrokeLines(l.style, c.ClipLinesXY(pts)...)
}

// lanes returns, for each series and each point of its runs, its lane:
// the series through a point share it out, the first on top, centred on
// the point.
func lanes(runs [][]plotter.XYs) [][][]float64 {
	through := map[plotter.XY][]int{}
	for i, rs := range runs {
		for _, run := range rs {
			for _, q := range run {
				if l := through[q]; len(l) == 0 || l[len(l)-1] != i {
					through[q] = append(l, i)
				}
			}
		}
	}
	out := make([][][]float64, len(runs))
	for i, rs := range runs {
		for _, run := range rs {
			ls := make([]float64, len(run))
			for k, q := range run {
				l := through[q]
				ls[k] = float64(len(l)-1)/2 - float64(slices.Index(l, i))
			}
			out[i] = append(out[i], ls)
		}
	}
	return out
}

// Save draws the chart to path (.png or .svg).
func (c LineChart) Save(path string) error {
	if err := checkExt(path); err != nil {
		return err
	}
	p, legend, err := c.plot()
	if err != nil {
		return err
	}
	w, h := size(c.Width, c.Height)
	return render(p, w, h, path, len(legend) > 0)
}

// plot builds the chart's plot and returns it with the names its legend
// lists.
func (c LineChart) plot() (*plot.Plot, []string, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Add(plotter.NewGrid())
	runs := make([][]plotter.XYs, len(c.Series))
	for i, s := range c.Series {
		var err error
		if runs[i], err = segments(s, c.LogY); err != nil {
			return nil, nil, err
		}
		// A log axis is drawn as a linear axis of log10(y): gonum's
		// log scale places the axis label's box at the arithmetic
		// middle of the range and shrinks the plot to fit it.
		if c.LogY {
			for _, run := range runs[i] {
				for k := range run {
					run[k].Y = math.Log10(run[k].Y)
				}
			}
		}
	}
	lns := lanes(runs)
	var legend []string
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for i, s := range c.Series {
		col := s.Colour
		if col == nil {
			col = Colour(i)
		}
		style := draw.LineStyle{Color: col, Width: vg.Points(lineWidth)}
		if s.Dashed || (s.Colour == nil && i >= len(palette)) {
			style.Dashes = []vg.Length{vg.Points(7), vg.Points(3.5)}
		}
		for k, run := range runs[i] {
			p.Add(laneLine{pts: run, lanes: lns[i][k], style: style})
			for _, q := range run {
				ylo, yhi = min(ylo, q.Y), max(yhi, q.Y)
			}
		}
		if len(runs[i]) > 0 {
			legend = append(legend, s.Name)
			p.Legend.Add(s.Name, &plotter.Line{LineStyle: style})
		}
	}
	// The lines carry no data range of their own: the axes are set here.
	if len(legend) > 0 {
		xlo, xhi := math.Inf(1), math.Inf(-1)
		for _, rs := range runs {
			for _, run := range rs {
				for _, q := range run {
					xlo, xhi = min(xlo, q.X), max(xhi, q.X)
				}
			}
		}
		p.X.Min, p.X.Max = xlo, xhi
	}
	p.Y.Tick.Marker = niceTicks{}
	span := 1e-9
	if c.LogY {
		p.Y.Tick.Marker = decadeTicks{}
		span = 1 // a decade at least, so that a tick is labelled
	}
	if len(legend) > 0 {
		pad := headroom * max(yhi-ylo, span)
		p.Y.Min, p.Y.Max = ylo-pad, yhi+pad
	}
	// The fixed ends are always reached; the headroom may go past them.
	fix := func(v float64) (float64, bool) {
		if !c.LogY {
			return v, true
		}
		return math.Log10(v), v > 0
	}
	if c.YMin != nil {
		if v, ok := fix(*c.YMin); ok {
			p.Y.Min = min(p.Y.Min, v)
		}
	}
	if c.YMax != nil {
		if v, ok := fix(*c.YMax); ok {
			p.Y.Max = max(p.Y.Max, v)
		}
	}
	p.X.Tick.Marker = niceTicks{}
	return p, legend, nil
}

// render draws p to path, with the legend, if any, in a column to the
// right of the plot so that it never hides a line. The figure is widened,
// if need be, to fit the title.
func render(p *plot.Plot, w, h vg.Length, path string, legend bool) (err error) {
	leg := p.Legend
	var lw vg.Length
	if legend {
		leg.Top, leg.Left = true, true
		leg.ThumbnailWidth = vg.Points(28)
		leg.Padding = vg.Points(3)
		r := leg.Rectangle(draw.Canvas{})
		lw = r.Max.X - r.Min.X + vg.Points(12)
		p.Legend = plot.NewLegend() // drawn separately, outside the data area
	}
	w = max(w, p.Title.TextStyle.Width(p.Title.Text)+2*margin+lw)
	var cw vg.CanvasWriterTo
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		cw = NewSVG(w, h, p.Title.Text)
	} else {
		cw = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	}
	dc := draw.New(cw)
	// The margins too are white: a transparent PNG shows black in some
	// viewers.
	dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	p.BackgroundColor = nil
	dc = draw.Crop(dc, margin, -margin, margin, -margin)
	if legend {
		plotArea := draw.Crop(dc, 0, -lw, 0, 0)
		p.Draw(plotArea)
		// The legend starts level with the top of the data area.
		top := dc.Max.Y - p.DataCanvas(plotArea).Max.Y
		leg.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-lw+vg.Points(12), 0, 0, -top))
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

// niceTicks marks an axis every 1, 2 or 5 times a power of ten: the
// widest such step that still gives at least four intervals, so that five
// to eleven labelled ticks fall on round numbers, with an unlabelled tick
// halfway between.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	step := niceStep((hi - lo) / 4)
	// Labels carry as many decimals as the step needs.
	prec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	const eps = 1e-9
	first := math.Ceil(lo/step - eps)
	var ticks []plot.Tick
	if m := (first - 0.5) * step; m >= lo {
		ticks = append(ticks, plot.Tick{Value: m})
	}
	for k := first; k*step <= hi+step*eps; k++ {
		v := k * step
		if math.Abs(v) < step*eps {
			v = 0 // not "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', prec, 64)})
		if m := v + step/2; m <= hi {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
}

// decadeTicks marks an axis of log10(y) at every power of ten, labelled
// with y, and at 2 to 9 times each, unlabelled unless the range holds
// less than two powers of ten.
type decadeTicks struct{}

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	var ys []float64
	labelled := 0
	for k := math.Floor(lo); k <= math.Ceil(hi); k++ {
		for m := 1; m < 10; m++ {
			v := k + math.Log10(float64(m))
			if v < lo-1e-9 || v > hi+1e-9 {
				continue
			}
			y := float64(m) * math.Pow10(int(k))
			t := plot.Tick{Value: v}
			if m == 1 {
				t.Label = decadeLabel(y)
				labelled++
			}
			ticks, ys = append(ticks, t), append(ys, y)
		}
	}
	if labelled < 2 {
		for i := range ticks {
			ticks[i].Label = decadeLabel(ys[i])
		}
	}
	return ticks
}

// decadeLabel writes a tick value of a log axis: in full between 0.001
// and a million, in e-notation beyond.
func decadeLabel(y float64) string {
	if y >= 1e-3 && y < 1e6 {
		return strconv.FormatFloat(y, 'g', 6, 64)
	}
	return strconv.FormatFloat(y, 'g', 2, 64)
}

// niceStep returns the largest of 1, 2 or 5 times a power of ten that is
// at most x > 0.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	switch f := x / p; {
	case f >= 5:
		return 5 * p
	case f >= 2:
		return 2 * p
	}
	return p
}

// bars draws a bar chart's bars, bar i at x = i in a slot one unit wide,
// from zero to its value.
type bars struct {
	values []float64
	colour color.Color
}

// Plot implements plot.Plotter.
func (b bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	half := min((trX(1)-trX(0))*barShare, maxBarWidth) / 2
	for i, v := range b.values {
		x := trX(float64(i))
		y0, y1 := trY(0), trY(v)
		pts := []vg.Point{{X: x - half, Y: y0}, {X: x + half, Y: y0}, {X: x + half, Y: y1}, {X: x - half, Y: y1}}
		c.FillPolygon(b.colour, c.ClipPolygonXY(pts))
	}
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

// yRange returns the Y axis range of a bar chart: everything drawn (bars
// from zero, intervals, the reference line) with headroom, and the fixed
// ends. A range that starts at zero, where the bars stand, gets no room
// below.
func (c BarChart) yRange() (lo, hi float64) {
	for _, b := range c.Bars {
		lo = min(lo, b.Value, b.Lo)
		hi = max(hi, b.Value, b.Hi)
	}
	if c.Ref != nil {
		lo, hi = min(lo, *c.Ref), max(hi, *c.Ref)
	}
	span := hi - lo
	if span == 0 {
		span = 1
	}
	hi += headroom * span
	if lo < 0 {
		lo -= headroom * span
	}
	if c.YMin != nil {
		lo = min(lo, *c.YMin)
	}
	if c.YMax != nil {
		hi = max(hi, *c.YMax)
	}
	return lo, hi
}

// Save draws the chart to path (.png or .svg).
func (c BarChart) Save(path string) error {
	if err := checkExt(path); err != nil {
		return err
	}
	p, err := c.plot()
	if err != nil {
		return err
	}
	w, h := size(c.Width, c.Height)
	// Widen the figure until every label fits its slot: the Y axis and
	// the margins take about an inch, each slot the widest label line
	// and a little air.
	var label vg.Length
	for _, b := range c.Bars {
		for _, line := range strings.Split(b.Label, "\n") {
			label = max(label, p.X.Tick.Label.Width(line))
		}
	}
	w = max(w, vg.Inch+vg.Length(len(c.Bars))*(label+vg.Points(12)))
	return render(p, w, h, path, false)
}

// plot builds the chart's plot.
func (c BarChart) plot() (*plot.Plot, error) {
	if len(c.Bars) == 0 {
		return nil, errors.New("chart: bar chart without bars")
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.Y.Label.Text = c.YLabel
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil // the bars need no lines through them
	p.Add(grid)
	vals := make([]float64, len(c.Bars))
	names := make([]string, len(c.Bars))
	for i, b := range c.Bars {
		for _, v := range []float64{b.Value, b.Lo, b.Hi} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("chart: bar %q has a non-finite value", b.Label)
			}
		}
		vals[i] = b.Value
		names[i] = b.Label
	}
	p.Add(bars{values: vals, colour: Colour(0)})
	eb, err := plotter.NewYErrorBars(errBars(c.Bars))
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	eb.LineStyle.Width = vg.Points(1.5)
	p.Add(eb)
	n := float64(len(c.Bars))
	if c.Ref != nil {
		if math.IsNaN(*c.Ref) || math.IsInf(*c.Ref, 0) {
			return nil, errors.New("chart: non-finite reference line")
		}
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: *c.Ref}, {X: n - 0.5, Y: *c.Ref}})
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		l.LineStyle = draw.LineStyle{Color: Colour(3), Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		p.Add(l)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, n-0.5
	p.Y.Min, p.Y.Max = c.yRange()
	p.Y.Tick.Marker = niceTicks{}
	return p, nil
}
