package monopoly_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// maxGameSteps bounds one test game: agents that never let a game end
// are a bug to report, not to wait for.
const maxGameSteps = 200_000

// playChecked plays one game with the given agents, checking every
// action; between the agents' actions it tries certainly illegal actions
// and arbitrary ones on copies. It returns the checker.
func playChecked(t *testing.T, r *monopoly.Rules, players int, seed uint64, kinds []string) *checker {
	t.Helper()
	g := monopoly.New(r, players, seed)
	g.Record(true)
	g.TakeEvents()
	c := newChecker(g)
	if err := checkState(g); err != nil {
		t.Fatalf("seed %d: at the start: %v", seed, err)
	}
	as := seatAgents(kinds, players, seed)
	rng := newRNG(seed)
	s := rngSrc{rng}
	for !g.Over() {
		if c.steps > maxGameSteps {
			t.Fatalf("seed %d: game not over after %d actions", seed, c.steps)
		}
		if rng.IntN(3) == 0 {
			if a, why, ok := illegalAction(s, g); ok {
				if err := c.tryIllegal(g, a, why); err != nil {
					t.Fatalf("seed %d, step %d: %v", seed, c.steps, err)
				}
			}
			if _, err := c.tryOn(g.Clone(), arbitraryAction(s, g, false)); err != nil {
				t.Fatalf("seed %d, step %d (arbitrary action on a copy): %v", seed, c.steps, err)
			}
		}
		a := decide(g, as)
		applied, err := c.try(g, a)
		if err != nil {
			t.Fatalf("seed %d, step %d: %v", seed, c.steps, err)
		}
		if !applied {
			t.Fatalf("seed %d, step %d: the agent's action %s was refused: %v", seed, c.steps, showAction(a), g.Check(a))
		}
	}
	// Once over, every action is refused with ErrGameOver.
	if err := c.tryIllegal(g, monopoly.Action{Kind: monopoly.ActContinue, Player: g.Current()}, "game over"); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return c
}

// seatMixes are the agent line-ups, repeated around the table.
var seatMixes = [][]string{
	{"random"},
	{"baseline", "random"},
	{"chaos", "baseline"},
	{"random", "chaos", "baseline"},
	{"chaos"},
}

// TestInvariants plays random, chaos and baseline games of 2 to 6 players
// under every rule variant, checking after every action that money is
// conserved and moves as the events say, that 32 houses and 12 hotels
// are conserved, that ownership, buildings, jail cards and the pending
// decision are consistent, and that illegal actions change nothing.
func TestInvariants(t *testing.T) {
	const minActions = 100_000
	total, refused, shortage, estates, rents := 0, 0, 0, 0, 0
	seen, flagged, debts := map[monopoly.EventKind]int{}, map[monopoly.EventKind]int{}, map[monopoly.Reason]int{}
	seed := uint64(0)
	for vi, v := range variants {
		r := monopolytest.Rules(t, v.yaml+"\nmax_rounds: 300")
		for game := range 10 {
			players := 2 + game%5
			seed++
			mix := seatMixes[(vi+game)%len(seatMixes)]
			name := fmt.Sprintf("%s/%dp/seed%d", v.name, players, seed)
			t.Run(name, func(t *testing.T) {
				c := playChecked(t, r, players, seed, mix)
				total += c.steps
				refused += c.refused
				shortage += c.shortage
				estates += c.estates
				rents += c.rentSeen
				for k, n := range c.events {
					seen[k] += n
				}
				for k, n := range c.flagged {
					flagged[k] += n
				}
				for k, n := range c.debts {
					debts[k] += n
				}
			})
		}
	}
	t.Logf("%d actions checked, %d refused, %d rents against the tables, %d hotel sales in a shortage, %d estates with buildings, %d games",
		total, refused, rents, shortage, estates, seen[monopoly.EvGameOver])
	if t.Failed() {
		return
	}
	if total < minActions {
		t.Errorf("only %d actions checked, want at least %d", total, minActions)
	}
	if refused < total/10 {
		t.Errorf("only %d refused actions tried for %d actions", refused, total)
	}
	// The games must reach every corner the checks are about.
	for _, k := range []monopoly.EventKind{
		monopoly.EvBuy, monopoly.EvAuctionWon, monopoly.EvAuctionUnsold, monopoly.EvRent, monopoly.EvBuild,
		monopoly.EvSellBuilding, monopoly.EvMortgage, monopoly.EvUnmortgage, monopoly.EvTradeAccepted,
		monopoly.EvTradeRejected, monopoly.EvMortgagedTransfer, monopoly.EvBankrupt, monopoly.EvPropertyTransfer,
		monopoly.EvUseJailCard, monopoly.EvGoToJail, monopoly.EvStayInJail, monopoly.EvCard, monopoly.EvSalary,
		monopoly.EvSpeedDie,
	} {
		if seen[k] == 0 {
			t.Errorf("no %s event in %d actions: the games miss part of the rules", k, total)
		}
	}
	if shortage == 0 {
		t.Errorf("no hotel sold in a housing shortage (8.2) in %d actions", total)
	}
	if estates == 0 {
		t.Errorf("no bankrupt's buildings sold for a creditor (7.9) in %d actions", total)
	}
	if flagged[monopoly.EvTradeProposed] == 0 || flagged[monopoly.EvTradeRejected] == 0 {
		t.Errorf("%d counter-offers and %d sealed deals whose limits did not meet: the games miss the deal protocols",
			flagged[monopoly.EvTradeProposed], flagged[monopoly.EvTradeRejected])
	}
	if debts[monopoly.ReasonPurchase] == 0 || debts[monopoly.ReasonAuction] == 0 {
		t.Errorf("%d purchases and %d winning bids raised for (raise_to_buy): the games miss buying on what a player could raise",
			debts[monopoly.ReasonPurchase], debts[monopoly.ReasonAuction])
	}
	if rents == 0 {
		t.Errorf("no rent checked against the tables")
	}
	if flagged[monopoly.EvSpeedDie] == 0 {
		t.Errorf("no triples on the speed die in %d actions", total)
	}
}

