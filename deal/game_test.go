package deal

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// emptyTable returns a game of cfg in which every card is back in the
// deck, player 0 to play the first play of its streak, so tests can build
// positions card by card.
func emptyTable(t *testing.T, cfg Config) *Game {
	t.Helper()
	g := New(MustRules(cfg), 7, 0)
	g.hand = [2][MaxKinds]uint8{}
	g.deckN = uint8(copy(g.deck[:], g.r.fullDeck[:g.r.total]))
	g.recount()
	return &g
}

// put moves n cards named name from the deck to player p's hand, bank or
// property area ("hand", "bank", "props").
func put(t *testing.T, g *Game, where string, p int, name string, n int) {
	t.Helper()
	k, err := g.r.ParseCard(name)
	if err != nil {
		t.Fatal(err)
	}
	for ; n > 0; n-- {
		i := slices.Index(g.deck[:g.deckN], k)
		if i < 0 {
			t.Fatalf("no %s left in the deck", name)
		}
		g.deckN--
		g.deck[i] = g.deck[g.deckN]
		g.deck[g.deckN] = 0
		switch where {
		case "hand":
			g.hand[p][k]++
		case "bank":
			g.bank[p][k]++
		case "props":
			if g.r.class[k] != ClassProperty {
				t.Fatalf("%s is not a property", name)
			}
			g.props[p][g.r.colour[k]]++
		default:
			t.Fatalf("bad place %q", where)
		}
	}
	g.recount()
}

