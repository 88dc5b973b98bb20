package render_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // registers baseline
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
	"github.com/gopoly/gopoly/wire/wiretest"
)

// names are the players' names the boards are drawn with.
var names = []string{"Ann", "Bob", "Cat", "Dan Lee"}

// svgNode is an element of a parsed SVG.
type svgNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []*svgNode `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *svgNode) num(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr(name), 64)
	if err != nil {
		t.Fatalf("<%s id=%q> %s: %v", n.XMLName.Local, n.attr("id"), name, err)
	}
	return v
}

func (n *svgNode) hasClass(c string) bool {
	for f := range strings.FieldsSeq(n.attr("class")) {
		if f == c {
			return true
		}
	}
	return false
}

// find returns the descendants of n for which keep holds.
func (n *svgNode) find(keep func(*svgNode) bool) []*svgNode {
	var out []*svgNode
	for _, c := range n.Nodes {
		if keep(c) {
			out = append(out, c)
		}
		out = append(out, c.find(keep)...)
	}
	return out
}

func (n *svgNode) title() string {
	for _, c := range n.Nodes {
		if c.XMLName.Local == "title" {
			return c.Text
		}
	}
	return ""
}

// parsedSVG is a board as a client reads it: its root and its elements
// by id.
type parsedSVG struct {
	root *svgNode
	byID map[string]*svgNode
}

// parseSVG checks that doc is one well-formed XML document with no ids
// twice, and parses it.
func parseSVG(t *testing.T, doc, at string) parsedSVG {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	roots := 0
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v\n%s", at, err, doc)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Fatalf("%s: %d root elements", at, roots)
	}
	p := parsedSVG{root: &svgNode{}, byID: map[string]*svgNode{}}
	if err := xml.Unmarshal([]byte(doc), p.root); err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	for _, n := range p.root.find(func(*svgNode) bool { return true }) {
		if id := n.attr("id"); id != "" {
			if p.byID[id] != nil {
				t.Fatalf("%s: id %q twice", at, id)
			}
			p.byID[id] = n
		}
	}
	return p
}

// frame is a transform "translate(x y) rotate(deg)", read back.
type frame struct{ x, y, deg float64 }

var transformRE = regexp.MustCompile(`^translate\(([-0-9.]+) ([-0-9.]+)\)(?: rotate\(([-0-9.]+)\))?$`)

func frameOf(t *testing.T, n *svgNode) frame {
	t.Helper()
	m := transformRE.FindStringSubmatch(n.attr("transform"))
	if m == nil {
		t.Fatalf("<%s id=%q>: transform %q", n.XMLName.Local, n.attr("id"), n.attr("transform"))
	}
	var f frame
	f.x, _ = strconv.ParseFloat(m[1], 64)
	f.y, _ = strconv.ParseFloat(m[2], 64)
	if m[3] != "" {
		f.deg, _ = strconv.ParseFloat(m[3], 64)
	}
	return f
}

// local maps a point of the board into the frame, undoing its transform
// as SVG applies it.
func (f frame) local(x, y float64) (float64, float64) {
	a := -f.deg * math.Pi / 180
	dx, dy := x-f.x, y-f.y
	return dx*math.Cos(a) - dy*math.Sin(a), dx*math.Sin(a) + dy*math.Cos(a)
}

// inRect reports whether the point x, y of a frame lies in the rect r
// drawn in that frame.
func inRect(t *testing.T, r *svgNode, x, y float64) bool {
	t.Helper()
	rx, ry := 0.0, 0.0
	if r.attr("x") != "" {
		rx = r.num(t, "x")
	}
	if r.attr("y") != "" {
		ry = r.num(t, "y")
	}
	const eps = 0.2
	return x >= rx-eps && x <= rx+r.num(t, "width")+eps && y >= ry-eps && y <= ry+r.num(t, "height")+eps
}

// squareRect is the background of square i: the first rect of its group.
func (p parsedSVG) squareRect(t *testing.T, i int) (*svgNode, frame) {
	t.Helper()
	g := p.byID[fmt.Sprintf("sq-%d", i)]
	if g == nil {
		t.Fatalf("no sq-%d", i)
	}
	for _, c := range g.Nodes {
		if c.XMLName.Local == "rect" {
			return c, frameOf(t, g)
		}
	}
	t.Fatalf("sq-%d has no rect", i)
	return nil, frame{}
}

// disc is the disc of a token or a legend row: its circle, not its halo.
func (p parsedSVG) disc(t *testing.T, id string) *svgNode {
	t.Helper()
	if n := p.byID[id]; n != nil {
		for _, c := range n.find(func(n *svgNode) bool { return n.XMLName.Local == "circle" && !n.hasClass("halo") }) {
			return c
		}
	}
	t.Fatalf("%s has no disc", id)
	return nil
}

// token is a drawn token: its square, centre on the board, and the
// radius it covers, its halo included.
type token struct {
	node   *svgNode
	square int
	x, y   float64
	r      float64
}

func (p parsedSVG) token(t *testing.T, seat int) *token {
	t.Helper()
	n := p.byID[fmt.Sprintf("token-%d", seat)]
	if n == nil {
		return nil
	}
	tk := &token{node: n}
	var err error
	if tk.square, err = strconv.Atoi(n.attr("data-square")); err != nil {
		t.Fatalf("token-%d: data-square %q", seat, n.attr("data-square"))
	}
	f := frameOf(t, n)
	tk.x, tk.y = f.x, f.y
	for _, c := range n.find(func(n *svgNode) bool { return n.XMLName.Local == "circle" }) {
		tk.r = max(tk.r, c.num(t, "r"))
	}
	if tk.r <= 0 {
		t.Fatalf("token-%d has no disc", seat)
	}
	return tk
}

// svgCheck is what the checked boards showed, so that a test can tell
// that its positions reached the states it checks.
type svgCheck struct {
	owned, houses, hotels, mortgaged, jailed, visiting, bankrupt, shared, jackpots, over int
}

// checkSVG renders g for viewer and checks the board against the engine:
// every square, its owner, buildings and mortgage; every token on its
// square, none drawn twice over another, jailed ones in the jail's cell;
// the centre and the legend.
func checkSVG(t *testing.T, g *monopoly.Game, viewer int, names []string, at string, seen *svgCheck) parsedSVG {
	t.Helper()
	s := wire.NewSnapshot(g, viewer, names)
	p := parseSVG(t, render.SVG(s), at)
	root := p.root
	if root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" || root.attr("viewBox") == "" || root.attr("width") == "" || root.attr("height") == "" {
		t.Fatalf("%s: root %v %v", at, root.XMLName, root.Attrs)
	}
	if root.title() == "" {
		t.Errorf("%s: no title", at)
	}
	if bad := root.find(func(n *svgNode) bool {
		l := n.XMLName.Local
		return l == "script" || l == "image" || l == "foreignObject" || n.attr("href") != ""
	}); len(bad) > 0 {
		t.Errorf("%s: external or active content: <%s>", at, bad[0].XMLName.Local)
	}
	checkSquares(t, g, p, at, seen)
	checkTokens(t, g, s, p, at, seen)
	checkCentre(t, g, s, p, at, seen)
	return p
}

// rulebookColours are the colours of the standard groups.
var rulebookColours = map[string]string{
	"Brown": "#955436", "Light Blue": "#aae0fa", "Pink": "#d93a96", "Orange": "#f7941d",
	"Red": "#ed1b24", "Yellow": "#fef200", "Green": "#1fb25a", "Dark Blue": "#0072bb",
}

func checkSquares(t *testing.T, g *monopoly.Game, p parsedSVG, at string, seen *svgCheck) {
	t.Helper()
	r := g.Rules()
	for i, sq := range r.Squares {
		sqNode := p.byID[fmt.Sprintf("sq-%d", i)]
		if sqNode == nil || !sqNode.hasClass("square") || !sqNode.hasClass(sq.Kind.String()) || !strings.HasPrefix(sqNode.title(), sq.Name) {
			t.Fatalf("%s: square %d (%s) drawn as %v", at, i, sq.Name, sqNode)
		}
		band := p.byID[fmt.Sprintf("band-%d", i)]
		if (band != nil) != (sq.Kind == monopoly.KindStreet) {
			t.Errorf("%s: %s (%s) has a colour band: %v", at, sq.Name, sq.Kind, band != nil)
		}
		if band != nil {
			if want, ok := rulebookColours[r.Groups[sq.Group].Name]; ok && band.attr("fill") != want {
				t.Errorf("%s: %s's band is %s, want %s", at, sq.Name, band.attr("fill"), want)
			}
		}
		if sq.Ownable() && !strings.Contains(sqNode.title(), fmt.Sprintf("$%d", sq.Price)) {
			t.Errorf("%s: %s's title %q lacks its price", at, sq.Name, sqNode.title())
		}
		checkOwner(t, g, p, i, at, seen)
		checkBuildings(t, g, p, i, at, seen)
		mort := p.byID[fmt.Sprintf("mort-%d", i)]
		if (mort != nil) != g.Mortgaged(i) || sqNode.hasClass("mortgaged") != g.Mortgaged(i) {
			t.Errorf("%s: %s mortgaged %v, drawn %v", at, sq.Name, g.Mortgaged(i), mort != nil)
		} else if mort != nil {
			seen.mortgaged++
		}
	}
	if n := len(p.root.find(func(n *svgNode) bool { return n.hasClass("square") })); n != len(r.Squares) {
		t.Errorf("%s: %d squares drawn, the board has %d", at, n, len(r.Squares))
	}
}

// checkOwner checks square i's owner mark: there for an owned square
// only, in the colour of the owner's token in the legend.
func checkOwner(t *testing.T, g *monopoly.Game, p parsedSVG, i int, at string, seen *svgCheck) {
	t.Helper()
	own := p.byID[fmt.Sprintf("own-%d", i)]
	o := g.Owner(i)
	switch {
	case (own != nil) != (o >= 0):
		t.Errorf("%s: square %d owned by %d, owner mark %v", at, i, o, own != nil)
	case o >= 0:
		seen.owned++
		if !own.hasClass(fmt.Sprintf("p%d", o)) {
			t.Errorf("%s: square %d owned by %d, marked %q", at, i, o, own.attr("class"))
		}
		if disc := p.disc(t, fmt.Sprintf("player-%d", o)); disc.attr("fill") != own.attr("fill") {
			t.Errorf("%s: square %d's owner mark is %s, its owner's colour %s", at, i, own.attr("fill"), disc.attr("fill"))
		}
	}
}

func checkBuildings(t *testing.T, g *monopoly.Game, p parsedSVG, i int, at string, seen *svgCheck) {
	t.Helper()
	bld := p.byID[fmt.Sprintf("bld-%d", i)]
	h := g.Houses(i)
	if (bld != nil) != (h > 0) {
		t.Errorf("%s: square %d has %d buildings, drawn %v", at, i, h, bld != nil)
		return
	}
	if bld == nil {
		return
	}
	houses := len(bld.find(func(n *svgNode) bool { return n.hasClass("house") }))
	hotels := len(bld.find(func(n *svgNode) bool { return n.hasClass("hotel") }))
	switch {
	case h == 5 && (hotels != 1 || houses != 0), h < 5 && (hotels != 0 || houses != h):
		t.Errorf("%s: square %d: the engine has %d (5: a hotel), drawn %d houses and %d hotels", at, i, h, houses, hotels)
	case h == 5:
		seen.hotels++
	default:
		seen.houses++
	}
}

// checkTokens checks that the players in the game, and only they, stand
// on their squares, in the jail's cell when jailed, none over another.
func checkTokens(t *testing.T, g *monopoly.Game, s wire.Snapshot, p parsedSVG, at string, seen *svgCheck) {
	t.Helper()
	var drawn []*token
	for seat := range g.Players() {
		tk := p.token(t, seat)
		if (tk == nil) != g.Bankrupt(seat) {
			t.Errorf("%s: seat %d bankrupt %v, token drawn %v", at, seat, g.Bankrupt(seat), tk != nil)
			continue
		}
		if tk == nil {
			seen.bankrupt++
			continue
		}
		drawn = append(drawn, tk)
		if tk.node.hasClass("you") != (seat == s.Viewer) || tk.node.hasClass("current") != (seat == g.Current() && !g.Over()) {
			t.Errorf("%s: token-%d of viewer %d, %d to play: class %q", at, seat, s.Viewer, g.Current(), tk.node.attr("class"))
		}
		if tk.square != g.Position(seat) {
			t.Errorf("%s: seat %d stands on %d, its token says %d", at, seat, g.Position(seat), tk.square)
		}
		bg, f := p.squareRect(t, g.Position(seat))
		if x, y := f.local(tk.x, tk.y); !inRect(t, bg, x, y) {
			t.Errorf("%s: seat %d's token at %.1f,%.1f is off its square %d", at, seat, tk.x, tk.y, g.Position(seat))
		}
		if g.Position(seat) == g.Rules().JailSquare {
			jail := p.byID["in-jail"]
			x, y := f.local(tk.x, tk.y)
			if inRect(t, jail, x, y) != g.InJail(seat) || tk.node.hasClass("in-jail") != g.InJail(seat) {
				t.Errorf("%s: seat %d in jail %v, its token in the jail's cell %v", at, seat, g.InJail(seat), inRect(t, jail, x, y))
			}
			if g.InJail(seat) {
				seen.jailed++
			} else {
				seen.visiting++
			}
		}
	}
	for a, ta := range drawn {
		for _, tb := range drawn[a+1:] {
			if ta.square == tb.square {
				seen.shared++
			}
			if d := math.Hypot(ta.x-tb.x, ta.y-tb.y); d < ta.r+tb.r {
				t.Errorf("%s: %s and %s overlap (%.1f apart, radii %.1f and %.1f)", at, ta.node.attr("id"), tb.node.attr("id"), d, ta.r, tb.r)
			}
		}
	}
}

// checkCentre checks the round, who plays or won, the dice, the bank,
// the jackpot and the legend against the engine.
func checkCentre(t *testing.T, g *monopoly.Game, s wire.Snapshot, p parsedSVG, at string, seen *svgCheck) {
	t.Helper()
	name := func(seat int) string { return xmlText(s.Players[seat].Name) }
	text := func(id string) string {
		if n := p.byID[id]; n != nil {
			return n.Text
		}
		return ""
	}
	want := map[string]string{"round": fmt.Sprintf("Round %d, turn %d", g.Round(), g.Turn())}
	switch {
	case g.Over() && g.Winner() >= 0:
		seen.over++
		want["standing"] = "game over, " + name(g.Winner()) + " wins"
	case !g.Over():
		want["standing"] = name(g.Current()) + " to play"
		if g.Phase() == monopoly.PhaseAfterRoll {
			want["standing"] += ", after the roll"
		}
	}
	for id, w := range want {
		if got := text(id); got != w {
			t.Errorf("%s: %s says %q, want %q", at, id, got, w)
		}
	}
	if bank := text("bank"); !strings.Contains(bank, fmt.Sprintf("%d house", g.HouseSupply())) || !strings.Contains(bank, fmt.Sprintf("%d hotel", g.HotelSupply())) {
		t.Errorf("%s: bank %q, the engine has %d houses and %d hotels", at, bank, g.HouseSupply(), g.HotelSupply())
	}
	if jp, got := g.JackpotCash(), text("jackpot"); (jp != 0) != (got != "") || jp != 0 && !strings.Contains(got, fmt.Sprintf("$%d", jp)) {
		t.Errorf("%s: jackpot %d, drawn %q", at, jp, got)
	} else if jp != 0 {
		seen.jackpots++
	}
	if d1, d2 := g.LastRoll(); d1+d2 > 0 {
		for k, v := range []int{d1, d2} {
			die := p.byID[fmt.Sprintf("die-%d", k)]
			if die == nil || die.title() != strconv.Itoa(v) || len(die.find(func(n *svgNode) bool { return n.XMLName.Local == "circle" })) != v {
				t.Errorf("%s: die %d shows %d, drawn %v", at, k, v, die)
			}
		}
	}
	for seat := range g.Players() {
		row := p.byID[fmt.Sprintf("player-%d", seat)]
		if row == nil {
			t.Fatalf("%s: no legend row for seat %d", at, seat)
		}
		texts := row.find(func(n *svgNode) bool { return n.XMLName.Local == "text" && n.hasClass("name") })
		wantName := name(seat)
		if seat == s.Viewer {
			wantName += " (you)"
		}
		if len(texts) != 1 || texts[0].Text != wantName || row.hasClass("bankrupt") != g.Bankrupt(seat) {
			t.Errorf("%s: legend row %d: %v", at, seat, row)
		}
		cash := row.find(func(n *svgNode) bool { return n.hasClass("cash") })
		if !g.Bankrupt(seat) && (len(cash) != 1 || cash[0].Text != money(g.Cash(seat))) {
			t.Errorf("%s: seat %d has %d, the legend %v", at, seat, g.Cash(seat), cash)
		}
	}
}

// xmlText is s as an XML document can hold it: characters outside XML's
// (controls, invalid UTF-8) replaced by U+FFFD.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return utf8.RuneError
		}
		return r
	}, s)
}

func money(n int) string {
	if n < 0 {
		return fmt.Sprintf("-$%d", -n)
	}
	return fmt.Sprintf("$%d", n)
}

// The board of a game before its first roll: every square, four tokens
// sharing GO, no roll yet.
func TestSVGFreshGame(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 4, 1)
	var seen svgCheck
	p := checkSVG(t, g, -1, names, "a fresh game", &seen)
	if seen.shared != 6 {
		t.Errorf("%d pairs of tokens share a square, want all 6 pairs of four on GO", seen.shared)
	}
	if p.byID["die-0"] != nil || !strings.Contains(p.byID["dice"].find(func(n *svgNode) bool { return n.XMLName.Local == "text" })[0].Text, "no roll") {
		t.Error("a fresh game shows dice")
	}
}

// Games of the baseline bot, under the default rules and with the Free
// Parking jackpot, drawn every few decisions for a spectator and for
// every seat, and at their ends.
func TestSVGOfBotGames(t *testing.T) {
	var seen svgCheck
	for _, vr := range []wiretest.Variant{wiretest.Variants[0], wiretest.Variants[3]} {
		for seed := uint64(1); seed <= 2; seed++ {
			r := wiretest.RulesOf(t, vr)
			g := monopoly.New(r, 4, seed)
			var bots []agent.Agent
			for s := range 4 {
				a, err := agent.New("baseline", s, agent.SeatSeed(seed, s))
				if err != nil {
					t.Fatal(err)
				}
				bots = append(bots, a)
			}
			for n := 0; ; n++ {
				if n%23 == 0 || g.Over() {
					for viewer := -1; viewer < 4; viewer++ {
						checkSVG(t, g, viewer, names, fmt.Sprintf("%s seed %d decision %d viewer %d", vr.Name, seed, n, viewer), &seen)
					}
				}
				if g.Over() {
					break
				}
				d := g.Pending()
				if err := g.Apply(bots[d.Player].Decide(g.View(d.Player), d)); err != nil {
					t.Fatalf("%s seed %d decision %d: %v", vr.Name, seed, n, err)
				}
			}
		}
	}
	if seen.owned == 0 || seen.houses == 0 || seen.mortgaged == 0 || seen.jailed == 0 || seen.visiting == 0 || seen.bankrupt == 0 || seen.jackpots == 0 || seen.over == 0 {
		t.Errorf("the games did not reach the states the test checks: %+v", seen)
	}
}

// ownedPosition holds what bot games seldom do at one time: four houses,
// a hotel, mortgages, a railroad and a utility owned, players in and out
// of jail on the jail corner.
func ownedPosition(t *testing.T) *monopoly.Game {
	t.Helper()
	r := monopoly.DefaultRules()
	sq := func(name string) int { return monopolytest.Square(t, r, name) }
	setup := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1, First: 1,
		Players: []monopoly.PlayerSetup{
			{Cash: 900, Position: r.JailSquare, InJail: true, JailTurns: 1},
			{Cash: 1200, Position: r.JailSquare},
			{Cash: 50, Position: r.JailSquare, InJail: true},
			{Cash: 700, Position: sq("Boardwalk")},
		}}
	for _, o := range []monopolytest.Owned{
		{Name: "Park Place", Owner: 0, Houses: 4},
		{Name: "Boardwalk", Owner: 0, Houses: 5},
		{Name: "Oriental Avenue", Owner: 2, Houses: 1},
		{Name: "Vermont Avenue", Owner: 2, Houses: 2},
		{Name: "Connecticut Avenue", Owner: 2, Houses: 2},
		{Name: "Mediterranean Avenue", Owner: 1},
		{Name: "Baltic Avenue", Owner: 1, Mortgaged: true},
		{Name: "Reading Railroad", Owner: 3, Mortgaged: true},
		{Name: "Water Works", Owner: 3},
	} {
		setup.Properties = append(setup.Properties, monopoly.PropertySetup{Square: sq(o.Name), Owner: o.Owner, Houses: o.Houses, Mortgaged: o.Mortgaged})
	}
	g, err := monopoly.NewFromSetup(r, setup)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Owners, houses, hotels and mortgages stand on the squares the engine
// has them on, and on no other.
func TestSVGProperties(t *testing.T) {
	g := ownedPosition(t)
	var seen svgCheck
	p := checkSVG(t, g, 1, names, "the constructed position", &seen)
	if seen.owned != 9 || seen.houses != 4 || seen.hotels != 1 || seen.mortgaged != 2 {
		t.Errorf("the constructed position shows %+v", seen)
	}
	// The checks above compare with the engine; these pin a few squares by
	// hand, so that a checker and a board wrong alike cannot agree.
	r := g.Rules()
	bw := monopolytest.Square(t, r, "Boardwalk")
	if hotel := p.byID[fmt.Sprintf("bld-%d", bw)].find(func(n *svgNode) bool { return n.hasClass("hotel") }); len(hotel) != 1 {
		t.Error("Boardwalk has no hotel")
	}
	if own := p.byID[fmt.Sprintf("own-%d", monopolytest.Square(t, r, "Water Works"))]; own == nil || !own.hasClass("p3") {
		t.Error("Water Works is not marked as seat 3's")
	}
	if p.byID[fmt.Sprintf("mort-%d", monopolytest.Square(t, r, "Baltic Avenue"))] == nil || p.byID[fmt.Sprintf("mort-%d", monopolytest.Square(t, r, "Mediterranean Avenue"))] != nil {
		t.Error("Baltic Avenue, and not Mediterranean Avenue, is mortgaged")
	}
	if p.byID["own-1"].attr("fill") == p.byID[fmt.Sprintf("own-%d", bw)].attr("fill") {
		t.Error("two seats' properties are marked in one colour")
	}
}

// Jailed players stand in the jail's cell, visitors on the rest of the
// corner; a player off the jail is in neither.
func TestSVGJail(t *testing.T) {
	g := ownedPosition(t)
	var seen svgCheck
	p := checkSVG(t, g, -1, names, "the constructed position", &seen)
	if seen.jailed != 2 || seen.visiting != 1 {
		t.Errorf("%d jailed and %d visiting drawn, want 2 and 1", seen.jailed, seen.visiting)
	}
	jail := p.byID["in-jail"]
	bg, f := p.squareRect(t, g.Rules().JailSquare)
	for seat, want := range []string{"jail", "visiting", "jail", "elsewhere"} {
		tk := p.token(t, seat)
		x, y := f.local(tk.x, tk.y)
		got := "elsewhere"
		switch {
		case inRect(t, jail, x, y):
			got = "jail"
		case inRect(t, bg, x, y):
			got = "visiting"
		}
		if got != want {
			t.Errorf("seat %d is drawn %s, want %s", seat, got, want)
		}
	}
}

// The squares go round the board as on the printed one: GO at the
// bottom right, then leftwards along the bottom, up the left side,
// rightwards along the top and down the right side; corners are larger.
func TestSVGLayout(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 2, 1)
	p := parseSVG(t, render.SVG(wire.NewSnapshot(g, -1, nil)), "a fresh game")
	side, _ := strconv.ParseFloat(p.root.attr("width"), 64)
	centres := make([][2]float64, 40)
	for i := range centres {
		bg, f := p.squareRect(t, i)
		w, h := bg.num(t, "width"), bg.num(t, "height")
		// The frame's centre, on the board.
		a := f.deg * math.Pi / 180
		centres[i] = [2]float64{f.x + w/2*math.Cos(a) - h/2*math.Sin(a), f.y + w/2*math.Sin(a) + h/2*math.Cos(a)}
		if corner := i%10 == 0; corner != (w == h) || corner != p.byID[fmt.Sprintf("sq-%d", i)].hasClass("corner") {
			t.Errorf("square %d is %gx%g", i, w, h)
		}
	}
	near := func(v, want float64) bool { return math.Abs(v-want) < side/10 }
	for _, c := range []struct {
		sq   int
		x, y float64
	}{{0, side, side}, {10, 0, side}, {20, 0, 0}, {30, side, 0}} {
		if !near(centres[c.sq][0], c.x) || !near(centres[c.sq][1], c.y) {
			t.Errorf("corner %d is centred at %v", c.sq, centres[c.sq])
		}
	}
	for i := 1; i < 40; i++ {
		prev, cur := centres[i-1], centres[i]
		var ok bool
		switch {
		case i <= 10:
			ok = cur[0] < prev[0] && near(cur[1], side)
		case i <= 20:
			ok = cur[1] < prev[1] && near(cur[0], 0)
		case i <= 30:
			ok = cur[0] > prev[0] && near(cur[1], 0)
		default:
			ok = cur[1] > prev[1] && near(cur[0], side)
		}
		if !ok {
			t.Errorf("square %d at %v does not follow square %d at %v", i, cur, i-1, prev)
		}
	}
}

// Players' names are anyone's input: markup in them is text, and
// characters XML cannot hold do not break the document.
func TestSVGEscapesNames(t *testing.T) {
	hostile := []string{`<script>&"'`, "a\x00b\x1b", `"/><svg onload="x`, "\xff\xfe"}
	g := ownedPosition(t)
	doc := render.SVG(wire.NewSnapshot(g, 0, hostile))
	var seen svgCheck
	p := checkSVG(t, g, 0, hostile, "hostile names", &seen)
	if strings.Contains(doc, "<script") {
		t.Errorf("a name's markup reached the document:\n%s", doc)
	}
	if n := p.root.find(func(n *svgNode) bool { return n.XMLName.Local == "svg" || n.attr("onload") != "" }); len(n) > 0 {
		t.Errorf("a name's markup made an element: %v", n[0])
	}
	if got := p.token(t, 0).node.title(); !strings.HasPrefix(got, `<script>&"'`) {
		t.Errorf("token-0's title reads back %q", got)
	}
	if got := p.byID["player-0"].find(func(n *svgNode) bool { return n.hasClass("name") })[0].Text; got != `<script>&"' (you)` {
		t.Errorf("the legend reads back %q", got)
	}
}