// TestCheckerDetects shows that the checks can fail: positions and event
// logs that break a rule are reported.
func TestCheckerDetects(t *testing.T) {
	r := monopoly.DefaultRules()
	setup := func(props []monopoly.PropertySetup, houses int) *monopoly.Game {
		s := monopoly.Setup{HouseSupply: houses, HotelSupply: -1, Seed: 1, Properties: props}
		for range 3 {
			s.Players = append(s.Players, monopoly.PlayerSetup{Cash: 1500})
		}
		g, err := monopoly.NewFromSetup(r, s)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	brown := func(h1, h3 int) []monopoly.PropertySetup {
		return []monopoly.PropertySetup{{Square: 1, Owner: 0, Houses: h1}, {Square: 3, Owner: 0, Houses: h3}}
	}
	t.Run("house supply", func(t *testing.T) {
		if err := checkState(setup(brown(1, 1), 29)); err == nil {
			t.Error("32 houses not conserved but not reported")
		}
		if err := checkState(setup(brown(1, 1), -1)); err != nil {
			t.Errorf("a sound position reported: %v", err)
		}
	})
	t.Run("uneven group", func(t *testing.T) {
		g := setup(brown(3, 1), -1)
		c := newChecker(g)
		if err := c.checkEvenBuilding(g, g, nil); err == nil {
			t.Error("3-1 on the browns not reported")
		}
		grp, _ := groupOf(r, 1)
		if err := c.checkEvenBuilding(g, g, []int{grp}); err != nil {
			t.Errorf("unevenness after a shortage sale reported: %v", err)
		}
	})
	t.Run("ledger", func(t *testing.T) {
		g := monopoly.New(r, 2, 3)
		g.Record(true)
		g.TakeEvents()
		for g.Pending().Kind != monopoly.DecisionBuy && g.Pending().Kind != monopoly.DecisionRaiseCash {
			pre := g.Clone()
			a := g.LegalActions(nil)[0]
			if err := g.Apply(a); err != nil {
				t.Fatal(err)
			}
			evs := append([]monopoly.Event(nil), g.TakeEvents()...)
			c := newChecker(g)
			if err := c.checkLedger(pre, g, a, evs); err != nil {
				t.Fatalf("true events reported: %v", err)
			}
			for i, e := range evs {
				if e.Amount == 0 {
					continue
				}
				bad := append([]monopoly.Event(nil), evs...)
				bad[i].Amount++
				if err := c.checkLedger(pre, g, a, bad); err == nil && moves(e.Kind) {
					t.Errorf("event %s with a wrong amount not reported", e.Kind)
				}
			}
		}
	})
}

// moves reports whether an event kind moves money by its Amount.
func moves(k monopoly.EventKind) bool {
	switch k {
	case monopoly.EvSalary, monopoly.EvBuy, monopoly.EvAuctionWon, monopoly.EvBuild, monopoly.EvUnmortgage,
		monopoly.EvSellBuilding, monopoly.EvMortgage, monopoly.EvRent, monopoly.EvPay:
		return true
	}
	return false
}

func groupOf(r *monopoly.Rules, sq int) (int, bool) {
	s := r.Squares[sq]
	return s.Group, s.Kind == monopoly.KindStreet
}

// checkedSetup starts a game from s, recording events, with a checker.
func checkedSetup(t *testing.T, r *monopoly.Rules, s monopoly.Setup) (*monopoly.Game, *checker) {
	t.Helper()
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	g.Record(true)
	return g, newChecker(g)
}

// TestBankruptcyWithBuildings declares bankruptcy to a player while
// holding an uneven group and a hotel: every building goes to the bank at
// half its cost, as if sold one by one, whatever the group's spread, and
// the creditor receives the proceeds (7.9). An odd house cost shows the
// rounding.
func TestBankruptcyWithBuildings(t *testing.T) {
	groups := "groups:\n"
	for _, grp := range monopoly.DefaultRules().Groups {
		cost := grp.HouseCost
		if grp.Name == "Light Blue" {
			cost = 55
		}
		groups += fmt.Sprintf("  - {name: %s, house_cost: %d}\n", grp.Name, cost)
	}
	r := monopolytest.Rules(t, groups)
	oriental, vermont, connecticut := monopolytest.Square(t, r, "Oriental Avenue"), monopolytest.Square(t, r, "Vermont Avenue"), monopolytest.Square(t, r, "Connecticut Avenue")
	mediterranean, baltic, boardwalk := monopolytest.Square(t, r, "Mediterranean Avenue"), monopolytest.Square(t, r, "Baltic Avenue"), monopolytest.Square(t, r, "Boardwalk")
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1,
		Players: []monopoly.PlayerSetup{{Cash: 10, Position: 35}, {Cash: 1500}, {Cash: 1500}},
		Properties: []monopoly.PropertySetup{
			{Square: oriental, Owner: 0, Houses: 1}, {Square: vermont, Owner: 0, Houses: 2}, {Square: connecticut, Owner: 0, Houses: 2},
			{Square: mediterranean, Owner: 0, Houses: 5}, {Square: baltic, Owner: 0, Houses: 5},
			{Square: boardwalk, Owner: 1, Houses: 5}, {Square: monopolytest.Square(t, r, "Park Place"), Owner: 1, Houses: 5}}}
	g, c := checkedSetup(t, r, s)
	g.ScriptDice([][2]int{{1, 3}}) // to Boardwalk's hotel
	for _, a := range []monopoly.Action{{Kind: monopoly.ActContinue, Player: 0}, {Kind: monopoly.ActDeclareBankruptcy, Player: 0}} {
		if applied, bad := c.try(g, a); bad != nil || !applied {
			t.Fatalf("%v: applied %v: %v", a.Kind, applied, bad)
		}
	}
	// 5 light-blue houses at 27 and 2 hotels on the browns at 5 x 25.
	if want := 1500 + 10 + 5*27 + 2*5*25; g.Cash(1) != want {
		t.Errorf("the creditor has %d, want %d", g.Cash(1), want)
	}
	if g.HouseSupply() != r.MaxHouses || g.HotelSupply() != r.MaxHotels-2 {
		t.Errorf("the bank holds %d houses and %d hotels, want %d and %d", g.HouseSupply(), g.HotelSupply(), r.MaxHouses, r.MaxHotels-2)
	}
}

