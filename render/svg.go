package render

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// SVG draws the board as the snapshot's viewer sees it, for the MCP server's
// board resource and the browser alike: the squares around the edge
// (GO at the bottom right, numbered clockwise from there as on the
// printed board), each with its short name, price, colour band, owner,
// buildings and mortgage; the players' tokens on their squares, jailed
// ones behind the bars of the jail corner; and in the centre the round,
// who plays or who won, the dice, the bank, the Free Parking pot and
// the players with their cash. The viewer's own seat is marked "(you)".
//
// The document is self-contained (no fonts, images or scripts) and the
// same snapshot always gives the same bytes. Elements a client may
// style or animate have stable ids and classes: squares "sq-N" (class
// "square" and the kind, the colour group as "group-NAME"), and inside
// them "band-N", "bld-N" (of "house" or "hotel" blocks), "own-N"
// (class "owner pS") and "mort-N"; tokens "token-S" (class "token pS",
// placed by a translate transform, and "current" and "you" for the seat
// to play and the viewer); "in-jail" for the jail's cell; in the centre
// "round", "standing", "waiting", "dice" (of "die-0" and "die-1"),
// "bank", "jackpot" and the legend's rows "player-S". Like Text it
// reads everything from the snapshot, the board included, so that a
// board from a rules file draws too.
func SVG(snap wire.Snapshot) string {
	s := snapshot(snap)
	cells, side := layout(len(s.Board))
	d := &svgBoard{s: s, cells: cells, side: side, groups: groupColours(s.Board)}
	for _, dk := range s.Decks {
		d.decks = append(d.decks, fold(dk.Name))
	}
	d.w.b = make([]byte, 0, 32<<10)
	d.document()
	return string(d.w.b)
}

// The board's geometry in user units. As on the printed board, a square
// along a side is half as deep again as it is wide, and a corner is as
// wide as the others are deep.
const (
	sqWide   = 60.0
	sqDeep   = 90.0
	bandDeep = 18.0  // a street's colour band, where its buildings stand
	ownDeep  = 16.0  // the owner's strip behind the price, at the outer edge
	tokenR   = 7.0   // a token's radius where its square has room
	jailPart = 0.62  // the In Jail cell's share of the jail corner's side
	centreW  = 540.0 // the centre is laid out at this width, then scaled to the board's
	// nameSize is the squares' names, the document's default: 11 pixels
	// or more where a 1440x900 screen gives the board 780 pixels.
	nameSize = 10.5
	// charW estimates a character's width in the sans-serif fonts viewers
	// substitute, per unit of font size. An SVG cannot measure its text,
	// so text the estimate finds too wide is squeezed with textLength.
	charW = 0.56
)

const (
	boardFill = "#cfe8d3" // the printed board's pale green
	inkColour = "#1a1a1a"
	redColour = "#c8102e" // GO, the hotels, the banner, a game's end
)

// ruleColours are the rulebook's colours of the standard groups, by
// their names as fold folds them. Groups a rules file names otherwise
// take otherColours in the order they first appear on the board.
var ruleColours = map[string]string{
	"brown": "#955436", "lightblue": "#aae0fa", "pink": "#d93a96", "orange": "#f7941d",
	"red": "#ed1b24", "yellow": "#fef200", "green": "#1fb25a", "darkblue": "#0072bb",
}

var otherColours = []string{"#17becf", "#9467bd", "#bcbd22", "#8c564b", "#e377c2", "#7f7f7f"}

// playerColours are the seats' colours, the Okabe-Ito palette that
// colour-blind eyes tell apart, each with the ink that reads on it.
var playerColours = [monopoly.MaxPlayers]struct{ fill, ink string }{
	{"#d55e00", "#fff"}, {"#0072b2", "#fff"}, {"#009e73", "#fff"}, {"#cc79a7", "#000"},
	{"#e69f00", "#000"}, {"#56b4e9", "#000"}, {"#f0e442", "#000"}, {"#000000", "#fff"},
}

// deckColours tell the card squares of different decks apart.
var deckColours = []string{"#f7941d", "#1a75bc", "#8e44ad", "#16a085"}

// seatNumber is a seat as people count it, from 1.
func seatNumber(seat int) string { return strconv.Itoa(seat + 1) }

// playerColour is a seat's colour. A snapshot read back from JSON may
// hold any seat number, so the palette wraps both ways.
func playerColour(seat int) struct{ fill, ink string } {
	return playerColours[((seat%len(playerColours))+len(playerColours))%len(playerColours)]
}

// groupColours gives each colour group of the board its colour.
func groupColours(board []wire.SquareState) map[string]string {
	colours := map[string]string{}
	others := 0
	for _, sq := range board {
		if sq.Group == "" || colours[sq.Group] != "" {
			continue
		}
		c, ok := ruleColours[fold(sq.Group)]
		if !ok {
			c = otherColours[others%len(otherColours)]
			others++
		}
		colours[sq.Group] = c
	}
	return colours
}

