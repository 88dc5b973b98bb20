package arena

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/stats"
)

// The bots that trade, with the number of games each plays against each
// field of exploiters (the planners are slower, and stronger). weak marks
// a bot that wins less than parity against three baselines too: the
// Turtle, by design (it hoards cash and buys only cheap streets).
var farmed = []struct {
	bot   string
	games int
	weak  bool
}{
	{"baseline", 200, false}, {"cautious", 200, false}, {"shark", 200, false}, {"hustler", 200, false},
	{"planning", 48, false}, {"adaptive", 48, false},
	{"professor", 200, false}, {"turtle", 200, true},
}

// wins counts the games bot wins in seat i%4 of game i, the other seats
// taken by field, for i up to games.
func wins(t *testing.T, r *monopoly.Rules, bot, field string, games int) int {
	t.Helper()
	n := 0
	err := Run(context.Background(), games, 0, func(i int, tb *Table) (bool, error) {
		seats := []Seat{{Bot: field}, {Bot: field}, {Bot: field}, {Bot: field}}
		seats[i%4] = Seat{Bot: bot}
		res, err := tb.Play(Match{Rules: r, Seats: seats, Seed: GameSeed(41, i)})
		return res.Winner == i%4, err
	}, func(_ int, won bool) error {
		if won {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// No gopoly bot can be farmed: against three exploiters (offering 10%
// over the price for the streets that complete their groups, cash for
// jail cards, a dollar over every bid) and against three sealed snipers
// (asking from the price up until a seller gives in), each wins its
// parity share of games or more, seats rotating, on fixed seeds: the 95%
// interval of its share reaches 25% (an exploiter plays as the baseline
// but for its probing, so the baseline itself is at parity only up to
// chance). A weak bot wins at least as often against them as against
// three baselines on the same seeds (less 3 points for chance): whatever
// it loses, it does not lose to farming. That no bot sells a group at face value is
// TestCompletionFloor's.
func TestExploitersFarmNoBot(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 3,000 games")
	}
	fields := []struct{ bot, rules string }{{"exploiter", ""}, {"sealed-sniper", "deal_protocol: sealed"}}
	for _, f := range fields {
		r := monopolytest.Rules(t, f.rules)
		for _, b := range farmed {
			share := float64(wins(t, r, b.bot, f.bot, b.games)) / float64(b.games)
			lo, hi := stats.Wilson(share*float64(b.games), b.games)
			t.Logf("%s vs 3 %s: %.1f%% [%.1f, %.1f] of %d games", b.bot, f.bot, 100*share, 100*lo, 100*hi, b.games)
			bar := 0.25
			if b.weak {
				bar = min(bar, float64(wins(t, r, b.bot, "baseline", b.games))/float64(b.games)-0.03)
			}
			if hi < bar {
				t.Errorf("%s against three %s wins %.1f%% [%.1f, %.1f], under %.1f%%", b.bot, f.bot, 100*share, 100*lo, 100*hi, 100*bar)
			}
		}
	}
}

// A street that completes another player's colour group is never sold
// for less than trade.CompletionFloor, by any bot, under any deal
// protocol: in random positions (a group all but one street held by the
// buyer, the last by the seller, other properties and cash at random),
// an offer of a dollar under the floor is refused, a counter-offer asks at
// least the floor, and a sealed limit is at least the floor. The floor is
// at least 1.8 times the street's price, and for the groups that earn
// most (streets of $180 and dearer) within 10% of the judge's own
// estimate (monopolytest.GroupWorth), so that a floor lowered by a bug
// fails too. (For the cheap groups the judge's equal landing chances
// overrate the light blues, which are landed on less than most.)
func TestCompletionFloor(t *testing.T) {
	bots := []string{"baseline", "cautious", "planning", "adaptive", "shark", "professor", "hustler", "turtle", "exploiter", "sealed-sniper"}
	docs := []string{"", "deal_protocol: sealed", "counter_offers: 3"}
	rng := rand.New(rand.NewPCG(5, 23))
	checked := 0
	for pos := range 60 {
		doc := docs[pos%len(docs)]
		r := monopolytest.Rules(t, doc)
		g, seller, buyer, sq := farmPosition(t, r, rng)
		floor := trade.CompletionFloor(r, sq)
		judged := 0.0
		if r.Squares[sq].Price >= 180 {
			judged = 0.9 * (1 - trade.MaxLoss) * float64(r.Squares[sq].Price+monopolytest.GroupWorth(r, r.Squares[sq].Group))
		}
		if floor < judged || floor < 1.8*float64(r.Squares[sq].Price) {
			t.Fatalf("the floor of %s is $%.0f, under 1.8 times its price or the judge's $%.0f", r.Squares[sq].Name, floor, judged)
		}
		for _, cash := range []int{r.Squares[sq].Price, int(math.Ceil(floor)) - 1} {
			if cash > g.Cash(buyer) {
				continue
			}
			for _, name := range bots {
				h := g.Clone()
				o := monopoly.TradeOffer{To: int8(seller), GetSquares: 1 << sq, GiveCash: int64(cash)}
				if err := h.Apply(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: buyer, Offer: &o}); err != nil {
					t.Fatalf("position %d: %v", pos, err)
				}
				d := h.Pending()
				p, err := agent.New(name, seller, SeatSeed(uint64(pos), seller))
				if err != nil {
					t.Fatal(err)
				}
				a := p.Decide(h.View(seller), d)
				what := fmt.Sprintf("%s (%q), position %d: %s for $%d (floor $%.0f)", name, doc, pos, r.Squares[sq].Name, cash, floor)
				switch {
				case a.Kind == monopoly.ActRejectTrade:
				case a.Kind == monopoly.ActAcceptTrade && r.DealProtocol == monopoly.DealsSealed:
					if float64(a.Arg) < floor {
						t.Errorf("%s: sealed limit $%d", what, a.Arg)
					}
				case a.Kind == monopoly.ActCounterTrade:
					c := *a.Offer
					if c.GiveSquares&(1<<sq) != 0 && float64(int(c.GetCash)-int(c.GiveCash)) < floor && c.GetSquares == 0 {
						t.Errorf("%s: counters with %s", what, r.DescribeOffer(c, nil))
					}
				default:
					t.Errorf("%s: %s", what, a.Kind)
				}
				checked++
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d answers checked", checked)
	}
}

// farmPosition makes a random position of three or four players: the
// buyer holds all but one street of a random colour group, the seller
// the last one; the other properties are dealt at random to players or
// left to the bank (keeping groups whole only by chance), cash is random,
// and the buyer is to move before its roll.
func farmPosition(t *testing.T, r *monopoly.Rules, rng *rand.Rand) (g *monopoly.Game, seller, buyer, sq int) {
	t.Helper()
	n := 3 + rng.IntN(2)
	buyer, seller = 0, 1+rng.IntN(n-1)
	var gi int
	for {
		gi = rng.IntN(len(r.Groups))
		if len(r.Groups[gi].Squares) > 1 {
			break
		}
	}
	grp := r.Groups[gi]
	last := grp.Squares[rng.IntN(len(grp.Squares))]
	var props []monopolytest.Owned
	for _, s := range r.OwnableSquares() {
		owner := -1
		switch {
		case s == last:
			owner = seller
		case grp.Mask&(1<<s) != 0:
			owner = buyer
		case rng.IntN(2) == 0:
			owner = rng.IntN(n)
		}
		if owner >= 0 {
			props = append(props, monopolytest.Owned{Name: r.Squares[s].Name, Owner: owner})
		}
	}
	cash := make([]int, n)
	for i := range cash {
		cash[i] = 200 + rng.IntN(2800)
	}
	cash[buyer] = max(cash[buyer], 1500)
	g = monopolytest.Position(t, r, buyer, cash, props...)
	if bits.OnesCount64(g.OwnedMask(buyer)&grp.Mask) != len(grp.Squares)-1 {
		t.Fatal("the position is not as dealt")
	}
	return g, seller, buyer, last
}