func card(t *testing.T, g *Game, name string) Card {
	t.Helper()
	k, err := g.r.ParseCard(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustApply(t *testing.T, g *Game, s string) {
	t.Helper()
	a, err := g.r.ParseAction(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Apply(a); err != nil {
		t.Fatalf("apply %q: %v", s, err)
	}
}

// checkConservation verifies every card of the deck is in exactly one
// place and the kept totals agree with the counts.
func checkConservation(t *testing.T, g *Game) {
	t.Helper()
	r := g.r
	var n [MaxKinds]int
	for _, k := range g.deck[:g.deckN] {
		n[k]++
	}
	for p := 0; p < 2; p++ {
		hn, bn, bv, pn, sets := 0, 0, 0, 0, 0
		for k := 0; k < r.Kinds(); k++ {
			n[k] += int(g.hand[p][k]) + int(g.bank[p][k])
			hn += int(g.hand[p][k])
			bn += int(g.bank[p][k])
			bv += int(g.bank[p][k]) * r.Value(Card(k))
			if g.bank[p][k] > 0 && r.class[k] != ClassCash && r.class[k] != ClassProperty {
				t.Fatalf("%s in a bank", r.CardName(Card(k)))
			}
		}
		for c := 0; c < r.Colours(); c++ {
			n[r.propKind[c]] += int(g.props[p][c])
			pn += int(g.props[p][c])
			if g.props[p][c] >= r.setSize[c] {
				sets++
			}
		}
		if hn != int(g.handN[p]) || bn != int(g.bankN[p]) || bv != g.BankValue(p) || pn != int(g.propN[p]) || sets != int(g.sets[p]) {
			t.Fatalf("player %d totals: hand %d/%d bank %d/%d worth %d/%d props %d/%d sets %d/%d", p, hn, g.handN[p], bn, g.bankN[p], bv, g.BankValue(p), pn, g.propN[p], sets, g.sets[p])
		}
	}
	for k := 0; k < r.Kinds(); k++ {
		n[k] += int(g.discard[k])
		if n[k] != r.Copies(Card(k)) {
			t.Fatalf("%s: %d cards, want %d", r.CardName(Card(k)), n[k], r.Copies(Card(k)))
		}
	}
}

func TestSetup(t *testing.T) {
	r := MustRules(Paper())
	if r.TotalCards() != 83 {
		t.Fatalf("paper deck has %d cards, want 83", r.TotalCards())
	}
	for starter := 0; starter < 2; starter++ {
		g := New(r, 42, starter)
		if g.HandSize(starter) != 7 || g.HandSize(1-starter) != 5 || g.DeckSize() != 83-12 {
			t.Fatalf("starter %d: hands %d/%d deck %d", starter, g.HandSize(0), g.HandSize(1), g.DeckSize())
		}
		if g.Current() != starter || g.Phase() != PhasePlay || g.StreakIndex() != 0 || g.Turn() != 0 {
			t.Fatalf("bad initial turn state")
		}
		checkConservation(t, &g)
	}
}

func TestRentAmounts(t *testing.T) {
	want := map[string][]int{"brown": {0, 1, 2, 2}, "green": {0, 2, 4, 7, 7}, "pink": {0, 1, 2, 4, 4}}
	for colour, amounts := range want {
		for owned, amt := range amounts {
			g := emptyTable(t, Paper())
			put(t, g, "props", 0, "property:"+colour, owned)
			put(t, g, "hand", 0, "rent:"+colour, 1)
			put(t, g, "bank", 1, "cash:1", 10)
			if got := g.RentOwed(0, g.r.colourIndex(colour)); got != amt {
				t.Fatalf("%s with %d owned: RentOwed %d, want %d", colour, owned, got, amt)
			}
			is := g.InfoSet()
			wantIntent := AttemptCollectRent
			if owned == 0 {
				wantIntent = Other
			}
			if !is.Mask.Has(wantIntent) {
				t.Fatalf("%s with %d owned: mask %s lacks %s", colour, owned, is.Mask, wantIntent)
			}
			mustApply(t, g, "play rent:"+colour)
			if owned == 0 {
				// Discarded with no effect, but it still was a play.
				if g.Phase() != PhasePlay || g.StreakIndex() != 1 || g.Turn() != 1 || g.Discarded(card(t, g, "rent:"+colour)) != 1 {
					t.Fatalf("%s rent with none owned: phase %s streak %d turn %d", colour, g.Phase(), g.StreakIndex(), g.Turn())
				}
				continue
			}
			resp, ok := g.Response()
			if !ok || resp.Owed != amt || resp.Renter != 0 || resp.Paid != 0 || g.ToAct() != 1 {
				t.Fatalf("%s with %d owned: response %+v, %v", colour, owned, resp, ok)
			}
			for i := 0; i < amt; i++ {
				mustApply(t, g, "pay bank cash:1")
			}
			if g.Phase() != PhasePlay || g.BankValue(0) != amt || g.Turn() != 1 || g.StreakIndex() != 1 {
				t.Fatalf("%s with %d owned: after paying, phase %s bank %d turn %d", colour, owned, g.Phase(), g.BankValue(0), g.Turn())
			}
			checkConservation(t, g)
		}
	}
}

func TestPaidPropertyBecomesCash(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:green", 2)
	put(t, g, "hand", 0, "rent:green", 1)
	put(t, g, "props", 1, "property:pink", 1)
	put(t, g, "props", 1, "property:brown", 1)
	mustApply(t, g, "play rent:green") // owes 4
	is := g.InfoSet()
	if is.Player != 1 || is.Mask != 1<<GiveOpponentProperty {
		t.Fatalf("response key %v", is)
	}
	mustApply(t, g, "pay property property:pink") // worth 2
	if g.Properties(0, 2) != 0 || g.Bank(0, card(t, g, "property:pink")) != 1 || g.BankValue(0) != 2 {
		t.Fatal("paid property did not go to the renter's bank as cash")
	}
	if r, _ := g.Response(); r.Paid != 2 || r.Owed != 4 {
		t.Fatalf("response %+v", r)
	}
	mustApply(t, g, "pay property property:brown") // worth 1: 3 of 4, nothing left
	if g.Phase() != PhaseRespond || g.InfoSet().Mask != 1<<Yield {
		t.Fatalf("want a Yield-only decision, phase %s mask %s", g.Phase(), g.InfoSet().Mask)
	}
	mustApply(t, g, "yield")
	if g.CompleteSets(0) != 0 || g.Properties(0, 0) != 0 {
		t.Fatal("renter's property area changed")
	}
	// The banked property now pays rent like cash: GiveOpponentCash.
	put(t, g, "props", 1, "property:brown", 1)
	put(t, g, "hand", 1, "rent:brown", 1)
	mustApply(t, g, "pass")
	mustApply(t, g, "play rent:brown")
	is = g.InfoSet()
	if is.Player != 0 || is.Mask != 1<<GiveOpponentCash|1<<GiveOpponentProperty {
		t.Fatalf("renter's response key %v", is)
	}
	a, _ := g.Resolve(GiveOpponentCash, Greedy)
	if a.Op != OpPayBank || g.r.class[a.Card] != ClassProperty {
		t.Fatalf("GiveOpponentCash resolved to %s", g.ActionString(a))
	}
	checkConservation(t, g)
}

func TestNoChangeGiven(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:pink", 1)
	put(t, g, "hand", 0, "rent:pink", 1)
	put(t, g, "bank", 1, "cash:3", 1)
	mustApply(t, g, "play rent:pink") // owes 1
	mustApply(t, g, "pay bank cash:3")
	if g.Phase() != PhasePlay || g.BankValue(0) != 3 || g.BankValue(1) != 0 {
		t.Fatalf("overpayment: phase %s banks %d/%d", g.Phase(), g.BankValue(0), g.BankValue(1))
	}
}

func TestJustSayNo(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:green", 3)
	put(t, g, "hand", 0, "rent:green", 1)
	put(t, g, "hand", 0, "just-say-no", 1)
	put(t, g, "hand", 1, "just-say-no", 1)
	put(t, g, "bank", 1, "cash:3", 2)
	// Not on one's own turn.
	if err := g.Apply(Action{Op: OpPlay, Card: card(t, g, "just-say-no")}); err == nil {
		t.Fatal("Just Say No played on own turn")
	}
	for _, a := range g.Legal(nil) {
		if a.Op == OpPlay && a.Card == card(t, g, "just-say-no") {
			t.Fatal("Just Say No listed as legal on own turn")
		}
	}
	mustApply(t, g, "play rent:green") // owes 7
	is := g.InfoSet()
	if is.Mask != 1<<JustSayNo|1<<GiveOpponentCash {
		t.Fatalf("mask %s", is.Mask)
	}
	mustApply(t, g, "pay bank cash:3")
	mustApply(t, g, "just say no")
	if g.Phase() != PhasePlay || g.BankValue(1) != 3 || g.BankValue(0) != 3 || g.Turn() != 1 || g.StreakIndex() != 1 {
		t.Fatalf("after Just Say No: phase %s banks %d/%d turn %d", g.Phase(), g.BankValue(0), g.BankValue(1), g.Turn())
	}
	if g.Discarded(card(t, g, "just-say-no")) != 1 || g.Hand(1, card(t, g, "just-say-no")) != 0 {
		t.Fatal("Just Say No not discarded")
	}
	// No Just-Say-No-back: the renter has one but there is no decision for it.
	if g.ToAct() != 0 || g.InfoSet().Mask.Has(JustSayNo) {
		t.Fatal("renter may answer a Just Say No")
	}
	checkConservation(t, g)
}

func TestYieldOnlyWhenNothingPayable(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:brown", 2)
	put(t, g, "hand", 0, "rent:brown", 1)
	put(t, g, "bank", 1, "cash:1", 1)
	mustApply(t, g, "play rent:brown") // owes 2
	if err := g.Apply(Action{Op: OpYield}); err == nil {
		t.Fatal("yield allowed with cash in the bank")
	}
	mustApply(t, g, "pay bank cash:1")
	if g.Phase() != PhaseRespond {
		t.Fatal("exchange ended before paying in full")
	}
	if l := g.Legal(nil); len(l) != 1 || l[0].Op != OpYield {
		t.Fatalf("legal %v", l)
	}
	mustApply(t, g, "yield")
	if g.Phase() != PhasePlay || g.Current() != 0 || g.StreakIndex() != 1 || g.BankValue(0) != 1 {
		t.Fatal("yield did not settle for what was paid")
	}
	// With nothing at all, Yield is the only response from the start.
	put(t, g, "hand", 0, "rent:brown", 1)
	mustApply(t, g, "play rent:brown")
	if is := g.InfoSet(); is.Mask != 1<<Yield || is.Streak != 1 {
		t.Fatalf("key %v", is)
	}
	mustApply(t, g, "yield")
	if g.Current() != 1 || g.StreakIndex() != 0 {
		t.Fatal("second play did not end the streak")
	}
}

func TestWinMidStreak(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:brown", 2)
	put(t, g, "props", 0, "property:green", 2)
	put(t, g, "hand", 0, "property:green", 1)
	put(t, g, "hand", 0, "cash:1", 1)
	if is := g.InfoSet(); !is.Mask.Has(CompletePropertySet) {
		t.Fatalf("mask %s", is.Mask)
	}
	mustApply(t, g, "play property:green")
	res := g.Result()
	if !g.Over() || res.End != EndWin || res.Winner != 0 || g.StreakIndex() != 0 {
		t.Fatalf("result %+v over %v", res, g.Over())
	}
	if err := g.Apply(Action{Op: OpPass}); err != ErrGameOver {
		t.Fatalf("apply after the end: %v", err)
	}
	if res.Score(0) != 1 || res.Score(1) != 0 || res.Utility(1) != -1 {
		t.Fatal("scores")
	}
}

func TestDraws(t *testing.T) {
	// Deck and both hands empty.
	g := emptyTable(t, Tiny())
	put(t, g, "hand", 0, "cash:1", 1)
	for g.deckN > 0 {
		put(t, g, "bank", 1, g.r.CardName(g.deck[0]), 1)
	}
	mustApply(t, g, "play cash:1")
	if r := g.Result(); !g.Over() || r.End != EndEmpty || r.Score(0) != 0.5 {
		t.Fatalf("empty: %+v", r)
	}
	// Turn cap.
	g = emptyTable(t, Paper())
	put(t, g, "hand", 0, "cash:1", 1)
	g.turn = uint16(g.r.MaxTurns() - 1)
	mustApply(t, g, "pass")
	if r := g.Result(); r.End != EndCap || g.Turn() != g.r.MaxTurns() {
		t.Fatalf("cap: %+v turn %d", r, g.Turn())
	}
}

func TestStreaks(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "hand", 0, "cash:1", 3)
	put(t, g, "hand", 1, "cash:3", 1)
	mustApply(t, g, "play cash:1")
	if g.Current() != 0 || g.StreakIndex() != 1 {
		t.Fatal("streak ended after one play")
	}
	deck := g.DeckSize()
	mustApply(t, g, "play cash:1")
	if g.Current() != 1 || g.StreakIndex() != 0 || g.HandSize(1) != 3 || g.DeckSize() != deck-2 || g.Turn() != 2 {
		t.Fatalf("after two plays: current %d hand %d deck %d", g.Current(), g.HandSize(1), g.DeckSize())
	}
	mustApply(t, g, "pass") // ends the streak at once
	if g.Current() != 0 || g.Turn() != 3 || g.HandSize(0) != 3 {
		t.Fatalf("after pass: current %d hand %d", g.Current(), g.HandSize(0))
	}
	// An empty hand draws the initial hand size.
	g = emptyTable(t, Paper())
	put(t, g, "hand", 0, "cash:1", 1)
	mustApply(t, g, "pass")
	if g.HandSize(1) != 5 {
		t.Fatalf("empty hand drew %d", g.HandSize(1))
	}
}

func TestIntentAbstraction(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:brown", 2) // complete
	put(t, g, "props", 0, "property:green", 1)
	put(t, g, "hand", 0, "property:brown", 1)
	put(t, g, "hand", 0, "property:green", 1)
	put(t, g, "hand", 0, "property:pink", 1)
	put(t, g, "hand", 0, "rent:pink", 1)
	put(t, g, "hand", 0, "just-say-no", 1)
	is := g.InfoSet()
	want := Mask(1<<Cash | 1<<AddToPropertySet | 1<<StartNewPropertySet | 1<<Other | 1<<Pass)
	if is.Mask != want {
		t.Fatalf("mask %s, want %s", is.Mask, want)
	}
	// Reference quirk: a property of a complete colour is Cash but still
	// goes to the property area.
	a, _ := g.Resolve(Cash, Greedy)
	if a != (Action{Op: OpPlay, Card: card(t, g, "property:brown")}) {
		t.Fatalf("Cash resolved to %s", g.ActionString(a))
	}
	mustApply(t, g, "play property:brown")
	if g.Properties(0, 0) != 3 || g.BankValue(0) != 0 || g.CompleteSets(0) != 1 {
		t.Fatal("quirk property did not go to the property area")
	}
	// Cash takes the highest value: cash:3 over a complete-colour brown (1).
	put(t, g, "hand", 0, "cash:3", 1)
	put(t, g, "hand", 0, "cash:1", 1)
	if a, _ := g.Resolve(Cash, Greedy); a.Card != card(t, g, "cash:3") {
		t.Fatalf("Cash resolved to %s", g.ActionString(a))
	}
}

func TestResolverRentAndPayments(t *testing.T) {
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:brown", 2) // rent 2
	put(t, g, "props", 0, "property:green", 1) // rent 2
	put(t, g, "props", 0, "property:pink", 3)  // rent 4
	put(t, g, "hand", 0, "rent:brown", 1)
	put(t, g, "hand", 0, "rent:green", 1)
	put(t, g, "hand", 0, "rent:pink", 1)
	a, _ := g.Resolve(AttemptCollectRent, Greedy)
	if a.Card != card(t, g, "rent:pink") {
		t.Fatalf("rent resolved to %s", g.ActionString(a))
	}
	put(t, g, "bank", 1, "cash:1", 1)
	put(t, g, "bank", 1, "cash:3", 2)
	put(t, g, "bank", 1, "property:green", 1) // banked, worth 4
	mustApply(t, g, "play rent:brown")        // owes 2
	if a, _ := g.Resolve(GiveOpponentCash, Greedy); a != (Action{Op: OpPayBank, Card: card(t, g, "property:green")}) {
		t.Fatalf("greedy payment %s", g.ActionString(a))
	}
	if a, _ := g.Resolve(GiveOpponentCash, Smart); a != (Action{Op: OpPayBank, Card: card(t, g, "cash:3")}) {
		t.Fatalf("smart payment %s", g.ActionString(a))
	}
	if _, ok := g.Resolve(Pass, Greedy); ok {
		t.Fatal("Pass resolved during a response")
	}
}

// randomGames plays n random games of cfg, calling check after every
// action with the action list so far.
func randomGames(t *testing.T, cfg Config, n int, check func(g *Game, acts []Action)) {
	t.Helper()
	r := MustRules(cfg)
	var legal []Action
	for i := 0; i < n; i++ {
		g := New(r, uint64(i), i&1)
		rng := rand.NewPCG(uint64(i), 99)
		var acts []Action
		for !g.Over() {
			legal = g.Legal(legal[:0])
			a := legal[intn(rng, len(legal))]
			if err := g.Apply(a); err != nil {
				t.Fatal(err)
			}
			acts = append(acts, a)
			check(&g, acts)
		}
	}
}

func TestInvariantsRandomGames(t *testing.T) {
	for _, cfg := range []Config{Paper(), Small(), Tiny()} {
		randomGames(t, cfg, 300, func(g *Game, _ []Action) {
			checkConservation(t, g)
			if g.Over() {
				if r := g.Result(); r.End == EndWin && g.CompleteSets(r.Winner) < int(g.r.required) {
					t.Fatal("winner without the sets")
				}
				return
			}
			// The key and the resolver agree with the concrete legal actions.
			legal := g.Legal(nil)
			var m Mask
			for _, a := range legal {
				m |= 1 << g.AbstractOf(a)
			}
			is := g.InfoSet()
			if is.Mask != m || maskIndex[m] < 0 || int(is.Player) != g.ToAct() || int(is.Streak) != g.StreakIndex() {
				t.Fatalf("key %v, legal intents %s", is, m)
			}
			for _, res := range []Resolver{Greedy, Smart} {
				for ab := Abstract(0); ab < NumAbstract; ab++ {
					a, ok := g.Resolve(ab, res)
					if ok != m.Has(ab) || (ok && (!slices.Contains(legal, a) || g.AbstractOf(a) != ab)) {
						t.Fatalf("%s resolves %s to %s (%v) with legal intents %s", res, ab, g.ActionString(a), ok, m)
					}
				}
			}
			// An illegal action is refused and changes nothing.
			before := *g
			for _, a := range []Action{{Op: OpYield}, {Op: OpPlay, Card: g.r.jsn}, {Op: OpPayBank, Card: 0}, {Op: OpNone}} {
				if !slices.Contains(legal, a) {
					if err := g.Apply(a); err == nil {
						t.Fatalf("illegal %s accepted", g.ActionString(a))
					}
					if *g != before {
						t.Fatal("illegal action changed the game")
					}
				}
			}
		})
	}
}

func TestDeterminismCloneReplay(t *testing.T) {
	r := MustRules(Paper())
	seats := [2]Seat{{Agent: Random{}}, {Agent: DefaultRiskAware()}}
	for i := uint64(0); i < 50; i++ {
		a := New(r, i, int(i&1))
		b := New(r, i, int(i&1))
		if a != b {
			t.Fatal("same seed, different games")
		}
		// Fork half-way: both branches play on identically.
		rng := rand.NewPCG(i, 5)
		for k := 0; k < 7 && !a.Over(); k++ {
			is := a.InfoSet()
			act, _ := a.Resolve(seats[is.Player].Agent.Choose(is, rng), Greedy)
			a.apply(act)
		}
		fork := a.Clone()
		r1, r2 := *rng, *rng
		ra := PlayOut(&a, &seats, &r1)
		rb := PlayOut(&fork, &seats, &r2)
		if ra != rb || a != fork {
			t.Fatal("clone diverged")
		}
	}
	// Replaying the action list reproduces the game exactly.
	randomGames(t, Paper(), 50, func(g *Game, acts []Action) {
		if !g.Over() {
			return
		}
		rec := Record{Config: g.r.Config(), Seed: g.seed, Starter: g.Starter()}
		for _, a := range acts {
			rec.Actions = append(rec.Actions, g.ActionString(a))
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var back Record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		checkReplays(t, back, g)
	})
}

// checkReplays checks that rec replays to exactly g.
func checkReplays(t *testing.T, rec Record, g *Game) {
	t.Helper()
	h, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	h.r = g.r
	if h != *g {
		t.Fatal("replay differs")
	}
}

func TestJSONRoundTrip(t *testing.T) {
	sawRespond := false
	randomGames(t, Paper(), 30, func(g *Game, acts []Action) {
		if len(acts)%5 != 0 && g.Phase() != PhaseRespond && !g.Over() {
			return
		}
		sawRespond = sawRespond || g.Phase() == PhaseRespond
		data, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		var back Game
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		back.r = g.r
		if back != *g {
			t.Fatalf("round trip differs:\n%s", data)
		}
	})
	if !sawRespond {
		t.Fatal("no rent exchange was saved")
	}
	// Saved mid-exchange, the game resumes and plays on identically.
	g := emptyTable(t, Paper())
	put(t, g, "props", 0, "property:green", 3)
	put(t, g, "hand", 0, "rent:green", 1)
	put(t, g, "bank", 1, "cash:3", 3)
	mustApply(t, g, "play rent:green")
	mustApply(t, g, "pay bank cash:3")
	data, _ := json.Marshal(g)
	if !strings.Contains(string(data), `"owed":7`) || !strings.Contains(string(data), `"paid":3`) {
		t.Fatalf("response not explicit:\n%s", data)
	}
	var back Game
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	seats := [2]Seat{{Agent: Random{}}, {Agent: Random{}}}
	r1, r2 := rand.NewPCG(1, 2), rand.NewPCG(1, 2)
	if PlayOut(g, &seats, r1) != PlayOut(&back, &seats, r2) || back.Turn() != g.Turn() {
		t.Fatal("resumed game diverged")
	}
}

func TestJSONErrorsNameTheField(t *testing.T) {
	g := New(MustRules(Paper()), 3, 0)
	data, _ := json.Marshal(&g)
	cases := map[string]string{
		`"phase":"play"`:    `"phase":"dance"`,
		`"current":0`:       `"current":5`,
		`"streak_index":0,`: `"streak_index":9,`,
		`"seed":3,`:         `"seed":3,"discard":{"cash:1":1},`,
	}
	wantField := map[string]string{
		`"phase":"play"`:    "phase",
		`"current":0`:       "current",
		`"streak_index":0,`: "streak_index",
		`"seed":3,`:         "discard",
	}
	for from, to := range cases {
		bad := strings.Replace(string(data), from, to, 1)
		if bad == string(data) {
			t.Fatalf("pattern %q not found in\n%s", from, data)
		}
		var back Game
		err := json.Unmarshal([]byte(bad), &back)
		if err == nil || !strings.Contains(err.Error(), "field "+wantField[from]) {
			t.Fatalf("%s: error %v does not name the field", to, err)
		}
	}
}

func TestViewHidesOpponent(t *testing.T) {
	r := MustRules(Paper())
	for seed := uint64(0); seed < 20; seed++ {
		g := New(r, seed, 0)
		h := g.Clone()
		// Swap player 1's hand with other unseen cards: player 0 cannot tell.
		h.ResampleHidden(0)
		h.Reseed(seed + 1000)
		v0, w0 := g.View(0), h.View(0)
		if v0 != w0 {
			t.Fatal("view of player 0 depends on the opponent's hand or the deck")
		}
		if got, want := v0.Legal(nil), g.Legal(nil); !slices.Equal(got, want) || v0.InfoSet() != g.InfoSet() {
			t.Fatal("view's legal actions differ from the game's")
		}
		for k := Card(0); int(k) < r.Kinds(); k++ {
			if v0.Unseen(k) != g.Deck(k)+g.Hand(1, k) {
				t.Fatalf("unseen %s", r.CardName(k))
			}
		}
		if v1 := g.View(1); v1.Legal(nil) != nil {
			t.Fatal("player 1 has legal actions out of turn")
		}
	}
}

func TestInfoSetKeys(t *testing.T) {
	n := 0
	for m := 0; m < 1<<NumAbstract; m++ {
		if maskIndex[m] >= 0 {
			n++
			for p := uint8(0); p < 2; p++ {
				is := InfoSet{Player: p, Streak: 1, Mask: Mask(m)}
				back, err := ParseInfoSet(is.String())
				if err != nil || back != is {
					t.Fatalf("%s: %v %v", is, back, err)
				}
			}
		}
	}
	if n*2*2 != 288 {
		t.Fatalf("%d action sets, want 72 (288 keys)", n)
	}
	for _, bad := range []string{"2@IntentStateAbstraction@0:Pass", "0@Other@0:Pass", "0@IntentStateAbstraction@0:Cash", "0@IntentStateAbstraction@0:Pass,Fly"} {
		if _, err := ParseInfoSet(bad); err == nil {
			t.Fatalf("%s accepted", bad)
		}
	}
}

// Every action has a label of its own for people, and the answers to
// rent are exactly those a responder can take.
func TestAbstractLabels(t *testing.T) {
	seen := map[string]bool{}
	for a := Abstract(0); a < NumAbstract; a++ {
		l := a.Label()
		if l == "" || seen[l] || l == a.String() {
			t.Errorf("%s: label %q", a, l)
		}
		seen[l] = true
	}
	var replies []Abstract
	for a := Abstract(0); a < NumAbstract; a++ {
		if a.IsReply() {
			replies = append(replies, a)
		}
	}
	if want := []Abstract{JustSayNo, GiveOpponentCash, GiveOpponentProperty, Yield}; !slices.Equal(replies, want) {
		t.Errorf("replies %v, want %v", replies, want)
	}
}

func TestNoAllocationsPerGame(t *testing.T) {
	r := MustRules(Paper())
	seats := [2]Seat{{Agent: Random{}}, {Agent: DefaultRiskAware()}}
	var g Game
	var rng rand.PCG
	i := uint64(0)
	allocs := testing.AllocsPerRun(200, func() {
		g.Reset(r, i, int(i&1))
		rng.Seed(i, 1)
		PlayOut(&g, &seats, &rng)
		i++
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per game", allocs)
	}
}