// TestLargeAmounts plays amounts at the limits the rules files allow:
// the books must still close and no cash may wrap around. A case whose
// amounts the rules refuse is skipped.
func TestLargeAmounts(t *testing.T) {
	tests := []struct {
		name    string
		rules   string
		dice    [][2]int
		actions func(g *monopoly.Game) []monopoly.Action // then baseline bots play
		play    int                                      // actions of the bots
	}{
		{
			name:  "trade of the largest starting cash",
			rules: "starting_cash: 1073741824",
			actions: func(g *monopoly.Game) []monopoly.Action {
				o := monopoly.TradeOffer{To: 1, GiveCash: int64(g.Cash(0))}
				return []monopoly.Action{
					{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o},
					{Kind: monopoly.ActAcceptTrade, Player: 1},
				}
			},
		},
		{
			name:  "card paying three billion",
			rules: "decks:\n  - name: chance\n    cards: [{id: big, do: RECEIVE 3000000000}]\n  - name: community_chest\n    cards: [{id: small, do: RECEIVE 1}]",
			dice:  [][2]int{{3, 4}},
			actions: func(g *monopoly.Game) []monopoly.Action {
				return []monopoly.Action{{Kind: monopoly.ActContinue, Player: 0}}
			},
		},
		{
			// The largest salary and starting cash, in a game without a
			// round limit that nobody can lose.
			name:  "largest salary for ever",
			rules: fmt.Sprintf("go_salary: %d\nstarting_cash: %d\nmax_rounds: 0", monopoly.MaxAmount, 10*monopoly.MaxAmount),
			play:  60_000,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := monopoly.ParseRules("large.yaml", []byte(tc.rules))
			if err != nil {
				t.Skipf("the rules refuse the amount, as they may: %v", err)
			}
			g := monopoly.New(r, 2, 1)
			if tc.dice != nil {
				g.ScriptDice(tc.dice)
			}
			g.Record(true)
			g.TakeEvents()
			c := newChecker(g)
			var acts []monopoly.Action
			if tc.actions != nil {
				acts = tc.actions(g)
			}
			for _, a := range acts {
				applied, bad := c.try(g, a)
				if bad != nil {
					t.Fatal(bad)
				}
				if !applied {
					t.Fatalf("%s refused: %v", showAction(a), g.Check(a))
				}
			}
			as := seatAgents([]string{"baseline"}, 2, 1)
			for n := 0; n < tc.play && !g.Over(); n++ {
				if _, bad := c.try(g, decide(g, as)); bad != nil {
					t.Fatalf("round %d: %v", g.Round(), bad)
				}
			}
		})
	}
}

