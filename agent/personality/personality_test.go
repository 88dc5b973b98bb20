package personality_test

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/personality"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

func seats(bots ...string) []arena.Seat {
	s := make([]arena.Seat, len(bots))
	for i, b := range bots {
		s[i] = arena.Seat{Bot: b}
	}
	return s
}

// variants are the rule sets the personalities must play legally under.
var variants = []string{
	"max_rounds: 500",
	"max_rounds: 500\ndeal_protocol: sealed",
	"max_rounds: 500\ncounter_offers: 5",
	"max_rounds: 500\ntrades_per_turn: 1\ntrades_per_phase: 1",
	"max_rounds: 500\ntrades_per_phase: 0",
	"max_rounds: 500\nauctions: false\nfree_parking_jackpot: true",
	"max_rounds: 500\nincome_tax: lesser\nmortgaged_group_double_rent: false\nmortgaged_railroads_count: false",
}

// Every answer is legal (Table.Play fails on an illegal one) and the games
// end, for every mix of personalities and rule variant, on the Decide path
// and on the Answer path.
func TestLegalGamesThatEnd(t *testing.T) {
	mixes := [][]string{
		{"shark", "professor", "hustler", "turtle"},
		{"shark", "shark", "shark", "shark"},
		{"professor", "professor", "professor", "professor"},
		{"hustler", "hustler", "hustler", "hustler"},
		{"turtle", "turtle", "turtle", "turtle"},
		{"hustler", "baseline", "turtle", "random"},
		{"shark", "turtle"},
		{"professor", "hustler", "shark", "turtle", "baseline", "professor"},
	}
	var tb arena.Table
	for vi, doc := range variants {
		r := monopolytest.Rules(t, doc)
		for mi, mix := range mixes {
			if r.TradesPerPhase == 0 && slices.Contains(mix, "baseline") {
				continue // the baseline proposes trades even when the rules allow none
			}
			capped, games := 0, 6
			for i := range games {
				res, err := tb.Play(arena.Match{Rules: r, Seats: seats(mix...), Seed: uint64(1000*vi + 10*mi + i), Words: i%2 == 0})
				if err != nil {
					t.Fatalf("%q, %v: %v", doc, mix, err)
				}
				if res.Capped {
					capped++
				}
			}
			// A game ends by bankruptcies or at the round limit. Where
			// trades are possible the four together (and mixes with
			// others) rarely reach the limit; tables of one cautious
			// personality, or games without trades, may stall there as
			// cautious human tables do.
			mirror := mix[0] == mix[1] && mix[1] == mix[len(mix)-1]
			if capped > 1 && !mirror && r.TradesPerPhase > 0 {
				t.Errorf("%q, %v: %d of %d games reached the round limit", doc, mix, capped, games)
			}
		}
	}
}

// record plays one match with words and returns every event.
func record(t *testing.T, tb *arena.Table, m arena.Match) []monopoly.Event {
	t.Helper()
	var evs []monopoly.Event
	m.Words = true
	m.Watch = func(g *monopoly.Game) { evs = append(evs, g.TakeEvents()...) }
	if _, err := tb.Play(m); err != nil {
		t.Fatal(err)
	}
	return evs
}

// The same seed plays the same game with the same words, on a fresh table
// and on one reused after other games.
func TestDeterminism(t *testing.T) {
	for _, doc := range []string{variants[0], variants[1]} {
		m := arena.Match{Rules: monopolytest.Rules(t, doc), Seats: seats("shark", "professor", "hustler", "turtle"), Seed: 77}
		var fresh, reused arena.Table
		a := record(t, &fresh, m)
		for _, s := range []uint64{3, 4} {
			other := m
			other.Seed = s
			record(t, &reused, other)
		}
		b := record(t, &reused, m)
		if len(a) != len(b) {
			t.Fatalf("%q: %d events, then %d", doc, len(a), len(b))
		}
		words := 0
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%q: event %d differs: %+v vs %+v", doc, i, a[i], b[i])
			}
			if a[i].Kind == monopoly.EvSpeech {
				words++
			}
		}
		if words < 100 {
			t.Fatalf("%q: %d speech events in a game of the four, want many", doc, words)
		}
	}
}