// The same snapshot gives the same bytes, however it was made: twice,
// from a clone of the game, through JSON.
func TestSVGDeterministic(t *testing.T) {
	f := wiretest.FindPosition(t, wiretest.Variants[3], func(g *monopoly.Game, n int) bool { return n > 300 && g.JackpotCash() > 0 })
	s := wire.NewSnapshot(f.Game, 1, names)
	want := render.SVG(s)
	var viaJSON wire.Snapshot
	data, err := json.Marshal(s)
	if err == nil {
		err = json.Unmarshal(data, &viaJSON)
	}
	if err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]string{
		"again":      render.SVG(s),
		"a clone":    render.SVG(wire.NewSnapshot(f.Game.Clone(), 1, names)),
		"via JSON":   render.SVG(viaJSON),
		"a new copy": render.SVG(wire.NewSnapshot(f.Game, 1, append([]string(nil), names...))),
	} {
		if got != want {
			t.Errorf("%s gives other bytes", what)
		}
	}
	if len(want) > 48<<10 {
		t.Errorf("the board takes %d bytes", len(want))
	}
	if other := render.SVG(wire.NewSnapshot(f.Game, 2, names)); other == want {
		t.Error("another viewer's board is the same: the viewer is not marked")
	}
}

// A board from a rules file, of other groups and another size, draws
// all of its squares, in colours of their own.
func TestSVGCustomBoard(t *testing.T) {
	r := monopolytest.Rules(t, `
groups:
  - {name: Teal, house_cost: 50}
  - {name: Dark Blue, house_cost: 100}
board:
  - {name: GO, kind: go}
  - {name: Tide Lane, kind: street, group: Teal, price: 60, rent: [2, 10, 30, 90, 160, 250]}
  - {name: Chance, kind: action, do: DRAW chance}
  - {name: Reef Road, kind: street, group: Teal, price: 80, rent: [4, 20, 60, 180, 320, 450]}
  - {name: Ferry, kind: railroad, price: 200}
  - {name: Jail, kind: jail}
  - {name: Harbour Row, kind: street, group: Dark Blue, price: 120, rent: [8, 40, 100, 300, 450, 600]}
  - {name: Pier, kind: street, group: Dark Blue, price: 140, rent: [10, 50, 150, 450, 625, 750]}
  - {name: Free Parking, kind: action, do: JACKPOT}
  - {name: Harbour Tax, kind: action, do: TAX 100}
  - {name: Lighthouse, kind: utility, price: 150}
  - {name: Go To Jail, kind: action, do: GO_TO_JAIL}
  - {name: Quay, kind: railroad, price: 200}
decks:
  - name: chance
    cards:
      - {id: dividend, text: "Bank pays you dividend of $50", do: RECEIVE 50}
      - {id: go-back-3, text: "Go Back 3 Spaces", do: TRANSLATE -3}
`)
	g := monopoly.New(r, 3, 5)
	rp := wiretest.NewPlayer(5, false)
	var seen svgCheck
	for n := 0; n < 400 && !g.Over(); n++ {
		if n%37 == 0 {
			p := checkSVG(t, g, -1, nil, fmt.Sprintf("the custom board, decision %d", n), &seen)
			if teal, blue := p.byID["band-1"].attr("fill"), p.byID["band-6"].attr("fill"); teal == blue || blue != "#0072bb" || teal == "" {
				t.Fatalf("Teal is %q, Dark Blue %q", teal, blue)
			}
			if !p.byID["sq-1"].hasClass("group-teal") || !p.byID["sq-2"].hasClass("card") || !p.byID["sq-9"].hasClass("tax") {
				t.Fatalf("classes: %q, %q, %q", p.byID["sq-1"].attr("class"), p.byID["sq-2"].attr("class"), p.byID["sq-9"].attr("class"))
			}
		}
		d := g.Pending()
		a, _, _ := rp.Decide(g.View(d.Player), d)
		if err := g.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if seen.owned == 0 {
		t.Errorf("the custom games reached none of the states checked: %+v", seen)
	}
}

// Eight players on one square stand apart: on a corner, on a square
// along a side, in jail.
func TestSVGCrowdedSquares(t *testing.T) {
	r := monopoly.DefaultRules()
	for _, c := range []struct {
		name   string
		square int
		jailed bool
	}{{"GO", 0, false}, {"Boardwalk", 39, false}, {"Jail", r.JailSquare, true}, {"Just Visiting", r.JailSquare, false}} {
		setup := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1}
		for range monopoly.MaxPlayers {
			setup.Players = append(setup.Players, monopoly.PlayerSetup{Cash: 1500, Position: c.square, InJail: c.jailed})
		}
		g, err := monopoly.NewFromSetup(r, setup)
		if err != nil {
			t.Fatal(err)
		}
		var seen svgCheck
		checkSVG(t, g, 3, nil, "eight players on "+c.name, &seen)
		if seen.shared != 28 {
			t.Errorf("%s: %d pairs share a square, want all 28 pairs of eight", c.name, seen.shared)
		}
	}
}

