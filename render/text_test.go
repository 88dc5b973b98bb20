package render_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
	"github.com/gopoly/gopoly/wire/wiretest"
)

// boardNames are the players' names in the board tests: none is part of
// another, or of a square's name, so that finding one in a line means it.
var boardNames = []string{"Ann", "Bob", "Cat", "Dee"}

// seen counts the states the checked texts showed, so that a test can
// tell that its positions reached them.
type seen struct {
	mortgaged, houses, hotels, monopolies, splitGroups, jailed, bankrupt, jackpots int
}

// The text of random games under several variants shows every ownable
// square once, with its owner, buildings and mortgage as the engine has
// them.
func TestBoardTextOfGames(t *testing.T) {
	var total seen
	for _, vr := range []wiretest.Variant{wiretest.Variants[0], wiretest.Variants[1], wiretest.Variants[3]} {
		r := wiretest.RulesOf(t, vr)
		wiretest.Positions(t, r, 4, func(g *monopoly.Game, seed uint64, n int) bool {
			if n%41 == 0 || g.Over() {
				checkBoardText(t, g, fmt.Sprintf("%s seed %d decision %d", vr.Name, seed, n), &total)
			}
			return true
		})
	}
	if total.mortgaged == 0 || total.houses == 0 || total.monopolies == 0 || total.jailed == 0 || total.bankrupt == 0 || total.jackpots == 0 || total.splitGroups == 0 {
		t.Errorf("the games did not reach the states the test checks: %+v", total)
	}
}

// A constructed position holds what random games seldom do: houses, a
// hotel, monopolies (one of them mortgaged) beside split groups, and a
// single owner of every railroad, which is no colour group; play from
// there changes it all, and the text follows.
func TestBoardTextOfPosition(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 40")
	g := monopolytest.Position(t, r, 0, []int{900, 1200, 50},
		monopolytest.Owned{Name: "Park Place", Owner: 0, Houses: 4},
		monopolytest.Owned{Name: "Boardwalk", Owner: 0, Houses: 5},
		monopolytest.Owned{Name: "Connecticut Avenue", Owner: 0},
		monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 1},
		monopolytest.Owned{Name: "Baltic Avenue", Owner: 1, Mortgaged: true},
		monopolytest.Owned{Name: "Oriental Avenue", Owner: 2},
		monopolytest.Owned{Name: "Vermont Avenue", Owner: 2, Mortgaged: true},
		monopolytest.Owned{Name: "Reading Railroad", Owner: 2, Mortgaged: true},
		monopolytest.Owned{Name: "Pennsylvania Railroad", Owner: 2},
		monopolytest.Owned{Name: "B&O Railroad", Owner: 2},
		monopolytest.Owned{Name: "Short Line Railroad", Owner: 2},
	)
	var total seen
	text := checkBoardText(t, g, "the constructed position", &total)
	if total.houses != 1 || total.hotels != 1 || total.monopolies != 2 || total.mortgaged != 3 {
		t.Errorf("the constructed position shows %+v\n%s", total, text)
	}
	if !strings.Contains(text, "Railroads\n") {
		t.Errorf("no railroads heading without a monopoly mark:\n%s", text)
	}
	gm := &wiretest.Game{G: g}
	for s := range g.Players() {
		gm.Players = append(gm.Players, wiretest.NewPlayer(uint64(s+1), false))
	}
	for gm.Step(t) {
		if gm.N%17 == 0 {
			checkBoardText(t, g, fmt.Sprintf("the constructed position after %d decisions", gm.N), &total)
		}
	}
	checkBoardText(t, g, "the constructed position played out", &total)
}

var columns = regexp.MustCompile(`\s{2,}`)