// cell is where a square stands. Each square is drawn in a frame of its
// own, as if on the bottom row: x along the side, y in depth from the
// inner edge (the colour band) at 0 to the outer edge at h. The frame's
// transform turns it to face outwards as on the printed board. Its
// origin on the board is the cell's corner at x = y = 0, which for a
// board corner is the corner nearest the centre.
type cell struct {
	x, y   float64 // the origin on the board
	turns  int     // quarter turns clockwise: 0 bottom row, 1 left, 2 top, 3 right
	w, h   float64 // the size in the frame: along the side, in depth
	corner bool
}

// at maps a point of the cell's frame to the board.
func (c cell) at(x, y float64) (float64, float64) {
	switch c.turns {
	case 1:
		return c.x - y, c.y + x
	case 2:
		return c.x - x, c.y - y
	case 3:
		return c.x + y, c.y - x
	}
	return c.x + x, c.y + y
}

// minSideSquares keeps a small board large enough for its centre to
// stay legible: squares are widened to fill a side of this many.
const minSideSquares = 6

// layout places n squares around a square board and returns their cells
// and the board's side. Each side starts with a corner and holds a
// quarter of the squares, so that boards of any size fit; the squares
// between two corners share their side.
func layout(n int) ([]cell, float64) {
	var start [5]int
	for k := range start {
		start[k] = k * n / 4
	}
	most := minSideSquares
	for k := range 4 {
		most = max(most, start[k+1]-start[k]-1)
	}
	side := 2*sqDeep + float64(most)*sqWide
	far := side - sqDeep
	origins := [4][2]float64{{far, far}, {sqDeep, far}, {sqDeep, sqDeep}, {far, sqDeep}}
	steps := [4][2]float64{{-1, 0}, {0, -1}, {1, 0}, {0, 1}} // from square to square
	cells := make([]cell, n)
	for k := range 4 {
		w := (side - 2*sqDeep) / float64(max(start[k+1]-start[k]-1, 1))
		for j := range start[k+1] - start[k] {
			c := cell{turns: k, w: w, h: sqDeep, corner: j == 0}
			if c.corner {
				c.w = sqDeep
			}
			c.x = origins[k][0] + float64(j)*w*steps[k][0]
			c.y = origins[k][1] + float64(j)*w*steps[k][1]
			cells[start[k]+j] = c
		}
	}
	return cells, side
}

// box is a rectangle.
type box struct{ x, y, w, h float64 }

// jailBox is the In Jail cell of a jail square, in its frame: the inner
// corner of a board corner, the inner part of a square along a side.
func jailBox(c cell) box {
	if c.corner {
		return box{0, 0, jailPart * c.w, jailPart * c.h}
	}
	return box{0, 0, c.w, 0.55 * c.h}
}

// tokenArea is where the tokens on a square stand, in its frame: clear
// of its name where there is room, in or out of the jail's cell.
func tokenArea(sq wire.SquareState, c cell, jailed bool) box {
	switch {
	case sq.Kind == "jail" && jailed:
		j := jailBox(c)
		return box{j.x + 3, j.y + 3, j.w - 6, j.h - 15} // above the "In Jail" label
	case sq.Kind == "jail" && c.corner:
		j := jailBox(c)
		return box{j.w + 2, 2, c.w - j.w - 4, c.h - 4} // the arm of Just Visiting along the next side
	case sq.Kind == "jail":
		j := jailBox(c)
		return box{2, j.h + 13, c.w - 4, c.h - j.h - 15}
	case c.corner:
		// The outer corner, clear of the diagonal label.
		return box{0.48 * c.w, 0.48 * c.h, 0.52*c.w - 4, 0.52*c.h - 4}
	}
	return box{3, 44, c.w - 6, c.h - 44 - ownDeep - 2}
}

// slot is the centre of the k-th of n tokens sharing area a, and their
// radius: they stand on the grid with the widest pitch that holds n,
// the last row centred, with room between them for the current
// player's halo.
func slot(a box, k, n int) (x, y, r float64) {
	cols, pitch := 1, 0.0
	for c := 1; c <= n; c++ {
		rows := (n + c - 1) / c
		if p := min(a.w/float64(c), a.h/float64(rows)); p > pitch {
			cols, pitch = c, p
		}
	}
	rows := (n + cols - 1) / cols
	row, col := k/cols, k%cols
	inRow := min(cols, n-row*cols)
	x = a.x + a.w/2 + (float64(col)-float64(inRow-1)/2)*pitch
	y = a.y + a.h/2 + (float64(row)-float64(rows-1)/2)*pitch
	return x, y, min(tokenR, pitch/2-2.5)
}

// svgBoard is one rendering of a snapshot.
type svgBoard struct {
	s      snapshot
	w      svgWriter
	cells  []cell
	side   float64
	groups map[string]string // colour by group name
	decks  []string          // the decks' names, folded
}

