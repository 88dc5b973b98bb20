package arena

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// midGame plays a four-baseline game of seed for decisions decisions and
// returns it.
func midGame(t testing.TB, seed uint64, decisions int) *monopoly.Game {
	t.Helper()
	g := monopoly.New(monopoly.DefaultRules(), 4, seed)
	bots := make([]agent.Agent, 4)
	for p := range bots {
		a, err := agent.New("baseline", p, seed+uint64(p))
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = a
	}
	for range decisions {
		if g.Over() {
			t.Fatalf("seed %d: over before %d decisions", seed, decisions)
		}
		d := g.Pending()
		if err := g.Apply(bots[d.Player].Decide(g.View(d.Player), d)); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func odds(t *testing.T, g *monopoly.Game, viewer int, o OddsOptions) Odds {
	t.Helper()
	res, err := WinOdds(context.Background(), g, viewer, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The odds are shares of the samples that add up to 1 with the ties, and
// they depend on the seed and the position, not on the workers.
func TestWinOddsDeterministic(t *testing.T) {
	g := midGame(t, 3, 200)
	a := odds(t, g, -1, OddsOptions{Samples: 200, Seed: 9, Workers: 1})
	b := odds(t, g, -1, OddsOptions{Samples: 200, Seed: 9, Workers: 2})
	if !slices.Equal(a.Win, b.Win) || a.Ties != b.Ties {
		t.Fatalf("1 worker %v (ties %v), 2 workers %v (ties %v)", a.Win, a.Ties, b.Win, b.Ties)
	}
	sum := a.Ties
	for p, w := range a.Win {
		sum += w
		if lo, hi := a.CI95[p][0], a.CI95[p][1]; lo > w || hi < w || hi-lo <= 0 {
			t.Errorf("seat %d: %.3f outside its interval [%.3f, %.3f]", p, w, lo, hi)
		}
	}
	if math.Abs(sum-1) > 1e-9 || a.Samples != 200 {
		t.Fatalf("%d samples, shares sum to %v", a.Samples, sum)
	}
	if c := odds(t, g, -1, OddsOptions{Samples: 200, Seed: 10, Workers: 1}); slices.Equal(a.Win, c.Win) {
		t.Errorf("seeds 9 and 10 gave the same estimate %v", a.Win)
	}
}

// The estimate reads only the public position: two games that differ in
// what no player can see (the order of the decks, the generator) have
// the same odds.
func TestWinOddsPublicPositionOnly(t *testing.T) {
	r := monopoly.DefaultRules()
	position := func(seed uint64) *monopoly.Game {
		s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: seed,
			Players: []monopoly.PlayerSetup{{Cash: 900, Position: 5}, {Cash: 1200, Position: 21}, {Cash: 700, Position: 33}}}
		for _, name := range []string{"Oriental Avenue", "Vermont Avenue", "Connecticut Avenue"} {
			s.Properties = append(s.Properties, monopoly.PropertySetup{Square: monopolytest.Square(t, r, name), Houses: 2})
		}
		g, err := monopoly.NewFromSetup(r, s)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a := odds(t, position(1), -1, OddsOptions{Samples: 300, Seed: 4})
	b := odds(t, position(2), -1, OddsOptions{Samples: 300, Seed: 4})
	if !slices.Equal(a.Win, b.Win) {
		t.Fatalf("the same public position under two shuffles: %v and %v", a.Win, b.Win)
	}
}

// A player holding the board's best estate against a poor opponent all
// but wins; a finished game is certain.
func TestWinOddsFavourite(t *testing.T) {
	r := monopoly.DefaultRules()
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1,
		Players: []monopoly.PlayerSetup{{Cash: 2000}, {Cash: 150, Position: 20}}}
	for _, name := range []string{"Park Place", "Boardwalk", "Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue",
		"Kentucky Avenue", "Indiana Avenue", "Illinois Avenue"} {
		s.Properties = append(s.Properties, monopoly.PropertySetup{Square: monopolytest.Square(t, r, name), Houses: 5})
	}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	o := odds(t, g, 1, OddsOptions{Samples: 200, Seed: 1})
	// With 200 samples the interval is about ±3 points at 95%.
	if o.Win[0] < 0.9 {
		t.Fatalf("the hotel owner wins %.2f of playouts, want at least 0.9", o.Win[0])
	}
	g.Apply(monopoly.Action{Kind: monopoly.ActContinue})
	for !g.Over() {
		d := g.Pending()
		a, _ := agent.New("baseline", d.Player, 1)
		if err := g.Apply(a.Decide(g.View(d.Player), d)); err != nil {
			t.Fatal(err)
		}
	}
	done := odds(t, g, -1, OddsOptions{Samples: 50})
	if w := g.Winner(); done.Samples != 1 || done.Win[w] != 1 {
		t.Fatalf("a finished game won by %d: %+v", w, done)
	}
}

func TestWinOddsBadOptions(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 2, 1)
	for _, o := range []OddsOptions{{Samples: -1}, {Samples: maxOddsSamples + 1}, {Horizon: -2}, {Bot: "no-such-bot"}} {
		if _, err := WinOdds(context.Background(), g, -1, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := WinOdds(context.Background(), g, 2, OddsOptions{}); err == nil {
		t.Error("a viewer off the table accepted")
	}
}

// BenchmarkWinOdds estimates the odds of a mid-game position with the
// default 1,000 playouts on one core.
func BenchmarkWinOdds(b *testing.B) {
	g := midGame(b, 3, 400)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WinOdds(context.Background(), g, -1, OddsOptions{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
