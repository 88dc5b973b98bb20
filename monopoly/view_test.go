package monopoly_test

import (
	"encoding/json"
	"testing"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

// deckOrder reads the order of the decks from the state JSON, which is
// the only place it shows.
func deckOrder(t *testing.T, g *monopoly.Game) string {
	t.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Decks json.RawMessage `json:"decks"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	return string(j.Decks)
}

// A fork keeps everything the viewer knows, and draws afresh what it
// does not: the order of the decks.
func TestForkKeepsThePublicPosition(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 4, 21)
	b := bots.NewBaseline(bots.BaselineParams())
	for g.Round() < 15 && !g.Over() {
		d := g.Pending()
		if err := g.Apply(b.Decide(g.View(d.Player), d)); err != nil {
			t.Fatal(err)
		}
	}
	v := g.View(g.Pending().Player)
	f1, f2 := v.Fork(1), v.Fork(2)
	for _, f := range []*monopoly.Game{f1, f2} {
		for p := range g.Players() {
			if f.Cash(p) != g.Cash(p) || f.Position(p) != g.Position(p) || f.OwnedMask(p) != g.OwnedMask(p) || f.InJail(p) != g.InJail(p) {
				t.Fatalf("player %d differs in the fork", p)
			}
		}
		if f.Pending() != g.Pending() || f.MortgagedMask() != g.MortgagedMask() || f.HouseSupply() != g.HouseSupply() {
			t.Fatal("the fork stands elsewhere")
		}
		for d := range g.Rules().Decks {
			if f.DeckSize(d) != g.DeckSize(d) {
				t.Fatalf("deck %d has %d cards in the fork, %d in the game", d, f.DeckSize(d), g.DeckSize(d))
			}
		}
	}
	if deckOrder(t, f1) == deckOrder(t, f2) {
		t.Fatal("forks with different seeds share the deck order: it is not drawn afresh")
	}
	if f3 := v.Fork(1); deckOrder(t, f3) != deckOrder(t, f1) {
		t.Fatal("the same seed gives different forks")
	}
	// ForkInto gives the same fork in a game's memory, whatever it held,
	// and allocates nothing.
	v.ForkInto(f2, 1)
	if !f2.SameState(f1) {
		t.Fatal("ForkInto and Fork with the same seed differ")
	}
	if n := testing.AllocsPerRun(20, func() { v.ForkInto(f2, 3) }); n != 0 {
		t.Fatalf("ForkInto: %.0f allocations", n)
	}
	// A fork is a real game: it reads back from its JSON (so its decks are
	// consistent) and plays on.
	data, _ := json.Marshal(f1)
	if _, err := monopoly.UnmarshalGame(data); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 500 && !f1.Over(); n++ {
		d := f1.Pending()
		if err := f1.Apply(b.Decide(f1.View(d.Player), d)); err != nil {
			t.Fatal(err)
		}
	}
}

// A fork depends on the public position only: two games that differ in
// the order of their decks and their generators fork, with one seed, into
// the same game.
func TestForkIgnoresHiddenOrder(t *testing.T) {
	r := monopoly.DefaultRules()
	start := func(seed uint64) *monopoly.Game {
		g, err := monopoly.NewFromSetup(r, monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: seed,
			Players: []monopoly.PlayerSetup{{Cash: 1500}, {Cash: 1500, Position: 7}}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := start(1), start(2)
	if a.SameState(b) {
		t.Fatal("the two games do not differ in their hidden state")
	}
	for _, viewer := range []int{-1, 0, 1} {
		if !a.View(viewer).Fork(7).SameState(b.View(viewer).Fork(7)) {
			t.Errorf("viewer %d: the forks of one public position differ", viewer)
		}
	}
}