// document writes the whole SVG: the board, the squares, the centre and
// the tokens last, on top of everything.
func (d *svgBoard) document() {
	w := &d.w
	w.open("svg").attr("xmlns", "http://www.w3.org/2000/svg").attr("id", "gopoly-board").attr("class", "board").
		attr("viewBox", "0 0 "+fmtNum(d.side)+" "+fmtNum(d.side)).num("width", d.side).num("height", d.side).
		attr("font-family", "Helvetica,Arial,sans-serif").num("font-size", nameSize).attr("text-anchor", "middle").
		intAttr("data-viewer", d.s.Viewer).close()
	w.open("title").leaf("gopoly board, round " + strconv.Itoa(d.s.Round) + ", turn " + strconv.Itoa(d.s.Turn) + ": " + d.s.standing())
	// The hatching of mortgaged squares: a grey veil under dark strokes.
	w.raw(`<defs><pattern id="gopoly-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="6" height="6" fill="#777" fill-opacity=".45"/><path d="M0 0V6" stroke="#333" stroke-width="1.5"/></pattern></defs>` + "\n")
	w.open("rect").size(d.side, d.side).attr("fill", boardFill).attr("stroke", inkColour).num("stroke-width", 2).end()
	for i := range d.s.Board {
		d.square(i)
	}
	d.centre()
	d.tokens()
	w.raw("</svg>\n")
}

// square draws square i in its cell's frame.
func (d *svgBoard) square(i int) {
	sq, c, w := d.s.Board[i], d.cells[i], &d.w
	w.open("g").idAttr("sq-", i).attr("class", d.squareClass(sq, c, i)).cellTransform(c).close()
	w.open("title").leaf(d.s.squareTitle(sq))
	w.open("rect").size(c.w, c.h).attr("fill", boardFill).attr("stroke", inkColour).end()
	if sq.Kind == "street" {
		d.band(i, sq, c)
	}
	switch {
	case sq.Kind == "jail":
		d.jail(c)
	case c.corner:
		d.cornerLabel(sq, c)
	default:
		d.sideLabel(sq, c)
	}
	if sq.Price > 0 && sq.Owner >= 0 {
		d.owner(i, sq, c)
	}
	if sq.Mortgaged {
		d.mortgage(i, sq, c)
	}
	if i == d.s.Decision.Square {
		// The square the pending decision is about: up for sale or auction.
		w.open("rect").attr("class", "pending").num("x", 1.5).num("y", 1.5).size(c.w-3, c.h-3).
			attr("fill", "none").attr("stroke", redColour).num("stroke-width", 3).end()
	}
	w.closeTag("g")
}

func (d *svgBoard) squareClass(sq wire.SquareState, c cell, i int) string {
	cls := "square " + slug(sq.Kind)
	if sq.Group != "" {
		cls += " group-" + slug(sq.Group)
	}
	if c.corner {
		cls += " corner"
	}
	if deck := d.deckOf(sq); deck >= 0 {
		cls += " card deck-" + slug(d.s.Decks[deck].Name)
	} else if isTax(sq) {
		cls += " tax"
	}
	if sq.Mortgaged {
		cls += " mortgaged"
	}
	if i == d.s.Decision.Square {
		cls += " pending"
	}
	return cls
}

// squareTitle is a square's tooltip: its full name and state.
func (s snapshot) squareTitle(sq wire.SquareState) string {
	t := sq.Name
	if sq.Price > 0 {
		t += ", " + money(sq.Price)
	}
	if sq.Owner >= 0 {
		t += ", owned by " + s.playerName(sq.Owner)
	}
	if b := buildings(sq); b != "" {
		t += ", " + b
	}
	return t
}

// deckOf is the deck a card square draws from, by its name, or -1: the
// snapshot gives an action square's name, not its program.
func (d *svgBoard) deckOf(sq wire.SquareState) int {
	if sq.Kind != "action" {
		return -1
	}
	name := fold(sq.Name)
	for i, dk := range d.decks {
		if dk == name {
			return i
		}
	}
	return -1
}

func isTax(sq wire.SquareState) bool {
	return sq.Kind == "action" && strings.Contains(strings.ToLower(sq.Name), "tax")
}

// band draws a street's colour band and the buildings on it.
func (d *svgBoard) band(i int, sq wire.SquareState, c cell) {
	w := &d.w
	w.open("rect").idAttr("band-", i).attr("class", "band").size(c.w, bandDeep).attr("fill", d.groups[sq.Group]).attr("stroke", inkColour).end()
	if !sq.Hotel && sq.Houses <= 0 {
		return
	}
	w.open("g").idAttr("bld-", i).attr("class", "buildings").attr("stroke", inkColour).num("stroke-width", 0.6).close()
	if sq.Hotel {
		w.open("rect").attr("class", "hotel").num("x", (c.w-34)/2).num("y", 2).size(34, 14).attr("fill", redColour).end()
	} else {
		pitch := min(14, (c.w-4)/float64(sq.Houses))
		x := (c.w - pitch*float64(sq.Houses)) / 2
		for k := range sq.Houses {
			w.open("rect").attr("class", "house").num("x", x+float64(k)*pitch+1).num("y", 2).size(pitch-2, 14).attr("fill", "#1e8f3e").end()
		}
	}
	w.closeTag("g")
}

