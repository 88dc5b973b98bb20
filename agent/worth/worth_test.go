package worth

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// A group is never worth less than its printed prices, and the groups
// that the rent tables and the landing model favour are worth more: the
// oranges more than the light blues, the light blues more than the
// browns. (With -v it lists the standard board's groups: the figures of
// docs/players.md.)
func TestMonopoly(t *testing.T) {
	r := monopoly.DefaultRules()
	group := func(name string) int { return r.Squares[monopolytest.Square(t, r, name)].Group }
	for gi, g := range r.Groups {
		prices := 0
		for _, sq := range g.Squares {
			prices += r.Squares[sq].Price
		}
		m := Monopoly(r, gi)
		if m < float64(prices) {
			t.Errorf("%s worth $%.0f, under its prices $%d", g.Name, m, prices)
		}
		t.Logf("%-10s $%4.0f (prices $%d)", g.Name, m, prices)
	}
	orange, light, brown := Monopoly(r, group("New York Avenue")), Monopoly(r, group("Oriental Avenue")), Monopoly(r, group("Baltic Avenue"))
	if !(orange > light && light > brown) {
		t.Errorf("oranges $%.0f, light blues $%.0f, browns $%.0f: want them in that order", orange, light, brown)
	}
}

// Share rises as a player nears a whole group and falls when others
// hold what it lacks.
func TestShare(t *testing.T) {
	r := monopoly.DefaultRules()
	sq := func(n string) uint64 { return 1 << monopolytest.Square(t, r, n) }
	stj, ten, ny := sq("St. James Place"), sq("Tennessee Avenue"), sq("New York Avenue")
	gi := r.Squares[monopolytest.Square(t, r, "New York Avenue")].Group
	for _, c := range []struct {
		name         string
		owned, taken uint64
		want         float64
	}{
		{"none", 0, stj, 0},
		{"whole", stj | ten | ny, 0, 1},
		{"one short, the bank holding it", stj | ten, 0, 0.5},
		{"one short, another holding it", stj | ten, ny, 0.2},
		{"two short, the bank holding both", stj, 0, 0.1},
		{"two short, another holding one", stj, ny, 0},
		{"squares of other groups ignored", stj | ten | sq("Boardwalk"), sq("Park Place"), 0.5},
	} {
		if got := Share(r, gi, c.owned, c.taken); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// CashFor is the inverse of Cash: the least delta worth at least the
// value, a dollar less worth less, over random cash, needs and values.
func TestCashFor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		c, need := rng.IntN(3000), float64(rng.IntN(1500))
		value := float64(rng.IntN(4000) - 2000)
		d := CashFor(c, value, need)
		if c+d < 0 {
			continue // more than it has: Cash is defined for what it holds
		}
		if got := Cash(c, d, need); got < value-1e-9 {
			t.Fatalf("cash %d, need %.0f: Cash(%d) = %.2f, under %.2f", c, need, d, got, value)
		}
		if c+d-1 >= 0 {
			if got := Cash(c, d-1, need); got >= value-1e-9 {
				t.Fatalf("cash %d, need %.0f: a dollar less (%d) is still worth %.2f of %.2f", c, need, d-1, got, value)
			}
		}
	}
	// Short of cash a dollar is worth more than its face.
	if got := Cash(100, 50, 500); got != 50*(1+CashPremium) {
		t.Errorf("$50 received short of cash worth %.2f", got)
	}
	if got := Cash(1000, 50, 500); got != 50 {
		t.Errorf("$50 received with cash to spare worth %.2f", got)
	}
}