// dollars writes an amount as the personalities do: $1,380.
func dollars(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return "$" + s
}

func sameAction(a, b monopoly.Action) bool {
	if a.Kind != b.Kind || a.Player != b.Player || a.Arg != b.Arg || (a.Offer == nil) != (b.Offer == nil) {
		return false
	}
	return a.Offer == nil || *a.Offer == *b.Offer
}

// At every decision of many games a personality's Answer gives the action
// its twin (same seat, same seed) gives by Decide; the game goes on with
// Answer's. Along the way, the words are checked: every decision that
// matters has a thought quoting its numbers, the pitch of a proposal names
// what changes hands, and the talkative quote the price of what they buy.
func TestAnswerMatchesDecideAndWords(t *testing.T) {
	seen := map[string]map[string]bool{}
	note := func(bot, what, line string) {
		k := bot + "/" + what
		if seen[k] == nil {
			seen[k] = map[string]bool{}
		}
		seen[k][line] = true
	}
	for vi, doc := range []string{variants[0], variants[1], variants[2]} {
		r := monopolytest.Rules(t, doc)
		for i := range 12 {
			bots := []string{"shark", "professor", "hustler", "turtle"}
			n := len(bots)
			seed := arena.GameSeed(uint64(900+vi), i)
			g := monopoly.New(r, n, seed)
			talkers := make([]agent.Talker, n)
			deciders := make([]agent.Agent, n)
			for s := range n {
				bot := bots[(s+i)%n]
				a, _ := agent.New(bot, s, arena.SeatSeed(seed, s))
				b, _ := agent.New(bot, s, arena.SeatSeed(seed, s))
				talkers[s], deciders[s] = a.(agent.Talker), b
			}
			for steps := 0; !g.Over(); steps++ {
				if steps > arena.MaxDecisions {
					t.Fatal("no end")
				}
				d := g.Pending()
				v := g.View(d.Player)
				ans := talkers[d.Player].Answer(v, d)
				want := deciders[d.Player].Decide(v, d)
				if !sameAction(ans.Action, want) {
					t.Fatalf("%q game %d: %s decision %+v: Answer %+v, Decide %+v", doc, i, bots[(d.Player+i)%n], d, ans.Action, want)
				}
				bot := bots[(d.Player+i)%n]
				checkWords(t, g, bot, d, ans, note)
				if err := g.Apply(ans.Action); err != nil {
					t.Fatalf("%q game %d: %v", doc, i, err)
				}
			}
		}
	}
	// Lines vary across decisions.
	for _, bot := range []string{"shark", "professor", "hustler", "turtle"} {
		for _, what := range []string{"buy/thought", "bid/thought", "propose/speech"} {
			if n := len(seen[bot+"/"+what]); n < 5 {
				t.Errorf("%s: only %d different %s lines", bot, n, what)
			}
		}
	}
}