// mortgage hatches a mortgaged square and marks it "M", leaving its
// owner's strip clear: who holds the mortgage matters as much.
func (d *svgBoard) mortgage(i int, sq wire.SquareState, c cell) {
	w := &d.w
	h := c.h
	if sq.Owner >= 0 && sq.Price > 0 {
		h -= ownDeep
	}
	w.open("g").idAttr("mort-", i).attr("class", "mortgage").close()
	w.open("rect").size(c.w, h).attr("fill", "url(#gopoly-hatch)").end()
	// Upright on every side: upside down on the top row, it reads "W".
	cx, cy := c.w/2, h/2
	w.open("text").num("x", cx).num("y", cy+9).fit("M", 26, c.w).attr("font-weight", "bold").attr("fill", "#b00020").
		attr("transform", "rotate("+strconv.Itoa(-90*c.turns)+" "+fmtNum(cx)+" "+fmtNum(cy)+")").leaf("M")
	w.closeTag("g")
}

// sideLabel writes the name of a square along a side, and its icon,
// upright on every side: the square's frame faces outwards, so the label
// is turned back in a box of its own between the colour band and the
// owner's strip, its width along the screen's x.
func (d *svgBoard) sideLabel(sq wire.SquareState, c cell) {
	top := 2.0
	if sq.Kind == "street" {
		top = bandDeep + 1
	}
	bottom := c.h - 2
	if sq.Owner >= 0 {
		bottom = c.h - ownDeep - 1
	}
	w, h := c.w-4, bottom-top // the box, upright
	if c.turns%2 == 1 {
		w, h = h, w
	}
	d.w.open("g").attr("class", "label").attr("transform", translate(c.w/2, (top+bottom)/2)+" rotate("+strconv.Itoa(-90*c.turns)+")").close()
	lines := wrap(shortName(sq.Name), w, nameSize)
	y, iconY := -h/2+nameSize, h/2-13
	if sq.Price > 0 {
		iconY -= 10
		p := money(sq.Price)
		d.w.open("text").attr("class", "price").num("y", h/2-2).fit(p, nameSize, w).attr("font-weight", "bold").leaf(p)
	}
	if sq.Kind == "street" { // no icon: the name in the middle of what the price leaves
		y = nameSize*0.35 - 0.6*nameSize*float64(len(lines)-1) - 5
	}
	d.lines(0, y, nameSize, w, lines, "")
	scale := 1.0
	if c.turns%2 == 1 { // a side column's box is wide and low: a smaller icon clears the name
		scale, iconY = 0.6, iconY+3
	}
	d.icon(sq, 0, iconY, scale)
	d.w.closeTag("g")
}

// cornerLabel writes a corner's name across it, as on the printed
// board, reading from the side it starts.
func (d *svgBoard) cornerLabel(sq wire.SquareState, c cell) {
	w := &d.w
	cx, cy := 0.4*c.w, 0.4*c.h
	w.open("g").attr("transform", "rotate(-45 "+fmtNum(cx)+" "+fmtNum(cy)+")").close()
	if sq.Kind == "go" {
		w.open("text").num("x", cx).num("y", cy+10).fit(sq.Name, 28, c.w).attr("font-weight", "bold").attr("fill", redColour).leaf(sq.Name)
	} else {
		lines := wrap(shortName(sq.Name), 0.9*c.w, 11)
		d.lines(cx, cy+4-6.5*float64(len(lines)-1), 11, 0.9*c.w, lines, "bold")
	}
	w.closeTag("g")
	if sq.Kind == "go" {
		// The arrow of the way round, along the outer edge.
		y := c.h - 9
		w.open("path").attr("class", "arrow").attr("d", "M"+fmtNum(c.w-8)+" "+fmtNum(y)+"H18l0-5-12 5 12 5 0-5").
			attr("fill", redColour).attr("stroke", redColour).num("stroke-width", 3).attr("stroke-linejoin", "round").end()
	}
}

// lines writes lines of text centred on x, the first at baseline y.
func (d *svgBoard) lines(x, y, size, maxW float64, lines []string, weight string) {
	for k, l := range lines {
		d.w.open("text").num("x", x).num("y", y+float64(k)*size*1.2).fit(l, size, maxW)
		if weight != "" {
			d.w.attr("font-weight", weight)
		}
		d.w.leaf(l)
	}
}

