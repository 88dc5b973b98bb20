// Package monopolytest provides helpers for the tests of packages that
// play Monopoly.
package monopolytest

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// Rules returns the default rules with the YAML override document doc,
// failing tb when the rules refuse it.
func Rules(tb testing.TB, doc string) *monopoly.Rules {
	tb.Helper()
	r, err := monopoly.DefaultRules().WithOverrides("test rules", []byte(doc))
	if err != nil {
		tb.Fatalf("rules %q: %v", doc, err)
	}
	return r
}

// Square returns the index of the square named name, failing tb when the
// board of r has none.
func Square(tb testing.TB, r *monopoly.Rules, name string) int {
	tb.Helper()
	sq, ok := r.SquareIndex(name)
	if !ok {
		tb.Fatalf("no square %q", name)
	}
	return sq
}

// Owned is a property of a constructed position.
type Owned struct {
	Name      string
	Owner     int
	Houses    int // 5: a hotel
	Mortgaged bool
}

// Position starts a game from a constructed position: one player for
// each cash amount, with the properties props, seat first to move; the
// rest of the bank's buildings in the bank.
func Position(tb testing.TB, r *monopoly.Rules, first int, cash []int, props ...Owned) *monopoly.Game {
	tb.Helper()
	setup := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1, First: first}
	for _, c := range cash {
		setup.Players = append(setup.Players, monopoly.PlayerSetup{Cash: c})
	}
	for _, p := range props {
		setup.Properties = append(setup.Properties, monopoly.PropertySetup{
			Square: Square(tb, r, p.Name), Owner: p.Owner, Houses: p.Houses, Mortgaged: p.Mortgaged})
	}
	g, err := monopoly.NewFromSetup(r, setup)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