// checkBoardText checks the text of g for a spectator and for every seat
// against the engine's own state, adds what it shows to total, and
// returns the spectator's text.
func checkBoardText(t *testing.T, g *monopoly.Game, at string, total *seen) string {
	t.Helper()
	names := boardNames[:g.Players()]
	spectator := render.Text(wire.NewSnapshot(g, -1, names))
	if strings.Contains(spectator, "(you)") {
		t.Fatalf("%s: the spectator's text marks a seat as its own:\n%s", at, spectator)
	}
	for seat := range g.Players() {
		text := render.Text(wire.NewSnapshot(g, seat, names))
		if strings.Count(text, "(you)") != 1 || !strings.Contains(text, names[seat]+" (you)") {
			t.Fatalf("%s: seat %d is not marked once as the viewer:\n%s", at, seat, text)
		}
		if a, b := squeeze(strings.Replace(text, " (you)", "", 1)), squeeze(spectator); a != b {
			t.Fatalf("%s: seat %d's text says more than the spectator's:\n%s\n%s", at, seat, text, spectator)
		}
	}
	// The random players think "I am bluffing." now and then: thoughts are
	// never any viewer's to read on the board.
	if strings.Contains(spectator, "bluffing") {
		t.Fatalf("%s: the text shows a thought:\n%s", at, spectator)
	}
	for i, l := range strings.Split(spectator, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("%s: line %d is wider than 80 columns: %q", at, i, l)
		}
	}

	blocks := strings.Split(strings.TrimSuffix(spectator, "\n"), "\n\n")
	if len(blocks) != 4 {
		t.Fatalf("%s: %d blocks, want header, players, properties and bank:\n%s", at, len(blocks), spectator)
	}
	checkHeader(t, g, names, blocks[0], at)
	checkPlayers(t, g, names, blocks[1], at, total)
	checkProperties(t, g, names, blocks[2], at, total)

	bank := blocks[3]
	for _, want := range []string{plural(g.HouseSupply(), "house"), plural(g.HotelSupply(), "hotel")} {
		if !strings.Contains(bank, want) {
			t.Errorf("%s: the bank line %q lacks %q", at, bank, want)
		}
	}
	if jp := g.JackpotCash(); strings.Contains(bank, "jackpot") != (jp != 0) || jp != 0 && !strings.Contains(bank, fmt.Sprintf("$%d", jp)) {
		t.Errorf("%s: jackpot %d, bank line %q", at, jp, bank)
	} else if jp != 0 {
		total.jackpots++
	}
	return spectator
}

func checkHeader(t *testing.T, g *monopoly.Game, names []string, header, at string) {
	t.Helper()
	first, _, _ := strings.Cut(header, "\n")
	want := []string{fmt.Sprintf("Round %d,", g.Round())}
	switch {
	case !g.Over():
		want = append(want, names[g.Current()]+" to play")
		if g.Phase() == monopoly.PhaseAfterRoll {
			want = append(want, "after the roll")
		}
	case g.Winner() >= 0:
		want = append(want, names[g.Winner()]+" wins")
	}
	if d1, d2 := g.LastRoll(); d1+d2 > 0 {
		want = append(want, fmt.Sprintf("%d+%d", d1, d2))
	}
	for _, w := range want {
		if !strings.Contains(first, w) {
			t.Errorf("%s: the header %q lacks %q", at, first, w)
		}
	}
	if d := g.Pending(); d.Kind != monopoly.DecisionNone && !strings.Contains(header, "Waiting for "+names[d.Player]+" to ") {
		t.Errorf("%s: the header %q does not say that %s decides %s", at, header, names[d.Player], d.Kind)
	}
}

func checkPlayers(t *testing.T, g *monopoly.Game, names []string, block, at string, total *seen) {
	t.Helper()
	// A player's line may have a second one, indented further, for cards.
	var lines, cards []string
	for l := range strings.SplitSeq(block, "\n") {
		switch {
		case strings.HasPrefix(l, "    ") && len(lines) > 0:
			cards[len(lines)-1] = l
		case strings.HasPrefix(l, "  "):
			lines, cards = append(lines, l), append(cards, "")
		}
	}
	if len(lines) != g.Players() {
		t.Fatalf("%s: %d player lines for %d players:\n%s", at, len(lines), g.Players(), block)
	}
	r := g.Rules()
	for p, l := range lines {
		if !strings.HasPrefix(l, "  "+names[p]+" ") {
			t.Errorf("%s: player line %d is not %s's: %q", at, p, names[p], l)
			continue
		}
		if g.Bankrupt(p) {
			total.bankrupt++
			if !strings.HasSuffix(l, " bankrupt") {
				t.Errorf("%s: %s is bankrupt: %q", at, names[p], l)
			}
			continue
		}
		want := []string{fmt.Sprintf(" $%d ", g.Cash(p)), fmt.Sprintf("worth $%d", g.NetWorth(p))}
		if g.InJail(p) {
			total.jailed++
			want = append(want, fmt.Sprintf("in jail (%d failed roll", g.JailTurns(p)))
		} else {
			want = append(want, "on "+r.Squares[g.Position(p)].Name+" ")
		}
		n := g.JailCardCount(p)
		head, decks, _ := strings.Cut(cards[p], ": ")
		if n == 0 && cards[p] != "" || n > 0 && (head != "    "+plural(n, "Get Out of Jail Free card") || len(strings.Split(decks, ", ")) != n) {
			t.Errorf("%s: %s holds %d jail cards: %q", at, names[p], n, cards[p])
		}
		if g.Cash(p) < 0 {
			want[0] = fmt.Sprintf(" -$%d ", -g.Cash(p))
		}
		for _, w := range want {
			if !strings.Contains(l+" ", w) {
				t.Errorf("%s: %s's line %q lacks %q", at, names[p], l, w)
			}
		}
		if strings.Contains(l, "bankrupt") || strings.Contains(l, "in jail") != g.InJail(p) {
			t.Errorf("%s: %s's line %q misstates jail or bankruptcy", at, names[p], l)
		}
	}
}