// icon draws what kind of square this is, centred on x, y, at scale: a
// locomotive, a bulb or a drop, a card of its deck, a tax diamond.
func (d *svgBoard) icon(sq wire.SquareState, x, y, scale float64) {
	w := &d.w
	at := translate(x, y)
	if scale != 1 {
		at += " scale(" + fmtNum3(scale) + ")"
	}
	switch {
	case sq.Kind == "railroad":
		// A locomotive: boiler, cab and roof, chimney, cowcatcher; wheels.
		w.open("g").attr("class", "icon").attr("transform", at).attr("fill", inkColour).close()
		w.open("path").attr("d", "M-14-4h18v-8h10v18h-28zM2-14h14v2h-14zM-11-11h4v7h-4zM-14 6h-4l4-7z").end()
		for _, x := range []float64{-9, 0, 9} {
			w.open("circle").num("cx", x).num("cy", 9).num("r", 3.5).end()
		}
		w.closeTag("g")
	case sq.Kind == "utility" && strings.Contains(strings.ToLower(sq.Name), "water"):
		w.open("path").attr("class", "icon").attr("transform", at).attr("fill", "#3b8fd9").attr("stroke", inkColour).
			attr("d", "M0-13C5-5 9-1 9 4A9 9 0 0 1-9 4C-9-1-5-5 0-13z").end()
	case sq.Kind == "utility":
		w.open("path").attr("class", "icon").attr("transform", at).attr("fill", "#ffe36e").attr("stroke", inkColour).
			attr("d", "M-4 6C-4 2-9-1-9-6A9 9 0 0 1 9-6C9-1 4 2 4 6zM-4 8h8v5h-8z").end()
	case d.deckOf(sq) >= 0:
		fill := deckColours[d.deckOf(sq)%len(deckColours)]
		w.open("g").attr("class", "icon").attr("transform", at+" rotate(-12)").close()
		w.open("rect").num("x", -8).num("y", -11).size(16, 22).num("rx", 2).attr("fill", fill).attr("stroke", inkColour).end()
		w.open("text").num("y", 6).fit("?", 16, 16).attr("font-weight", "bold").attr("fill", "#fff").leaf("?")
		w.closeTag("g")
	case isTax(sq):
		w.open("g").attr("class", "icon").attr("transform", at).close()
		w.open("path").attr("d", "M0-12 12 0 0 12-12 0z").attr("fill", "#e8e8e8").attr("stroke", inkColour).end()
		w.open("text").num("y", 4).fit("$", 12, 12).attr("font-weight", "bold").leaf("$")
		w.closeTag("g")
	}
}

// jail draws the jail: its barred cell, In Jail, and the rest of the
// square, Just Visiting.
func (d *svgBoard) jail(c cell) {
	w := &d.w
	j := jailBox(c)
	w.open("rect").attr("id", "in-jail").attr("class", "in-jail").num("x", j.x).num("y", j.y).size(j.w, j.h).
		attr("fill", "#f7941d").attr("stroke", inkColour).end()
	var bars strings.Builder
	for k := 1; k < 5; k++ {
		bars.WriteString("M" + fmtNum(j.x+float64(k)*j.w/5) + " " + fmtNum(j.y) + "V" + fmtNum(j.y+j.h-12))
	}
	w.open("path").attr("class", "bars").attr("d", bars.String()).attr("stroke", inkColour).num("stroke-width", 1.2).end()
	w.open("text").num("x", j.x+j.w/2).num("y", j.y+j.h-3.5).fit("In Jail", 8, j.w).attr("font-weight", "bold").leaf("In Jail")
	if c.corner {
		mid := j.h + (c.h-j.h)/2
		d.lines(j.w/2, mid-1.5, nameSize, j.w, []string{"Just", "Visiting"}, "")
	} else {
		d.lines(c.w/2, j.h+9, nameSize, c.w-4, []string{"Just Visiting"}, "")
	}
}

// owner marks an owned property with a strip of its owner's colour at
// its outer edge, and the seat's number, upright, so that owners are told
// apart without telling colours apart.
func (d *svgBoard) owner(i int, sq wire.SquareState, c cell) {
	w := &d.w
	pc := playerColour(sq.Owner)
	w.open("rect").idAttr("own-", i).attr("class", "owner p"+strconv.Itoa(sq.Owner)).num("y", c.h-ownDeep).size(c.w, ownDeep).
		attr("fill", pc.fill).attr("stroke", inkColour).end()
	cx, cy := c.w/2, c.h-ownDeep/2
	w.open("text").attr("class", "owner-seat").attr("transform", translate(cx, cy)+" rotate("+strconv.Itoa(-90*c.turns)+")").
		num("y", 4).attr("font-size", "12").attr("font-weight", "bold").attr("fill", pc.ink).leaf(seatNumber(sq.Owner))
}

// tokens draws every player still in the game on its square, the ones
// sharing a square side by side.
func (d *svgBoard) tokens() {
	w := &d.w
	w.open("g").attr("id", "tokens").close()
	for _, p := range d.s.Players {
		if p.Bankrupt || p.Position < 0 || p.Position >= len(d.cells) {
			continue
		}
		sq, c := d.s.Board[p.Position], d.cells[p.Position]
		k, n := d.s.sharing(p)
		x, y, r := slot(tokenArea(sq, c, p.InJail), k, n)
		bx, by := c.at(x, y)
		cls := "token p" + strconv.Itoa(p.Seat)
		if p.InJail {
			cls += " in-jail"
		}
		w.open("g").idAttr("token-", p.Seat).attr("class", cls+d.s.seatFlags(p.Seat)).intAttr("data-square", p.Position).
			attr("transform", translate(bx, by)).close()
		w.open("title").leaf(d.s.playerName(p.Seat) + ": " + where(p) + ", " + money(p.Cash))
		d.disc(p.Seat, r)
		w.closeTag("g")
	}
	w.closeTag("g")
}

