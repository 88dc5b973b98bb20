package bots_test

import (
	"testing"

	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// speedDieMove starts a two-player game under the speed die in which
// player 0, with cash and having passed GO, throws dice and face from GO
// with the properties props, and returns the baseline's answer to the
// movement decision it asks.
func speedDieMove(t *testing.T, cash int, dice [2]int, face monopoly.SpeedFace, props ...monopolytest.Owned) monopoly.Action {
	t.Helper()
	g, d := speedDieRoll(t, cash, dice, face, props...)
	a := bots.NewBaseline(bots.BaselineParams()).Decide(g.View(0), d)
	if err := g.Check(a); err != nil {
		t.Fatalf("the baseline's move %+v: %v", a, err)
	}
	return a
}

// On the Bus the baseline moves to an unowned property it can afford;
// with none, to where it pays least; on triples to the property worth
// most to it.
func TestBaselineMovement(t *testing.T) {
	r := monopoly.DefaultRules()
	at := func(name string) int { return monopolytest.Square(t, r, name) }
	tests := []struct {
		name  string
		cash  int
		dice  [2]int
		face  monopoly.SpeedFace
		props []monopolytest.Owned
		want  string
	}{
		// 1+2 reaches Mediterranean Avenue, Community Chest or Baltic Avenue.
		{"the unowned property", 1500, [2]int{1, 2}, monopoly.SpeedBus,
			[]monopolytest.Owned{{Name: "Mediterranean Avenue", Owner: 1}}, "Baltic Avenue"},
		{"no rent over rent", 1500, [2]int{1, 2}, monopoly.SpeedBus,
			[]monopolytest.Owned{{Name: "Mediterranean Avenue", Owner: 1, Houses: 5}, {Name: "Baltic Avenue", Owner: 1, Houses: 5}}, "Community Chest"},
		// 5+6 reaches Reading Railroad (rent 25), Oriental Avenue (6) or
		// St. Charles Place (10), all another's.
		{"the lowest rent", 1500, [2]int{5, 6}, monopoly.SpeedBus,
			[]monopolytest.Owned{{Name: "Reading Railroad", Owner: 1}, {Name: "Oriental Avenue", Owner: 1}, {Name: "St. Charles Place", Owner: 1}}, "Oriental Avenue"},
		// 3+4 reaches Baltic Avenue (3), Income Tax (4) or Chance (7).
		{"no tax", 1500, [2]int{3, 4}, monopoly.SpeedBus,
			[]monopolytest.Owned{{Name: "Mediterranean Avenue", Owner: 1, Houses: 5}, {Name: "Baltic Avenue", Owner: 1, Houses: 5}}, "Chance"},
		// Only a property it can buy keeping its reserve counts as one.
		{"no property beyond its cash", 100, [2]int{5, 6}, monopoly.SpeedBus,
			[]monopolytest.Owned{{Name: "Reading Railroad", Owner: 1}, {Name: "Oriental Avenue", Owner: 1}}, "St. Charles Place"},
		// Triples: Boardwalk completes the Dark Blues it holds half of.
		{"triples complete a group", 1500, [2]int{2, 2}, monopoly.SpeedFace(2),
			[]monopolytest.Owned{{Name: "Park Place", Owner: 0}}, "Boardwalk"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := speedDieMove(t, tc.cash, tc.dice, tc.face, tc.props...)
			if a.Kind != monopoly.ActMove || a.Arg != at(tc.want) {
				t.Errorf("moved to %s, want %s", r.Squares[a.Arg].Name, tc.want)
			}
		})
	}
}

// speedDieRoll is speedDieMove's position: the game, and the movement
// decision pending after the throw.
func speedDieRoll(t *testing.T, cash int, dice [2]int, face monopoly.SpeedFace, props ...monopolytest.Owned) (*monopoly.Game, monopoly.Decision) {
	t.Helper()
	r := monopolytest.Rules(t, "speed_die: true")
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1,
		Players: []monopoly.PlayerSetup{{Cash: cash, PassedGo: true}, {Cash: 1500}}}
	for _, p := range props {
		s.Properties = append(s.Properties, monopoly.PropertySetup{Square: monopolytest.Square(t, r, p.Name), Owner: p.Owner, Houses: p.Houses})
	}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	g.ScriptDice([][2]int{dice})
	g.ScriptSpeedDie([]monopoly.SpeedFace{face})
	if err := g.Apply(monopoly.Action{Kind: monopoly.ActContinue}); err != nil {
		t.Fatal(err)
	}
	d := g.Pending()
	if d.Kind != monopoly.DecisionMovement {
		t.Fatalf("pending %s, want movement", d.Kind)
	}
	return g, d
}

// After triples a move may end on an opponent's utility; its rent is
// counted from all three dice, as the engine charges it, not from the
// white dice alone.
func TestMoveScoreUtilityRentThreeDice(t *testing.T) {
	g, d := speedDieRoll(t, 1500, [2]int{4, 4}, 4, monopolytest.Owned{Name: "Electric Company", Owner: 1})
	v := g.View(0)
	sq := monopolytest.Square(t, v.Rules(), "Electric Company")
	if got, want := bots.MoveScore(v, d, sq, 0, nil), -float64(v.Rent(sq, 12)); got != want {
		t.Errorf("moving onto Electric Company after 4+4 and a speed-die 4 scores %v, want %v (rent on 12)", got, want)
	}
}