// Every square along a side has its name and price upright, whichever
// way the square faces, at the names' size or larger; the seats' numbers
// on the tokens and owners' strips count from 1.
func TestSVGLabelsUpright(t *testing.T) {
	g := ownedPosition(t)
	p := parseSVG(t, render.SVG(wire.NewSnapshot(g, -1, names)), "a position with owners")
	docSize, _ := strconv.ParseFloat(p.root.attr("font-size"), 64)
	if docSize < 10.5 {
		t.Errorf("the names' size is %v units, want 10.5 or more (11 pixels on a 780-pixel board)", docSize)
	}
	labels := 0
	for i, sq := range g.Rules().Squares {
		sqNode := p.byID[fmt.Sprintf("sq-%d", i)]
		label := sqNode.find(func(n *svgNode) bool { return n.hasClass("label") })
		if len(label) == 0 {
			continue // a corner, its name on the printed board's diagonal
		}
		labels++
		turn := frameOf(t, sqNode).deg + frameOf(t, label[0]).deg
		if math.Mod(turn+720, 360) != 0 {
			t.Errorf("%s's label is turned %v degrees", sq.Name, turn)
		}
		for _, text := range label[0].Nodes {
			if text.XMLName.Local != "text" {
				continue
			}
			if s := text.attr("font-size"); s != "" {
				if v, _ := strconv.ParseFloat(s, 64); v < docSize {
					t.Errorf("%s: %q at %v units", sq.Name, text.Text, v)
				}
			}
		}
	}
	if labels != 36 {
		t.Errorf("%d squares along the sides have a label, want 36", labels)
	}
	first := func(n *svgNode, keep func(*svgNode) bool) string {
		if found := n.find(keep); len(found) > 0 {
			return found[0].Text
		}
		return "nothing"
	}
	if seat := first(p.byID["token-0"], func(n *svgNode) bool { return n.XMLName.Local == "text" }); seat != "1" {
		t.Errorf("seat 0's token reads %q, want 1", seat)
	}
	if seat := first(p.byID["sq-1"], func(n *svgNode) bool { return n.hasClass("owner-seat") }); seat != "2" {
		t.Errorf("the owner's strip of seat 1's Mediterranean Avenue reads %q, want 2", seat)
	}
}
