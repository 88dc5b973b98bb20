package trade_test

import (
	"math"
	"testing"

	"github.com/gopoly/gopoly/agent/trade"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// Seat 0 holds New York Avenue, the orange seat 1 lacks, and Electric
// Company; seat 1 holds the two other oranges and Water Works.
func position(t *testing.T) *monopoly.Game {
	t.Helper()
	return monopolytest.Position(t, monopolytest.Rules(t, ""), 0, []int{1500, 1500},
		monopolytest.Owned{Name: "New York Avenue", Owner: 0}, monopolytest.Owned{Name: "Electric Company", Owner: 0},
		monopolytest.Owned{Name: "St. James Place", Owner: 1}, monopolytest.Owned{Name: "Tennessee Avenue", Owner: 1},
		monopolytest.Owned{Name: "Water Works", Owner: 1})
}

// oranges is the oranges' worth developed (worth.Monopoly): above their
// printed prices ($560) on the standard board.
func oranges(t *testing.T, r *monopoly.Rules) float64 {
	t.Helper()
	m := worth.Monopoly(r, r.Squares[monopolytest.Square(t, r, "New York Avenue")].Group)
	if m <= 560 {
		t.Fatalf("the oranges are worth %v, not above their prices", m)
	}
	return m
}

// Handing over the street that completes a rival's group is worth the
// street and the group (200 + the oranges' worth) to the seller: for a
// utility, at its price, or for less than MaxLoss of that short of it,
// Fair refuses it; FairFloor is the exact least price, and
// CompletionFloor says the same; the buyer is never refused a bargain.
func TestFair(t *testing.T) {
	g := position(t)
	r := g.Rules()
	nySq := monopolytest.Square(t, r, "New York Avenue")
	ny := uint64(1) << nySq
	water := uint64(1) << monopolytest.Square(t, r, "Water Works")
	sell := monopoly.TradeOffer{From: 0, To: 1, GiveSquares: ny}
	floor := trade.FairFloor(g.View(0), 0, sell)
	worthy := 200 + oranges(t, r)
	if want := worthy * (1 - trade.MaxLoss); math.Abs(floor-want) > 1e-9 {
		t.Fatalf("FairFloor %v, want %v", floor, want)
	}
	if c := trade.CompletionFloor(r, nySq); math.Abs(c-floor) > 1e-9 {
		t.Fatalf("CompletionFloor %v, FairFloor %v", c, floor)
	}
	for _, c := range []struct {
		name string
		o    monopoly.TradeOffer
		fair bool
	}{
		{"for a utility", monopoly.TradeOffer{From: 0, To: 1, GiveSquares: ny, GetSquares: water}, false},
		{"for its price", monopoly.TradeOffer{From: 0, To: 1, GiveSquares: ny, GetCash: 200}, false},
		{"a dollar under the floor", monopoly.TradeOffer{From: 0, To: 1, GiveSquares: ny, GetCash: int64(math.Ceil(floor)) - 1}, false},
		{"at the floor", monopoly.TradeOffer{From: 0, To: 1, GiveSquares: ny, GetCash: int64(math.Ceil(floor))}, true},
		{"at the group's worth", monopoly.TradeOffer{From: 0, To: 1, GiveSquares: ny, GetCash: int64(math.Ceil(worthy))}, true},
	} {
		if got := trade.Fair(g.View(0), 0, c.o); got != c.fair {
			t.Errorf("seller, %s: Fair %v, want %v", c.name, got, c.fair)
		}
		if !trade.Fair(g.View(1), 1, c.o) {
			t.Errorf("buyer, %s: refused", c.name)
		}
	}
}

// A valuer's taste moves its value: a stretch for its own group, a weight
// on property, what it fears of a rival's group.
func TestValuerTaste(t *testing.T) {
	g := position(t)
	r := g.Rules()
	ny := uint64(1) << monopolytest.Square(t, r, "New York Avenue")
	buy := monopoly.TradeOffer{From: 1, To: 0, GetSquares: ny, GiveCash: 500}
	gain := func(val trade.Valuer, me int) float64 { x, _ := val.Value(g.View(me), me, buy); return x }
	group := oranges(t, r)
	base := gain(trade.Neutral, 1)
	if want := 200 + group - 500; math.Abs(base-want) > 1e-9 {
		t.Fatalf("the buyer's neutral gain %v, want %v", base, want)
	}
	stretched := trade.Neutral
	stretched.Stretch = 2
	if got := gain(stretched, 1); math.Abs(got-(base+group)) > 1e-9 {
		t.Errorf("stretch 2: gain %v, want %v", got, base+group)
	}
	weighted := trade.Neutral
	weighted.Weight = 2
	if got := gain(weighted, 1); got != base+200 {
		t.Errorf("weight 2: gain %v, want %v", got, base+200)
	}
	afraid := trade.Neutral
	afraid.Fear = fear(5000)
	if got, want := gain(afraid, 0), gain(trade.Neutral, 0)-(5000-group); math.Abs(got-want) > 1e-9 {
		t.Errorf("fearing the oranges at $5,000: the seller's gain %v, want %v", got, want)
	}
}

type fear float64

func (f fear) Threat(*monopoly.Rules, uint64, float64) float64 { return float64(f) }

// On the standard board the completion floor is 1.8 times a street's
// price (a brown) to 4.8 times it (an orange): never face value. (With -v
// it lists each street's: the figures of docs/players.md.)
func TestCompletionFloorRatios(t *testing.T) {
	r := monopoly.DefaultRules()
	lo, hi := math.Inf(1), 0.0
	for _, sq := range r.OwnableSquares() {
		if r.Squares[sq].Kind != monopoly.KindStreet {
			continue
		}
		x := trade.CompletionFloor(r, sq) / float64(r.Squares[sq].Price)
		lo, hi = min(lo, x), max(hi, x)
		t.Logf("%-22s $%4.0f, %.2f times its price", r.Squares[sq].Name, trade.CompletionFloor(r, sq), x)
	}
	if lo < 1.8 || hi > 4.8 {
		t.Errorf("the floor runs from %.2f to %.2f times the price, want within 1.8 to 4.8", lo, hi)
	}
}