// Stakes counts the partner's gain: handing over the last orange to the
// holder of the other two gives it 80% of the group's worth.
func TestStakes(t *testing.T) {
	r := monopoly.DefaultRules()
	sq := func(n string) uint64 { return 1 << monopolytest.Square(t, r, n) }
	var before Holdings
	before[0] = sq("New York Avenue")
	before[1] = sq("St. James Place") | sq("Tennessee Avenue")
	after := before.Move(sq("New York Avenue"), 0, 1)
	tb := Of(r)
	gi := r.Squares[monopolytest.Square(t, r, "New York Avenue")].Group
	if got, want := tb.Stakes(&before, &after, 1, sq("New York Avenue"), Prospect{Budget: 1e6, Turns: Horizon}), 0.8*tb.Monopoly(gi); got != want {
		t.Errorf("the buyer's stake rises by %.1f, want %.1f", got, want)
	}
	if got := tb.Stakes(&before, &after, 0, sq("New York Avenue"), Prospect{Budget: 1e6, Turns: Horizon}); got != 0 {
		t.Errorf("the seller's stake changes by %.1f, want 0 (one of three, the rest held by another)", got)
	}
}

// Income counts each property's rent as it stands unbuilt: the same for
// a street alone or with its group (what the group earns built is its
// Monopoly worth), and for a railroad by how many railroads are held
// with it, so that the fourth railroad adds more than a railroad alone
// (its own $200 and the rise of the other three from $100 to $200).
func TestIncome(t *testing.T) {
	r := monopoly.DefaultRules()
	tw := Of(r)
	land := LandingOf(r)
	sq := func(n string) int { return monopolytest.Square(t, r, n) }
	for _, n := range []string{"Mediterranean Avenue", "Illinois Avenue", "Boardwalk"} {
		s := sq(n)
		if got, want := tw.Income(1<<s), land.Prob[s]*RollsPerTurn*float64(r.Squares[s].Rent[0]); got <= 0 || math.Abs(got-want) > 1e-9 {
			t.Errorf("%s alone earns $%.3f a turn, want $%.3f", n, got, want)
		}
	}
	stj, ten, ny := uint64(1)<<sq("St. James Place"), uint64(1)<<sq("Tennessee Avenue"), uint64(1)<<sq("New York Avenue")
	if whole, parts := tw.Income(stj|ten|ny), tw.Income(stj)+tw.Income(ten)+tw.Income(ny); whole != parts {
		t.Errorf("the oranges earn $%.3f together and $%.3f apart", whole, parts)
	}
	var rails uint64
	for _, n := range []string{"Reading Railroad", "Pennsylvania Railroad", "B&O Railroad", "Short Line Railroad"} {
		rails |= 1 << sq(n)
	}
	reading := uint64(1) << sq("Reading Railroad")
	fourth := tw.Income(rails) - tw.Income(rails&^reading)
	if alone := tw.Income(reading); fourth < 4*alone {
		t.Errorf("the fourth railroad adds $%.3f a turn, alone one earns $%.3f", fourth, alone)
	}
	if tw.Income(0) != 0 {
		t.Errorf("nothing earns $%.3f", tw.Income(0))
	}
}

// IncomeTurns counts the live opponents' turns for IncomeRounds rounds,
// fewer when the round limit is nearer.
func TestIncomeTurns(t *testing.T) {
	for _, c := range []struct {
		doc   string
		round int
		want  float64
	}{
		{"", 1, 3 * IncomeRounds},
		{"max_rounds: 500", 1, 3 * IncomeRounds},
		{"max_rounds: 500", 450, 3 * 50},
		{"max_rounds: 40", 1, 3 * 39},
	} {
		r := monopolytest.Rules(t, c.doc)
		g := monopoly.New(r, 4, 1)
		// The first legal answer at every decision, to the round; an
		// opponent gone bankrupt on the way would count no more.
		var buf []monopoly.Action
		for g.Round() < c.round && !g.Over() {
			buf = g.LegalActions(buf[:0])
			if err := g.Apply(buf[0]); err != nil {
				t.Fatal(err)
			}
		}
		if got := IncomeTurns(g.View(0), 0); got != c.want {
			t.Errorf("%q at round %d: %v opponent turns, want %v", c.doc, g.Round(), got, c.want)
		}
	}
}

