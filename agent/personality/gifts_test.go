package personality_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// No personality makes or accepts lopsided gifts. The judge is a neutral
// valuation written here, independent of the personalities' own: cash,
// printed prices, and the whole colour group's printed prices for a group
// completed or given up.

func paramSpec(t testing.TB, doc string) agent.ParamSpec {
	t.Helper()
	p, err := agent.ParseSeatParams("test", []byte("all:\n  "+strings.ReplaceAll(doc, "\n", "\n  ")))
	if err != nil {
		t.Fatal(err)
	}
	return p.All
}

// giftPosition: seat 0 (the personality) owns New York Avenue, two light
// blues and Mediterranean Avenue; seat 1 owns the other two oranges,
// Connecticut Avenue (the light blue seat 0 lacks), Electric Company,
// Water Works, Reading Railroad and Baltic Avenue (seat 0's missing
// brown); seat 2 owns Boardwalk. Seat first is to move.
func giftPosition(t *testing.T, r *monopoly.Rules, first int) *monopoly.Game {
	t.Helper()
	return monopolytest.Position(t, r, first, []int{1500, 3000, 1500},
		monopolytest.Owned{Name: "New York Avenue", Owner: 0}, monopolytest.Owned{Name: "Oriental Avenue", Owner: 0},
		monopolytest.Owned{Name: "Vermont Avenue", Owner: 0}, monopolytest.Owned{Name: "Mediterranean Avenue", Owner: 0},
		monopolytest.Owned{Name: "St. James Place", Owner: 1}, monopolytest.Owned{Name: "Tennessee Avenue", Owner: 1},
		monopolytest.Owned{Name: "Connecticut Avenue", Owner: 1}, monopolytest.Owned{Name: "Electric Company", Owner: 1},
		monopolytest.Owned{Name: "Water Works", Owner: 1}, monopolytest.Owned{Name: "Reading Railroad", Owner: 1},
		monopolytest.Owned{Name: "Baltic Avenue", Owner: 1},
		monopolytest.Owned{Name: "Boardwalk", Owner: 2})
}

func square(t *testing.T, r *monopoly.Rules, name string) uint64 {
	t.Helper()
	return 1 << monopolytest.Square(t, r, name)
}

// Accept side: offers that would have a personality hand over the last
// orange (completing its partner's group) for a utility, its price, or
// both, are refused by all four, under both protocols; three times the least
// that trade.Fair lets a player take is accepted, so the refusals are
// judgement, not habit.
func TestNoLopsidedGiftsAccepted(t *testing.T) {
	open, sealed, counters := monopolytest.Rules(t, "max_rounds: 500"), monopolytest.Rules(t, "max_rounds: 500\ndeal_protocol: sealed"), monopolytest.Rules(t, "max_rounds: 500\ncounter_offers: 5")
	ny, elec := square(t, open, "New York Avenue"), square(t, open, "Electric Company")
	floor := trade.CompletionFloor(open, monopolytest.Square(t, open, "New York Avenue"))
	cases := []struct {
		name   string
		o      monopoly.TradeOffer
		accept bool
	}{
		{"the last orange for a utility", monopoly.TradeOffer{To: 0, GiveSquares: elec, GetSquares: ny}, false},
		{"the last orange for its price", monopoly.TradeOffer{To: 0, GiveCash: 200, GetSquares: ny}, false},
		{"the last orange for a utility and its price", monopoly.TradeOffer{To: 0, GiveSquares: elec, GiveCash: 200, GetSquares: ny}, false},
		{"the last orange for three times the fair floor", monopoly.TradeOffer{To: 0, GiveCash: 3 * int64(floor), GetSquares: ny}, true},
	}
	for _, bot := range []string{"shark", "professor", "hustler", "turtle"} {
		for _, c := range cases {
			for _, r := range []*monopoly.Rules{open, sealed, counters} {
				g := giftPosition(t, r, 1)
				o := c.o
				if err := g.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &o}); err != nil {
					t.Fatal(err)
				}
				d := g.Pending()
				if d.Kind != monopoly.DecisionTradeResponse || d.Player != 0 {
					t.Fatalf("pending %+v", d)
				}
				a, _ := agent.New(bot, 0, 5)
				act := a.Decide(g.View(0), d)
				switch {
				case r == sealed:
					// It names its price without seeing the offer's cash:
					// for the orange, at least what trade.Fair lets it
					// take (less a utility offered in kind).
					if act.Kind == monopoly.ActAcceptTrade && float64(act.Arg) < floor-150 {
						t.Errorf("%s, sealed, %s: asks only $%d", bot, c.name, act.Arg)
					}
				case act.Kind == monopoly.ActCounterTrade:
					if gain, bad := monopolytest.Lopsided(g, 0, *act.Offer); bad || c.accept {
						t.Errorf("%s, %s: counters with %+v (neutral gain %d)", bot, c.name, *act.Offer, gain)
					}
				case (act.Kind == monopoly.ActAcceptTrade) != c.accept:
					t.Errorf("%s, %s: %s", bot, c.name, act.Kind)
				}
			}
		}
	}
}

