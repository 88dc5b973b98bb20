package chart

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SVG is an SVG canvas that draws text as the outlines of its glyphs.
//
// gonum/plot lays text out with the metrics of the Liberation fonts it
// ships, but a plain SVG only names the font: a viewer without it
// substitutes another (rsvg and most Linux viewers take the wider DejaVu),
// and labels then overflow the boxes measured for them. Outlines look the
// same in every viewer, as the PNG does. The text itself is kept in the
// document's <desc>, so that the file can still be searched.
type SVG struct {
	*vgsvg.Canvas
	title string
	texts []string
	seen  map[string]bool
	buf   sfnt.Buffer
}

// NewSVG returns an SVG canvas of the given size. A non-empty title
// becomes the document's <title>, its accessible name.
func NewSVG(w, h vg.Length, title string) *SVG {
	return &SVG{Canvas: vgsvg.New(w, h), title: title, seen: map[string]bool{}}
}

// FillString draws s with its baseline starting at pt, as filled glyph
// outlines placed with the same advances and kerning that gonum's
// font.Face.Width measures, so the layout is the one computed for it.
func (c *SVG) FillString(f font.Face, pt vg.Point, s string) {
	if s != "" && !c.seen[s] {
		c.seen[s] = true
		c.texts = append(c.texts, s)
	}
	// At a ppem of one font unit per 1/64 pixel the 26.6 numbers the
	// sfnt package returns are font units, as in font.Face.Width.
	upem := fixed.Int26_6(f.Face.UnitsPerEm())
	scale := f.Font.Size / vg.Length(upem)
	var (
		path     vg.Path
		pen      fixed.Int26_6
		prev     sfnt.GlyphIndex
		hasPrev  bool
		open     bool
		b        = &c.buf
		toCanvas = func(p fixed.Point26_6) vg.Point {
			return vg.Point{X: pt.X + vg.Length(pen+p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
		}
	)
	for _, r := range s {
		idx, err := f.Face.GlyphIndex(b, r)
		if err != nil {
			continue
		}
		if hasPrev {
			if k, err := f.Face.Kern(b, prev, idx, upem, xfont.HintingNone); err == nil {
				pen += k
			}
		}
		segs, err := f.Face.LoadGlyph(b, idx, upem, nil)
		if err == nil {
			for _, seg := range segs {
				a := seg.Args
				switch seg.Op {
				case sfnt.SegmentOpMoveTo:
					if open {
						path.Close()
					}
					path.Move(toCanvas(a[0]))
					open = true
				case sfnt.SegmentOpLineTo:
					path.Line(toCanvas(a[0]))
				case sfnt.SegmentOpQuadTo:
					path.QuadTo(toCanvas(a[0]), toCanvas(a[1]))
				case sfnt.SegmentOpCubeTo:
					path.CubeTo(toCanvas(a[0]), toCanvas(a[1]), toCanvas(a[2]))
				}
			}
		}
		if adv, err := f.Face.GlyphAdvance(b, idx, upem, xfont.HintingNone); err == nil {
			pen += adv
		}
		prev, hasPrev = idx, true
	}
	if open {
		path.Close()
		c.Fill(path)
	}
}

// WriteTo writes the SVG document to w, with the title and the text drawn
// as its <title> and <desc>.
func (c *SVG) WriteTo(w io.Writer) (int64, error) {
	var doc bytes.Buffer
	if _, err := c.Canvas.WriteTo(&doc); err != nil {
		return 0, err
	}
	data := doc.Bytes()
	// The metadata goes right after the root element's start tag, which
	// holds no '>' in its attributes.
	start := bytes.Index(data, []byte("<svg"))
	end := -1
	if start >= 0 {
		end = bytes.IndexByte(data[start:], '>')
	}
	if end < 0 {
		return 0, errors.New("chart: SVG without a root element")
	}
	end += start + 1
	var meta strings.Builder
	if c.title != "" {
		fmt.Fprintf(&meta, "\n<title>%s</title>", html.EscapeString(c.title))
	}
	if len(c.texts) > 0 {
		fmt.Fprintf(&meta, "\n<desc>%s</desc>", html.EscapeString(strings.Join(c.texts, "\n")))
	}
	var n int64
	for _, part := range [][]byte{data[:end], []byte(meta.String()), data[end:]} {
		m, err := w.Write(part)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