func checkWords(t *testing.T, g *monopoly.Game, bot string, d monopoly.Decision, ans agent.Answer, note func(bot, what, line string)) {
	t.Helper()
	r := g.Rules()
	a := ans.Action
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s, %s: %s (speech %q, thought %q)", bot, d.Kind, fmt.Sprintf(format, args...), ans.Speech, ans.Thought)
	}
	switch {
	case d.Kind == monopoly.DecisionBuy:
		price := dollars(d.Amount)
		if !strings.Contains(ans.Thought, price) {
			fail("the thought does not quote the price %s", price)
		}
		if a.Kind == monopoly.ActBuy && bot != "turtle" && !strings.Contains(ans.Speech, price) {
			fail("buying, the speech does not quote the price %s", price)
		}
		note(bot, "buy/thought", ans.Thought)
	case a.Kind == monopoly.ActBid:
		if !strings.Contains(ans.Thought, dollars(a.Arg)) {
			fail("the thought does not quote the bid %s", dollars(a.Arg))
		}
		if ans.Speech != "" && !strings.Contains(ans.Speech, dollars(a.Arg)) {
			fail("the speech does not quote the bid %s", dollars(a.Arg))
		}
		note(bot, "bid/thought", ans.Thought)
	case a.Kind == monopoly.ActProposeTrade || a.Kind == monopoly.ActCounterTrade:
		if ans.Speech == "" || ans.Thought == "" {
			fail("a proposal without a pitch or a thought")
		}
		for m := a.Offer.GiveSquares | a.Offer.GetSquares; m != 0; m &= m - 1 {
			if name := r.Squares[bits.TrailingZeros64(m)].Name; !strings.Contains(ans.Speech, name) {
				fail("the pitch does not name %s", name)
			}
		}
		sealed := r.DealProtocol == monopoly.DealsSealed
		for _, c := range []int64{a.Offer.GiveCash, a.Offer.GetCash} {
			if c > 0 && sealed && strings.Contains(ans.Speech, dollars(int(c))) {
				fail("the pitch gives away the sealed limit %s", dollars(int(c)))
			}
			if c > 0 && !sealed && !strings.Contains(ans.Speech, dollars(int(c))) {
				fail("the pitch does not quote the cash %s", dollars(int(c)))
			}
		}
		note(bot, "propose/speech", ans.Speech)
	case d.Kind == monopoly.DecisionTradeResponse:
		if ans.Speech == "" || ans.Thought == "" {
			fail("an answer to a proposal without words")
		}
	case d.Kind == monopoly.DecisionJail:
		if ans.Thought == "" {
			fail("no thought in jail")
		}
	case a.Kind == monopoly.ActBuild:
		cost := dollars(r.HouseCost(a.Arg))
		if !strings.Contains(ans.Thought, cost) {
			fail("the thought does not quote the cost %s", cost)
		}
		if bot != "turtle" && !strings.Contains(ans.Speech, r.Squares[a.Arg].Name) {
			fail("the speech does not name %s", r.Squares[a.Arg].Name)
		}
	case d.Kind == monopoly.DecisionRaiseCash && a.Kind != monopoly.ActProposeTrade:
		if !strings.Contains(ans.Thought, dollars(d.Amount)) {
			fail("the thought does not quote the debt %s", dollars(d.Amount))
		}
	}
}

// Per-seat overrides reach the personality: a Turtle allowed any price
// buys Boardwalk; by default it does not.
func TestParamsOverride(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 4, 1)
	bw, _ := g.Rules().SquareIndex("Boardwalk")
	d := monopoly.Decision{Kind: monopoly.DecisionBuy, Player: 0, Square: bw, Amount: 400}
	def, _ := agent.New("turtle", 0, 1)
	if a := def.Decide(g.View(0), d); a.Kind != monopoly.ActDecline {
		t.Fatalf("a default Turtle answers %s to Boardwalk", a.Kind)
	}
	spec := paramSpec(t, "buy_price_cap: 0")
	any, _ := agent.NewWith("turtle", spec, 0, 1)
	if a := any.Decide(g.View(0), d); a.Kind != monopoly.ActBuy {
		t.Fatalf("a Turtle without a price cap answers %s to Boardwalk", a.Kind)
	}
}

func TestRegistered(t *testing.T) {
	for _, p := range personality.Profiles() {
		b, err := agent.Lookup(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if b.Defaults != p.Defaults || b.Doc == "" {
			t.Errorf("%s: registered defaults or doc differ", p.Name)
		}
		a, _ := agent.New(p.Name, 2, 9)
		if _, ok := a.(agent.Talker); !ok {
			t.Errorf("%s is not a Talker", p.Name)
		}
		if _, ok := a.(agent.Resetter); !ok {
			t.Errorf("%s is not a Resetter", p.Name)
		}
	}
}
