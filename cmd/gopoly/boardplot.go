package main

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/chart"
	"github.com/gopoly/gopoly/monopoly"
)

// boardPlotFormat returns the image format a --plot file asks for by its
// extension.
func boardPlotFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	}
	return "", fmt.Errorf("landing: --plot %s: the file must end in .png or .svg", path)
}

// boardPlotFits reports whether the heatmap can draw the rules' board: it
// knows only the standard ring of 40 squares with the jail on square 10.
func boardPlotFits(rules *monopoly.Rules) error {
	if len(rules.Squares) != 40 || rules.JailSquare != 10 {
		return fmt.Errorf("landing: the heatmap draws the standard 40-square board with the jail on square 10; these rules have %d squares, the jail on %d", len(rules.Squares), rules.JailSquare)
	}
	return nil
}

// The board is drawn as on the real one: corners half as wide again as
// the other squares, so a side is 1.5 + 9 + 1.5 units.
const (
	boardUnits  = 12.0
	cornerUnits = 1.5
	boardSize   = 10 * vg.Inch
	boardMargin = 0.2 * vg.Inch
	// boardDPI is the PNG resolution: at the default 96 the small labels
	// of the squares lose their word spacing.
	boardDPI = 160
)

// boardEdge returns where column (or row) k of the 11 begins, in units.
func boardEdge(k int) float64 {
	switch {
	case k <= 0:
		return 0
	case k >= 11:
		return boardUnits
	}
	return cornerUnits + float64(k-1)
}

// boardCell returns the column and row (row 0 at the bottom) of square i
// on the 40-square ring: GO bottom right, Jail bottom left, Free Parking
// top left, Go To Jail top right.
func boardCell(i int) (col, row int) {
	switch {
	case i <= 10:
		return 10 - i, 0
	case i <= 20:
		return 0, i - 10
	case i <= 30:
		return i - 20, 10
	}
	return 10, 40 - i
}

// heatScale maps probabilities to a sequential colour scale (ColorBrewer
// YlOrRd, interpolated between its nine classes).
type heatScale struct {
	lo, hi float64
	stops  []color.Color
}

func newHeatScale(lo, hi float64) (heatScale, error) {
	p, err := brewer.GetPalette(brewer.TypeSequential, "YlOrRd", 9)
	if err != nil {
		return heatScale{}, err
	}
	return heatScale{lo: lo, hi: hi, stops: p.Colors()}, nil
}

func (s heatScale) at(p float64) color.Color {
	t := 0.0
	if s.hi > s.lo {
		t = math.Min(1, math.Max(0, (p-s.lo)/(s.hi-s.lo)))
	}
	x := t * float64(len(s.stops)-1)
	k := min(int(x), len(s.stops)-2)
	f := x - float64(k)
	a, b := rgba8(s.stops[k]), rgba8(s.stops[k+1])
	mix := func(u, v uint8) uint8 { return uint8(math.Round(float64(u)*(1-f) + float64(v)*f)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

func rgba8(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
}

// inkOn returns black or white, whichever reads better on c.
func inkOn(c color.Color) color.Color {
	k := rgba8(c)
	if 0.299*float64(k.R)+0.587*float64(k.G)+0.114*float64(k.B) < 140 {
		return color.White
	}
	return color.Black
}

// neverColor marks squares no roll ends on (Go To Jail): outside the
// scale, so that the scale can start near the smallest real share.
var neverColor = color.RGBA{0xdd, 0xdd, 0xdd, 255}

// shortSquareName abbreviates the long words of the standard board so
// that names fit their squares.
func shortSquareName(name string) string {
	r := strings.NewReplacer("Avenue", "Ave.", "Railroad", "R.R.", "Place", "Pl.", "Company", "Co.",
		"North Carolina", "N. Carolina", "Community Chest", "Comm. Chest")
	return r.Replace(name)
}

// boardText draws the board's labels; its fonts come from gonum's default
// Liberation collection.
type boardText struct {
	handler text.Handler
}

func (bt boardText) style(size vg.Length, bold bool, c color.Color) draw.TextStyle {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return draw.TextStyle{Color: c, Font: f, Handler: bt.handler, XAlign: draw.XCenter, YAlign: draw.YCenter}
}

// boardWrap breaks s into lines no wider than width, at spaces.
func boardWrap(sty draw.TextStyle, s string, width vg.Length) []string {
	var lines []string
	for _, w := range strings.Fields(s) {
		if n := len(lines); n > 0 && sty.Width(lines[n-1]+" "+w) <= width {
			lines[n-1] += " " + w
			continue
		}
		lines = append(lines, w)
	}
	return lines
}

// boardBlock draws lines of text, each with its style, centred as a block on
// (x, y).
func boardBlock(c draw.Canvas, x, y vg.Length, lines []string, styles []draw.TextStyle) {
	lineH := func(s draw.TextStyle) vg.Length { return s.Font.Size * 1.2 }
	var total vg.Length
	for _, s := range styles {
		total += lineH(s)
	}
	top := y + total/2
	for i, l := range lines {
		h := lineH(styles[i])
		c.FillText(styles[i], vg.Point{X: x, Y: top - h/2}, l)
		top -= h
	}
}

// plotLandingBoard draws the landing probabilities as a heatmap of the
// board to path (PNG or SVG by its extension).
func plotLandingBoard(path string, rules *monopoly.Rules, res arena.LandingResult) error {
	format, err := boardPlotFormat(path)
	if err != nil {
		return usageErr(err)
	}
	if err := boardPlotFits(rules); err != nil {
		return err
	}
	var cw vg.CanvasWriterTo
	if format == "png" {
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(boardSize, boardSize), vgimg.UseDPI(boardDPI))}
	} else {
		// Text as outlines: a viewer without the Liberation fonts the
		// labels were measured with would overflow the squares.
		cw = chart.NewSVG(boardSize, boardSize, "Where a roll ends")
	}
	drawLandingBoard(draw.New(cw), rules, res)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("landing: %w", err)
	}
	if _, err := cw.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("landing: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("landing: writing %s: %w", path, err)
	}
	return nil
}