// TestRefusalMessages checks the errors of refused actions of every kind,
// valid or not (a client may send any number): each is a *RuleError whose
// message names the action and the rule, without formatting failures.
func TestRefusalMessages(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 3, 1)
	for _, k := range []monopoly.ActionKind{monopoly.ActNone, monopoly.ActBid, monopoly.ActLiftMortgage, monopoly.ActCounterTrade, monopoly.ActMove + 1, 255} {
		for _, p := range []int{0, 1, -1} {
			a := monopoly.Action{Kind: k, Player: p, Arg: 1}
			err := g.Apply(a)
			var re *monopoly.RuleError
			if !errors.As(err, &re) {
				t.Errorf("kind %d by %d: error %v is not a *RuleError", k, p, err)
				continue
			}
			if msg := err.Error(); strings.Contains(msg, "%!") || !strings.Contains(msg, "illegal") || re.Rule == "" {
				t.Errorf("kind %d by %d: message %q", k, p, msg)
			}
			if re.Code == monopoly.RefusalNone || !strings.HasPrefix(re.Rule, re.Code.Rule()) {
				t.Errorf("kind %d by %d: code %s for rule %q", k, p, re.Code, re.Rule)
			}
		}
	}
}

// TestRefusalCodes checks that every refusal has its own snake_case code,
// read back by ParseRefusal, and a rule to show people.
func TestRefusalCodes(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z]+(_[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, r := range monopoly.Refusals() {
		code := r.String()
		if !snake.MatchString(code) || seen[code] || r.Rule() == "" {
			t.Errorf("refusal %d: code %q (seen %v), rule %q", r, code, seen[code], r.Rule())
		}
		seen[code] = true
		if back, ok := monopoly.ParseRefusal(code); !ok || back != r {
			t.Errorf("ParseRefusal(%q) = %d, %v", code, back, ok)
		}
	}
	if _, ok := monopoly.ParseRefusal("no_such_code"); ok {
		t.Error("ParseRefusal accepted an unknown code")
	}
}

// TestHousingShortageSale sells a hotel with few houses in the bank
// (7.6, 8.2): the street keeps the houses the bank can supply, at most
// four, and the seller gets half the cost of each building given up.
func TestHousingShortageSale(t *testing.T) {
	for _, supply := range []int{0, 1, 2, 3, 4, 9} {
		t.Run(fmt.Sprintf("%d houses in the bank", supply), func(t *testing.T) {
			r := monopolytest.Rules(t, fmt.Sprintf("max_houses: %d", supply))
			s := monopoly.Setup{
				Players:     []monopoly.PlayerSetup{{Cash: 100}, {Cash: 100}},
				Properties:  []monopoly.PropertySetup{{Square: 1, Owner: 0, Houses: 5}, {Square: 3, Owner: 0, Houses: 5}},
				HouseSupply: -1, HotelSupply: -1,
			}
			g, c := checkedSetup(t, r, s)
			applied, bad := c.try(g, monopoly.Action{Kind: monopoly.ActSellBuilding, Player: 0, Arg: 1})
			if bad != nil || !applied {
				t.Fatalf("applied %v: %v", applied, bad)
			}
			keep := min(4, supply)
			if g.Houses(1) != keep || g.HouseSupply() != supply-keep || g.HotelSupply() != r.MaxHotels-1 {
				t.Errorf("after the sale: %d houses on the street, %d houses and %d hotels in the bank; want %d, %d, %d",
					g.Houses(1), g.HouseSupply(), g.HotelSupply(), keep, supply-keep, r.MaxHotels-1)
			}
			if want := 100 + (5-keep)*r.HouseCost(1)/2; g.Cash(0) != want {
				t.Errorf("cash %d after the sale, want %d", g.Cash(0), want)
			}
			if supply < 4 && c.shortage != 1 {
				t.Errorf("the checker saw %d shortage sales", c.shortage)
			}
			// The uneven group may be evened out again: sell the other hotel.
			if _, bad := c.try(g, monopoly.Action{Kind: monopoly.ActSellBuilding, Player: 0, Arg: 3}); bad != nil {
				t.Fatal(bad)
			}
		})
	}
}