// A group is worth what its holder can make of it: its printed prices to
// a holder with no cash for houses, more as the cash buys more houses, its
// Monopoly worth once three houses a street are paid for, and more over
// more turns. With $900 to spend the oranges ($100 houses) are worth more
// than the dark blues ($200 houses), though the dark blues earn more
// built.
func TestDeveloped(t *testing.T) {
	r := monopoly.DefaultRules()
	tb := Of(r)
	for gi, g := range r.Groups {
		if r.Squares[g.Squares[0]].Kind != monopoly.KindStreet {
			continue
		}
		prices := 0
		for _, sq := range g.Squares {
			prices += r.Squares[sq].Price
		}
		if got := tb.Developed(gi, Prospect{Budget: 0, Turns: Horizon}); got != float64(prices) {
			t.Errorf("%s with no cash for houses: $%.0f, want its prices $%d", g.Name, got, prices)
		}
		last := 0.0
		for budget := 0.0; budget <= float64(4*len(g.Squares)*g.HouseCost); budget += float64(g.HouseCost) {
			got := tb.Developed(gi, Prospect{Budget: budget, Turns: Horizon})
			if got < last {
				t.Errorf("%s: $%.0f with $%.0f to build, $%.0f with less", g.Name, got, budget, last)
			}
			last = got
		}
		if last != tb.Monopoly(gi) {
			t.Errorf("%s with cash for every house: $%.0f, want its Monopoly worth $%.0f", g.Name, last, tb.Monopoly(gi))
		}
		if long := tb.Developed(gi, Prospect{Budget: math.Inf(1), Turns: 300}); long <= tb.Monopoly(gi) && tb.Monopoly(gi) > float64(prices) {
			t.Errorf("%s over 300 turns: $%.0f, no more than over %d", g.Name, long, Horizon)
		}
	}
	group := func(name string) int { return r.Squares[monopolytest.Square(t, r, name)].Group }
	orange, blue := group("New York Avenue"), group("Boardwalk")
	if o, b := tb.Developed(orange, Prospect{Budget: 900, Turns: Horizon}), tb.Developed(blue, Prospect{Budget: 900, Turns: Horizon}); o <= b {
		t.Errorf("with $900 to build: oranges $%.0f, dark blues $%.0f", o, b)
	}
	if o, b := tb.Monopoly(orange), tb.Monopoly(blue); o >= b {
		t.Errorf("built: oranges $%.0f, dark blues $%.0f; the test assumes the dark blues earn more", o, b)
	}
}

// A rival's group costs more turn by turn as its holder's cash builds
// more houses, nothing more past three a street, and with every house it
// is the rent the Monopoly worth is made of (that worth less the houses,
// over Horizon turns).
func TestBuiltRent(t *testing.T) {
	r := monopoly.DefaultRules()
	tb := Of(r)
	for gi, g := range r.Groups {
		if r.Squares[g.Squares[0]].Kind != monopoly.KindStreet {
			if tb.BuiltRent(gi, 1e6) != 0 {
				t.Errorf("%s, not a colour group: rent %.2f", g.Name, tb.BuiltRent(gi, 1e6))
			}
			continue
		}
		hc, full := float64(g.HouseCost), DevLevel*len(g.Squares)
		if h := tb.Affordable(gi, -50); h != 0 {
			t.Errorf("%s with no cash: %d houses", g.Name, h)
		}
		if h := tb.Affordable(gi, 2.5*hc); h != 2 {
			t.Errorf("%s with the cash for 2.5 houses: %d", g.Name, h)
		}
		last := 0.0
		for h := 0; h <= full+2; h++ {
			rent := tb.BuiltRent(gi, float64(h)*hc)
			if rent <= last && h <= full {
				t.Errorf("%s: %.2f a turn with %d houses, %.2f with fewer", g.Name, rent, h, last)
			}
			if h > full && rent != last {
				t.Errorf("%s: %.2f a turn with the cash for %d houses, %.2f with three a street", g.Name, rent, h, last)
			}
			last = rent
		}
		built := Horizon*tb.BuiltRent(gi, float64(full)*hc) - float64(full)*hc
		if m := tb.Monopoly(gi); m > tb.prices[gi] && math.Abs(built-m) > 1e-6 {
			t.Errorf("%s: %d turns of its built rent less the houses $%.2f, its Monopoly worth $%.2f", g.Name, Horizon, built, m)
		}
	}
}