// Propose side: in the gift position, whatever each personality proposes
// (trading forced on, many seeds, both protocols) never gives its partner
// the last orange short of the group's worth, nor loses more than mildly
// by the neutral valuation.
func TestNoLopsidedGiftsProposed(t *testing.T) {
	spec := paramSpec(t, "trade_chance: 1")
	proposals := 0
	for _, doc := range []string{"max_rounds: 500", "max_rounds: 500\ndeal_protocol: sealed"} {
		r := monopolytest.Rules(t, doc)
		ny := square(t, r, "New York Avenue")
		for _, bot := range []string{"shark", "professor", "hustler", "turtle"} {
			for seed := range uint64(40) {
				g := giftPosition(t, r, 0)
				a, _ := agent.NewWith(bot, spec, 0, seed)
				act := a.Decide(g.View(0), g.Pending())
				if act.Kind != monopoly.ActProposeTrade {
					continue
				}
				proposals++
				o := *act.Offer
				o.From = 0
				if gain, bad := monopolytest.Lopsided(g, 0, o); bad {
					t.Errorf("%s (%q): proposes %s, neutral gain %d", bot, doc, r.DescribeOffer(o, nil), gain)
				}
				if o.GiveSquares&ny != 0 && int(o.GetCash) < 560 {
					t.Errorf("%s (%s): gives New York Avenue away: %s", bot, doc, r.DescribeOffer(o, nil))
				}
			}
		}
	}
	if proposals < 100 {
		t.Fatalf("only %d proposals in the gift position: the test would not see a gift", proposals)
	}
}

// The same holds in real games: every proposal, counter-offer and
// acceptance by a personality, in 60 games of the four under each
// protocol, loses at most mildly by the neutral valuation.
func TestNoLopsidedGiftsInPlay(t *testing.T) {
	var j monopolytest.Judge
	for _, doc := range []string{"max_rounds: 500", "max_rounds: 500\ndeal_protocol: sealed", "max_rounds: 500\ncounter_offers: 5"} {
		r := monopolytest.Rules(t, doc)
		for i := range 60 {
			seed := arena.GameSeed(31, i)
			bots := []string{"shark", "professor", "hustler", "turtle"}
			g := monopoly.New(r, 4, seed)
			agents := make([]agent.Agent, 4)
			for s := range 4 {
				agents[s], _ = agent.New(bots[(s+i)%4], s, arena.SeatSeed(seed, s))
			}
			for !g.Over() {
				d := g.Pending()
				act := agents[d.Player].Decide(g.View(d.Player), d)
				j.Check(t, g, act, fmt.Sprintf("%s (%q)", bots[(d.Player+i)%4], doc))
				if err := g.Apply(act); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if j.Proposed < 1000 || j.Accepted < 100 {
		t.Fatalf("%d proposals, %d acceptances: too few to judge", j.Proposed, j.Accepted)
	}
}