// checkProperties reads the properties block as headings and square
// lines (name, price, owner, state, separated by two spaces or more) and
// checks them against the engine.
func checkProperties(t *testing.T, g *monopoly.Game, names []string, block, at string, total *seen) {
	t.Helper()
	r := g.Rules()
	index := map[string]int{}
	for _, sq := range r.OwnableSquares() {
		index[r.Squares[sq].Name] = sq
	}
	groupOf := map[string]int{}
	for k, gr := range r.Groups {
		groupOf[gr.Name] = k
	}
	listed := map[int]int{}
	headings := map[string]bool{}
	heading := ""
	for l := range strings.SplitSeq(block, "\n") {
		if !strings.HasPrefix(l, "  ") {
			heading = l
			name, mark, _ := strings.Cut(l, ": ")
			if headings[name] {
				t.Errorf("%s: heading %q twice: a group is split", at, name)
			}
			headings[name] = true
			k, isGroup := groupOf[name]
			if !isGroup {
				if mark != "" {
					t.Errorf("%s: %q is no colour group but is marked", at, l)
				}
				continue
			}
			owner, owned := g.Owner(r.Groups[k].Squares[0]), 0
			for _, sq := range r.Groups[k].Squares {
				if g.Owner(sq) >= 0 {
					owned++
				}
				if g.Owner(sq) != owner {
					owner = -1
				}
			}
			switch {
			case owner >= 0 && mark != "monopoly of "+names[owner]:
				t.Errorf("%s: %s owns all of %s, the heading says %q", at, names[owner], name, l)
			case owner < 0 && mark != "":
				t.Errorf("%s: nobody owns all of %s, the heading says %q", at, name, l)
			case owner >= 0:
				total.monopolies++
			case owned > 0:
				total.splitGroups++
			}
			continue
		}
		f := columns.Split(strings.TrimSpace(l), -1)
		sq, ok := index[f[0]]
		if !ok || len(f) < 3 {
			t.Errorf("%s: %q is no line of an ownable square", at, l)
			continue
		}
		listed[sq]++
		s := &r.Squares[sq]
		if s.Kind == monopoly.KindStreet && !strings.HasPrefix(heading, r.Groups[s.Group].Name) {
			t.Errorf("%s: %s is under %q, not its group %s", at, s.Name, heading, r.Groups[s.Group].Name)
		}
		if _, isGroup := groupOf[strings.SplitN(heading, ":", 2)[0]]; s.Kind != monopoly.KindStreet && isGroup {
			t.Errorf("%s: %s (%s) is under colour group %q", at, s.Name, s.Kind, heading)
		}
		owner := "unowned"
		if o := g.Owner(sq); o >= 0 {
			owner = names[o]
		}
		if f[1] != fmt.Sprintf("$%d", s.Price) || f[2] != owner {
			t.Errorf("%s: %s is worth $%d and owned by %s: %q", at, s.Name, s.Price, owner, l)
		}
		var state []string
		switch h := g.Houses(sq); {
		case h == 5:
			total.hotels++
			state = append(state, "hotel")
		case h > 0:
			total.houses++
			state = append(state, plural(h, "house"))
		}
		if g.Mortgaged(sq) {
			total.mortgaged++
			state = append(state, "mortgaged")
		}
		if got := strings.Join(f[3:], " "); got != strings.Join(state, ", ") {
			t.Errorf("%s: %s shows %q, the engine has %q", at, s.Name, got, state)
		}
	}
	for _, sq := range r.OwnableSquares() {
		if listed[sq] != 1 {
			t.Errorf("%s: %s is listed %d times", at, r.Squares[sq].Name, listed[sq])
		}
	}
	if len(listed) != len(r.OwnableSquares()) {
		t.Errorf("%s: %d squares listed, %d ownable", at, len(listed), len(r.OwnableSquares()))
	}
}

// squeeze collapses the runs of spaces that align columns, which the
// width of a "(you)" shifts.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// plural is "1 house" or "n houses", as a reader expects it.
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