func drawLandingBoard(c draw.Canvas, rules *monopoly.Rules, res arena.LandingResult) {
	bt := boardText{handler: plot.DefaultTextHandler}
	c.FillPolygon(color.White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	side := min(c.Max.X-c.Min.X, c.Max.Y-c.Min.Y) - 2*boardMargin
	unit := side / boardUnits
	ox, oy := c.Min.X+boardMargin, c.Min.Y+boardMargin
	px := func(u float64) vg.Length { return ox + vg.Length(u)*unit }
	py := func(u float64) vg.Length { return oy + vg.Length(u)*unit }

	// The scale spans the shares rolls really end on among the squares,
	// rounded out to half points, so that their 2-3% differences get most
	// of the colours; In Jail, far above them when players stay, takes
	// the darkest colour when it is off the scale.
	lo, hi := math.Inf(1), 0.0
	for i := range rules.Squares {
		if p := res.Probability(i); p > 0 {
			lo, hi = math.Min(lo, p), math.Max(hi, p)
		}
	}
	if math.IsInf(lo, 1) {
		lo = 0
	}
	lo, hi = math.Floor(lo*200)/200, math.Ceil(hi*200)/200
	if hi <= lo {
		hi = lo + 0.005
	}
	scale, err := newHeatScale(lo, hi)
	if err != nil {
		panic(err) // YlOrRd with 9 classes is in the palette table
	}
	fill := func(p float64) color.Color {
		if p == 0 {
			return neverColor
		}
		return scale.at(p)
	}
	border := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	rect := func(x0, y0, x1, y1 vg.Length, col color.Color) {
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(col, pts)
		c.StrokeLines(border, append(pts, pts[0]))
	}
	pct := func(p float64) string { return fmt.Sprintf("%.2f%%", 100*p) }

	for i, s := range rules.Squares {
		col, row := boardCell(i)
		x0, x1 := px(boardEdge(col)), px(boardEdge(col+1))
		y0, y1 := py(boardEdge(row)), py(boardEdge(row+1))
		p := res.Probability(i)
		bg := fill(p)
		rect(x0, y0, x1, y1, bg)
		ink := inkOn(bg)
		if i == rules.JailSquare {
			// As on the board: the cell is Just Visiting, the inset in
			// its inner corner is In Jail.
			ij := res.InJailProbability()
			ix0, iy0 := x0+(x1-x0)*0.36, y0+(y1-y0)*0.36
			rect(ix0, iy0, x1, y1, fill(ij))
			ijInk := inkOn(fill(ij))
			boardBlock(c, (ix0+x1)/2, (iy0+y1)/2, []string{"In Jail", pct(ij)},
				[]draw.TextStyle{bt.style(7.5, false, ijInk), bt.style(8.5, true, ijInk)})
			boardBlock(c, (x0+x1)/2, (y0+iy0)/2, []string{"Just Visiting " + pct(p)},
				[]draw.TextStyle{bt.style(7, false, ink)})
			continue
		}
		name := bt.style(7.5, false, ink)
		// 3 points each side keep the longest words off the borders.
		lines := boardWrap(name, shortSquareName(s.Name), x1-x0-vg.Points(6))
		styles := make([]draw.TextStyle, len(lines), len(lines)+1)
		for k := range styles {
			styles[k] = name
		}
		boardBlock(c, (x0+x1)/2, (y0+y1)/2, append(lines, pct(p)), append(styles, bt.style(8.5, true, ink)))
	}

	// The centre of the board holds the title, the legend and the ranking.
	cx := px(boardUnits / 2)
	sub := bt.style(9.5, false, color.Gray{Y: 0x30})
	boardBlock(c, cx, py(9.4), []string{"Where a roll ends",
		fmt.Sprintf("%s rolls, jail policy %q, players who never buy", groupDigits(res.Rolls), res.Jail),
		fmt.Sprintf("jail corner (In Jail + Just Visiting): %s", pct(res.InJailProbability()+res.Probability(rules.JailSquare)))},
		[]draw.TextStyle{bt.style(18, true, color.Black), sub, sub})

	// Colour legend: a bar of the scale with a tick every half point.
	bx0, bx1 := px(3), px(9)
	by0, by1 := py(7.2), py(7.65)
	const steps = 120
	for k := range steps {
		xa := bx0 + (bx1-bx0)*vg.Length(k)/steps
		xb := bx0 + (bx1-bx0)*vg.Length(k+1)/steps
		v := lo + (hi-lo)*(float64(k)+0.5)/steps
		c.FillPolygon(scale.at(v), []vg.Point{{X: xa, Y: by0}, {X: xb + 0.2, Y: by0}, {X: xb + 0.2, Y: by1}, {X: xa, Y: by1}})
	}
	c.StrokeLines(border, []vg.Point{{X: bx0, Y: by0}, {X: bx1, Y: by0}, {X: bx1, Y: by1}, {X: bx0, Y: by1}, {X: bx0, Y: by0}})
	tick := bt.style(8, false, color.Black)
	tick.YAlign = draw.YTop
	for v := lo; v <= hi+1e-9; v += 0.005 {
		x := bx0 + (bx1-bx0)*vg.Length((v-lo)/(hi-lo))
		c.StrokeLine2(border, x, by0, x, by0-vg.Points(3))
		c.FillText(tick, vg.Point{X: x, Y: by0 - vg.Points(4)}, fmt.Sprintf("%.1f%%", 100*v))
	}
	c.FillText(bt.style(9, false, color.Black), vg.Point{X: (bx0 + bx1) / 2, Y: by1 + vg.Points(9)}, "share of all rolls")
	note := bt.style(8, false, color.Black)
	note.XAlign = draw.XLeft
	gx, gy := bx0, py(6.35)
	rect(gx, gy, gx+vg.Points(14), gy+vg.Points(10), neverColor)
	c.FillText(note, vg.Point{X: gx + vg.Points(18), Y: gy + vg.Points(5)}, "no roll ends here (Go To Jail sends on)")
	if ij := res.InJailProbability(); ij > hi {
		gy -= vg.Points(16)
		rect(gx, gy, gx+vg.Points(14), gy+vg.Points(10), scale.at(hi))
		c.FillText(note, vg.Point{X: gx + vg.Points(18), Y: gy + vg.Points(5)},
			fmt.Sprintf("In Jail, %s, is off the scale", pct(ij)))
	}

	// The ten most frequent ends, In Jail included.
	type entry struct {
		name string
		p    float64
	}
	var es []entry
	for i, s := range rules.Squares {
		name := s.Name
		if i == rules.JailSquare {
			name = "Just Visiting"
		}
		es = append(es, entry{name, res.Probability(i)})
	}
	es = append(es, entry{"In Jail", res.InJailProbability()})
	slices.SortStableFunc(es, func(a, b entry) int { return cmp.Compare(b.p, a.p) })
	left, right := bt.style(9, false, color.Black), bt.style(9, true, color.Black)
	left.XAlign, right.XAlign = draw.XLeft, draw.XRight
	head := bt.style(10, true, color.Black)
	c.FillText(head, vg.Point{X: cx, Y: py(5.6)}, "Most frequent")
	for k, e := range es[:min(10, len(es))] {
		y := py(5.15) - vg.Length(k)*vg.Points(13)
		c.FillText(left, vg.Point{X: px(3.6), Y: y}, fmt.Sprintf("%2d. %s", k+1, e.name))
		c.FillText(right, vg.Point{X: px(8.4), Y: y}, pct(e.p))
	}
}