// sharing is p's place among the tokens on its spot (its square, and in
// or out of jail there) and how many stand there, in seat order.
func (s snapshot) sharing(p wire.PlayerState) (k, n int) {
	for _, q := range s.Players {
		if q.Bankrupt || q.Position != p.Position || q.InJail != p.InJail {
			continue
		}
		if q.Seat < p.Seat {
			k++
		}
		n++
	}
	return k, n
}

// seatFlags are the classes, each with its leading space, that mark the
// seat to play and the viewer's own.
func (s snapshot) seatFlags(seat int) string {
	f := ""
	if seat == s.Current && !s.Over {
		f += " current"
	}
	if seat == s.Viewer {
		f += " you"
	}
	return f
}

// disc draws a seat's token at the origin: a disc of its colour with
// its number, haloed for the player to play.
func (d *svgBoard) disc(seat int, r float64) {
	w := &d.w
	if seat == d.s.Current && !d.s.Over {
		// A gold ring, seen at a glance from across the board.
		w.open("circle").attr("class", "halo").num("r", r+2.5).attr("fill", "#fff").attr("stroke", "#f5b400").num("stroke-width", 2.5).end()
	}
	pc := playerColour(seat)
	w.open("circle").num("r", r).attr("fill", pc.fill).attr("stroke", inkColour).end()
	n := seatNumber(seat)
	w.open("text").num("y", r*0.4).fit(n, r*1.15, 2*r).attr("font-weight", "bold").attr("fill", pc.ink).leaf(n)
}

// centre draws the middle of the board, laid out at centreW and scaled
// to the room the squares leave.
func (d *svgBoard) centre() {
	w, s := &d.w, d.s
	t := translate(sqDeep, sqDeep)
	if k := (d.side - 2*sqDeep) / centreW; k != 1 {
		t += " scale(" + fmtNum3(k) + ")"
	}
	w.open("g").attr("id", "centre").attr("transform", t).close()
	w.open("rect").num("x", centreW/2-120).num("y", 24).size(240, 44).num("rx", 4).attr("fill", redColour).attr("stroke", inkColour).num("stroke-width", 2).end()
	w.open("text").num("x", centreW/2).num("y", 57).fit("GOPOLY", 28, 230).attr("font-weight", "bold").attr("letter-spacing", "4").attr("fill", "#fff").leaf("GOPOLY")
	round := "Round " + strconv.Itoa(s.Round) + ", turn " + strconv.Itoa(s.Turn)
	w.centred("round", 96, 13, round).leaf(round)
	if s.Over {
		// A game's end stands out: it is the last thing the board says.
		w.centred("standing", 117, 16, s.standing()).attr("fill", redColour)
	} else {
		w.centred("standing", 117, 14, s.standing())
	}
	w.attr("font-weight", "bold").leaf(s.standing())
	if wt := s.waiting(); wt != "" {
		w.centred("waiting", 135, 11, wt).leaf(wt)
	}
	d.dice()
	w.centred("bank", 200, 11, s.bankLine()).leaf(s.bankLine())
	if s.Jackpot != 0 {
		w.centred("jackpot", 217, 11, s.jackpotLine()).attr("font-weight", "bold").leaf(s.jackpotLine())
	}
	d.legend()
	w.closeTag("g")
}

// pips are the faces of a die as the pips of a 3×3 grid, bit 3·row+col.
var pips = [7]uint16{0, 1 << 4, 1<<0 | 1<<8, 1<<0 | 1<<4 | 1<<8, 1<<0 | 1<<2 | 1<<6 | 1<<8, 1<<0 | 1<<2 | 1<<4 | 1<<6 | 1<<8, 1<<0 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<8}

// dice draws the dice last rolled.
func (d *svgBoard) dice() {
	w := &d.w
	w.open("g").attr("id", "dice").attr("class", "dice").close()
	if d.s.Dice == [2]int{} {
		w.centred("no-roll", 165, 11, d.s.lastRoll()).attr("fill", "#555").leaf(d.s.lastRoll())
	} else {
		for k, v := range d.s.Dice {
			d.die(k, v, "#fff", inkColour, strconv.Itoa(v))
		}
		if f, ok := monopoly.ParseSpeedFace(d.s.SpeedDie); ok {
			d.die(2, int(f), speedColour, "#fff", "speed die: "+f.Describe())
		}
	}
	w.closeTag("g")
}

// speedColour is the speed die's red.
const speedColour = "#d62728"

// die draws die k (2: the speed die) of colour face showing v, by its
// pips in colour pip, or by its number should a die show what no die of
// six faces can; the speed die's Mr. Monopoly and Bus by name.
func (d *svgBoard) die(k, v int, face, pip, title string) {
	w := &d.w
	w.open("g").idAttr("die-", k).attr("class", "die").attr("transform", translate(235+40*float64(k), 145)).close()
	w.open("title").leaf(title)
	w.open("rect").size(30, 30).num("rx", 5).attr("fill", face).attr("stroke", inkColour).num("stroke-width", 1.5).end()
	if v < 1 || v >= len(pips) {
		n := strconv.Itoa(v)
		switch monopoly.SpeedFace(v) {
		case monopoly.SpeedMrMonopoly:
			n = "Mr.M"
		case monopoly.SpeedBus:
			n = "Bus"
		}
		w.open("text").num("x", 15).num("y", 20).attr("fill", pip).fit(n, 11, 26).leaf(n)
	}
	for b := range 9 {
		if v >= 1 && v < len(pips) && pips[v]&(1<<b) != 0 {
			w.open("circle").num("cx", 15+8*float64(b%3-1)).num("cy", 15+8*float64(b/3-1)).num("r", 2.8).attr("fill", pip).end()
		}
	}
	w.closeTag("g")
}

// The legend's columns, in the centre's units: where the names start,
// the sums end (they align on their last digit), the states start.
const (
	colName  = 74.0
	colCash  = 380.0
	colWorth = 450.0
	colState = 462.0
)

// legend lists the players: colour, name, cash, net worth and state.
func (d *svgBoard) legend() {
	w := &d.w
	w.open("g").attr("id", "legend").attr("class", "legend").close()
	w.open("g").attr("font-size", "10").attr("font-weight", "bold").attr("fill", "#444").close()
	w.open("text").num("x", colName).num("y", 244).attr("text-anchor", "start").leaf("Player")
	w.open("text").num("x", colCash).num("y", 244).attr("text-anchor", "end").leaf("Cash")
	w.open("text").num("x", colWorth).num("y", 244).attr("text-anchor", "end").leaf("Worth")
	w.closeTag("g")
	for k, p := range d.s.Players {
		d.legendRow(p, 264+22*float64(k))
	}
	w.closeTag("g")
}

// legendRow writes one player's row, greyed out and struck through once
// bankrupt, highlighted while it plays.
func (d *svgBoard) legendRow(p wire.PlayerState, y float64) {
	w, s := &d.w, d.s
	cls := "player p" + strconv.Itoa(p.Seat) + s.seatFlags(p.Seat)
	if p.Bankrupt {
		cls += " bankrupt"
	}
	w.open("g").idAttr("player-", p.Seat).attr("class", cls)
	if p.Bankrupt {
		w.num("opacity", 0.5)
	}
	w.close()
	if p.Seat == s.Current && !s.Over {
		w.open("rect").num("x", 44).num("y", y-14).size(490, 20).num("rx", 3).attr("fill", "#fff6bf").end()
	}
	w.open("g").attr("transform", translate(60, y-4)).close()
	d.disc(p.Seat, tokenR)
	w.closeTag("g")
	name := clip(s.playerLabel(p.Seat), 40)
	w.column("name", "start", colName, y, colCash-colName-80, name)
	if p.Bankrupt {
		w.attr("text-decoration", "line-through")
	}
	w.leaf(name)
	if !p.Bankrupt {
		w.column("cash", "end", colCash, y, 70, money(p.Cash)).leaf(money(p.Cash))
		w.column("worth", "end", colWorth, y, 66, money(p.NetWorth)).leaf(money(p.NetWorth))
	}
	if st := s.seatState(p); st != "" {
		w.column("state", "start", colState, y, 76, st).attr("font-weight", "bold").leaf(st)
	}
	w.closeTag("g")
}

// seatState is what the legend says of a player beyond its sums.
func (s snapshot) seatState(p wire.PlayerState) string {
	switch {
	case p.Bankrupt:
		return "bankrupt"
	case s.Over && s.Winner == p.Seat:
		return "winner"
	case p.InJail:
		return "in jail"
	}
	return ""
}

// abbreviations shorten the long words of the standard board's names so
// that names fit their squares.
var abbreviations = [...][2]string{{"Avenue", "Ave."}, {"Railroad", "R.R."}}

// shortName abbreviates a square's name. ReplaceAll, unlike a Replacer,
// allocates only for the names it changes.
func shortName(name string) string {
	for _, a := range abbreviations {
		name = strings.ReplaceAll(name, a[0], a[1])
	}
	return name
}

// wrap breaks s at spaces into lines that the estimate fits in maxW; a
// word too long for a line keeps one of its own.
func wrap(s string, maxW, size float64) []string {
	var lines []string
	for _, word := range strings.Fields(s) {
		if n := len(lines); n > 0 && textWidth(lines[n-1]+" "+word, size) <= maxW {
			lines[n-1] += " " + word
			continue
		}
		lines = append(lines, word)
	}
	return lines
}

func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * charW
}

// clip shortens s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// fold reduces a name to its lower-case letters and digits, so that
// "Light Blue" meets "light_blue" and "Community Chest" its deck
// "community_chest".
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// slug makes a name, which a rules file chooses, a CSS class: lower-case
// letters and digits joined by hyphens.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	if out := strings.TrimSuffix(b.String(), "-"); out != "" {
		return out
	}
	return "x"
}

// svgWriter appends SVG markup. Elements are opened, given attributes
// and ended by chained calls, so that drawing code reads in the order of
// the markup it writes; text is escaped on the way in.
type svgWriter struct {
	b   []byte
	tag string // the element last opened, which leaf closes
}

func (w *svgWriter) open(tag string) *svgWriter {
	w.tag = tag
	w.b = append(append(w.b, '<'), tag...)
	return w
}

func (w *svgWriter) raw(s string) *svgWriter {
	w.b = append(w.b, s...)
	return w
}

// Write appends p escaped, for xml.EscapeText.
func (w *svgWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// escape appends s as XML character data: markup characters as
// entities, and characters XML cannot hold as U+FFFD, since names are
// anyone's input.
func (w *svgWriter) escape(s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '<', c == '>', c == '&', c == '\'', c == '"':
			_ = xml.EscapeText(w, []byte(s)) // never fails: Write does not
			return
		}
	}
	w.b = append(w.b, s...)
}

func (w *svgWriter) attr(name, value string) *svgWriter {
	w.b = append(append(append(w.b, ' '), name...), `="`...)
	w.escape(value)
	w.b = append(w.b, '"')
	return w
}

func (w *svgWriter) num(name string, v float64) *svgWriter {
	w.b = append(append(append(w.b, ' '), name...), `="`...)
	w.b = appendNum(w.b, v)
	w.b = append(w.b, '"')
	return w
}

func (w *svgWriter) intAttr(name string, v int) *svgWriter {
	w.b = append(append(append(w.b, ' '), name...), `="`...)
	w.b = append(strconv.AppendInt(w.b, int64(v), 10), '"')
	return w
}

// idAttr writes the id prefix+n.
func (w *svgWriter) idAttr(prefix string, n int) *svgWriter {
	w.b = append(append(w.b, ` id="`...), prefix...)
	w.b = append(strconv.AppendInt(w.b, int64(n), 10), '"')
	return w
}

func (w *svgWriter) size(width, height float64) *svgWriter {
	return w.num("width", width).num("height", height)
}

func (w *svgWriter) cellTransform(c cell) *svgWriter {
	w.b = append(w.b, ` transform="translate(`...)
	w.b = append(appendNum(append(appendNum(w.b, c.x), ' '), c.y), ')')
	if c.turns != 0 {
		w.b = append(strconv.AppendInt(append(w.b, " rotate("...), int64(90*c.turns), 10), ')')
	}
	w.b = append(w.b, '"')
	return w
}

// fit gives text s its font size, when not the document's, and squeezes
// it into maxW when the estimate finds it wider.
func (w *svgWriter) fit(s string, size, maxW float64) *svgWriter {
	if size != nameSize {
		w.num("font-size", size)
	}
	if textWidth(s, size) > maxW {
		w.num("textLength", maxW).attr("lengthAdjust", "spacingAndGlyphs")
	}
	return w
}

// column opens a cell of the legend; the caller adds attributes and
// its text.
func (w *svgWriter) column(class, anchor string, x, y, maxW float64, s string) *svgWriter {
	return w.open("text").attr("class", class).num("x", x).num("y", y).fit(s, 11, maxW).attr("text-anchor", anchor)
}

// centred opens a line of text of the centre, centred across it, with
// its id; the caller adds attributes and its text.
func (w *svgWriter) centred(id string, y, size float64, s string) *svgWriter {
	return w.open("text").attr("id", id).num("x", centreW/2).num("y", y).fit(s, size, centreW-40)
}

func (w *svgWriter) close() *svgWriter {
	w.b = append(w.b, ">\n"...)
	return w
}

func (w *svgWriter) end() {
	w.b = append(w.b, "/>\n"...)
}

// leaf ends the element last opened with text as its content.
func (w *svgWriter) leaf(text string) {
	w.b = append(w.b, '>')
	w.escape(text)
	w.closeTag(w.tag)
}

func (w *svgWriter) closeTag(tag string) {
	w.b = append(append(append(w.b, "</"...), tag...), ">\n"...)
}

// appendNum writes a coordinate to a tenth of a unit, finer than any
// screen shows, so that the markup stays short. It counts tenths in an
// integer: a board has a thousand numbers, and formatting floats was
// the most of its cost.
func appendNum(b []byte, v float64) []byte {
	tenths := int64(math.Round(v * 10))
	if tenths < 0 {
		b = append(b, '-')
		tenths = -tenths
	}
	b = strconv.AppendInt(b, tenths/10, 10)
	if f := tenths % 10; f != 0 {
		b = append(b, '.', byte('0'+f))
	}
	return b
}

func fmtNum(v float64) string { return string(appendNum(nil, v)) }

func translate(x, y float64) string { return "translate(" + fmtNum(x) + " " + fmtNum(y) + ")" }

// fmtNum3 writes a scale to three decimals.
func fmtNum3(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }
