package monopoly_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// dealGame starts a three-player game under doc's rules in which A owns
// Oriental Avenue and B owns Boardwalk, at A's first decision.
func dealGame(t *testing.T, doc string) (*monopoly.Game, int, int) {
	t.Helper()
	r := monopolytest.Rules(t, doc)
	oriental, boardwalk := monopolytest.Square(t, r, "Oriental Avenue"), monopolytest.Square(t, r, "Boardwalk")
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1,
		Players:    []monopoly.PlayerSetup{{Cash: 1500}, {Cash: 1500}, {Cash: 1500}},
		Properties: []monopoly.PropertySetup{{Square: oriental, Owner: 0}, {Square: boardwalk, Owner: 1}}}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	g.Record(true)
	return g, oriental, boardwalk
}

func mustApply(t *testing.T, g *monopoly.Game, a monopoly.Action) {
	t.Helper()
	if err := g.Apply(a); err != nil {
		t.Fatal(err)
	}
}

// mustRefuse applies a, which must be refused without changing the game.
func mustRefuse(t *testing.T, g *monopoly.Game, a monopoly.Action) {
	t.Helper()
	before := g.Clone()
	var re *monopoly.RuleError
	if err := g.Apply(a); !errors.As(err, &re) {
		t.Fatalf("%v: error %v, want a refusal", a.Kind, err)
	}
	if !g.SameState(before) {
		t.Fatalf("refused %v changed the game", a.Kind)
	}
}

// Only the proposer of a sealed offer knows its cash limit: not the
// target, not the third player, not a spectator, in the view or in the
// events. The cash that changes hands when it settles is public.
func TestSealedCashIsHidden(t *testing.T) {
	g, oriental, boardwalk := dealGame(t, "deal_protocol: sealed")
	o := monopoly.TradeOffer{To: 1, GiveSquares: 1 << oriental, GetSquares: 1 << boardwalk, GiveCash: 600}
	g.TakeEvents()
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o})
	if got := g.View(0).PendingOffer().GiveCash; got != 600 {
		t.Errorf("the proposer sees its limit as %d", got)
	}
	for _, viewer := range []int{1, 2} {
		if got := g.View(viewer).PendingOffer(); got.GiveCash != 0 || got.GetCash != 0 || got.GetSquares != o.GetSquares {
			t.Errorf("player %d sees %+v", viewer, got)
		}
	}
	proposed := g.TakeEvents()[0]
	if proposed.Kind != monopoly.EvTradeProposed {
		t.Fatalf("event %v", proposed.Kind)
	}
	for viewer, want := range map[int]int64{-1: 0, 0: 600, 1: 0, 2: 0} {
		if got := proposed.For(viewer, g.Rules()).Trade.GiveCash; got != want {
			t.Errorf("viewer %d sees the proposal's cash as %d, want %d", viewer, got, want)
		}
	}
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1, Arg: 400})
	var settled monopoly.Event
	for _, e := range g.TakeEvents() {
		if e.Kind == monopoly.EvTradeAccepted {
			settled = e
		}
	}
	if settled.For(2, g.Rules()).Trade.GiveCash != 500 || g.Cash(0) != 1000 || g.Cash(1) != 2000 {
		t.Errorf("settled %+v; cash %d and %d", settled.Trade, g.Cash(0), g.Cash(1))
	}
}

// Under open deals an offer is public, and a thought is its author's.
func TestEventForOpenDealsAndThoughts(t *testing.T) {
	r := monopoly.DefaultRules()
	e := monopoly.Event{Kind: monopoly.EvTradeProposed, Player: 0, Other: 1, Trade: monopoly.TradeOffer{From: 0, To: 1, GiveCash: 70}}
	if e.For(2, r).Trade.GiveCash != 70 {
		t.Error("an open offer's cash hidden")
	}
	say := monopoly.Event{Kind: monopoly.EvSpeech, Player: 1, Speech: "No.", Thought: "Too cheap."}
	if got := say.For(1, r); got.Thought != "Too cheap." || got.Speech != "No." {
		t.Errorf("the author sees %+v", got)
	}
	for _, viewer := range []int{-1, 0, 2} {
		if got := say.For(viewer, r); got.Thought != "" || got.Speech != "No." {
			t.Errorf("viewer %d sees %+v", viewer, got)
		}
	}
}

// A target cannot promise more cash than it has, and a sealed offer names
// at most one limit; refusals change nothing.
func TestSealedRefusals(t *testing.T) {
	g, oriental, boardwalk := dealGame(t, "deal_protocol: sealed")
	both := monopoly.TradeOffer{To: 1, GiveSquares: 1 << oriental, GiveCash: 10, GetCash: 10}
	mustRefuse(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &both})
	o := monopoly.TradeOffer{To: 1, GetSquares: 1 << boardwalk, GiveCash: 300}
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o})
	mustRefuse(t, g, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1, Arg: -1501})
	mustRefuse(t, g, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &monopoly.TradeOffer{To: 0, GiveCash: 5}})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1, Arg: -1500})
	// Midway between paying at most 300 and receiving at least -1500:
	// B pays 600, rounded down in B's favour.
	if g.Owner(boardwalk) != 0 || g.Cash(0) != 2100 || g.Cash(1) != 900 {
		t.Errorf("owner %d, cash %d and %d", g.Owner(boardwalk), g.Cash(0), g.Cash(1))
	}
}

// Counter-offers: none unless the rules allow them, only back to the
// other party, at most counter_offers in a negotiation, and a negotiation
// saved between two counters resumes where it was.
func TestCounterOffers(t *testing.T) {
	g, _, boardwalk := dealGame(t, "")
	o := monopoly.TradeOffer{To: 1, GetSquares: 1 << boardwalk, GiveCash: 300}
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o})
	back := monopoly.TradeOffer{To: 0, GiveSquares: 1 << boardwalk, GetCash: 500}
	mustRefuse(t, g, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &back})

	g, _, boardwalk = dealGame(t, "counter_offers: 2")
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o})
	toThird := back
	toThird.To = 2
	mustRefuse(t, g, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &toThird})
	mustRefuse(t, g, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &back})
	if d := g.Pending(); d.Kind != monopoly.DecisionTradeResponse || d.Player != 0 || g.Counterparty() != 1 || g.TradeRound() != 1 {
		t.Fatalf("after a counter: %+v, counterparty %d, round %d", d, g.Counterparty(), g.TradeRound())
	}
	h := roundTrip(t, g)
	if h.TradeRound() != 1 || h.PendingOffer() != g.PendingOffer() {
		t.Fatalf("restored negotiation: round %d, offer %+v", h.TradeRound(), h.PendingOffer())
	}
	again := monopoly.TradeOffer{To: 1, GetSquares: 1 << boardwalk, GiveCash: 400}
	mustApply(t, h, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 0, Offer: &again})
	last := monopoly.TradeOffer{To: 0, GiveSquares: 1 << boardwalk, GetCash: 450}
	mustRefuse(t, h, monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &last})
	mustApply(t, h, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1})
	if h.Owner(boardwalk) != 0 || h.Cash(0) != 1100 || h.Cash(1) != 1900 {
		t.Errorf("owner %d, cash %d and %d", h.Owner(boardwalk), h.Cash(0), h.Cash(1))
	}
}

// A fork made for look-ahead carries no more than its viewer knows: the
// target of a sealed offer cannot learn the proposer's limit by forking.
func TestForkHidesSealedLimits(t *testing.T) {
	g, oriental, boardwalk := dealGame(t, "deal_protocol: sealed")
	o := monopoly.TradeOffer{To: 1, GiveSquares: 1 << oriental, GetSquares: 1 << boardwalk, GiveCash: 600}
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &o})
	if got := g.View(1).Fork(9).PendingOffer(); got.GiveCash != 0 || got.GetSquares != o.GetSquares {
		t.Errorf("the target's fork holds %+v", got)
	}
	if got := g.View(0).Fork(9).PendingOffer(); got.GiveCash != 600 {
		t.Errorf("the proposer's fork holds %+v", got)
	}
}

// Each debtor raising cash has its own trades_per_phase proposals, even
// when several raise cash in the same phase (a card collecting from every
// player), and the counts survive a save.
func TestProposalBudgetPerDebtor(t *testing.T) {
	r := monopolytest.Rules(t, "")
	oriental, boardwalk := monopolytest.Square(t, r, "Oriental Avenue"), monopolytest.Square(t, r, "Boardwalk")
	opera := -1
	for i, c := range r.Decks[1].Cards {
		if c.ID == "grand-opera-night" {
			opera = i
		}
	}
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1,
		Players:    []monopoly.PlayerSetup{{Cash: 1500, Position: 14}, {Cash: 10}, {Cash: 10}},
		Properties: []monopoly.PropertySetup{{Square: oriental, Owner: 1}, {Square: boardwalk, Owner: 2}}}
	s.DeckTops[1] = []int{opera}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	g.ScriptDice([][2]int{{1, 2}}) // to Community Chest
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActContinue, Player: 0})
	sell := func(debtor int, sq int) monopoly.Action {
		return monopoly.Action{Kind: monopoly.ActProposeTrade, Player: debtor,
			Offer: &monopoly.TradeOffer{To: 0, GiveSquares: 1 << sq, GetCash: 400}}
	}
	for _, d := range []struct{ debtor, sq int }{{1, oriental}, {2, boardwalk}} {
		debtor, sq := d.debtor, d.sq
		if d := g.Pending(); d.Kind != monopoly.DecisionRaiseCash || d.Player != debtor {
			t.Fatalf("pending %+v, want seat %d raising cash", d, debtor)
		}
		for range r.TradesPerPhase {
			mustApply(t, g, sell(debtor, sq))
			mustApply(t, g, monopoly.Action{Kind: monopoly.ActRejectTrade, Player: 0})
		}
		if g.ProposalsLeft(debtor) != 0 || g.ProposalsLeft(2) == 0 && debtor == 1 {
			t.Fatalf("seat %d: proposals left %d, seat 2 %d", debtor, g.ProposalsLeft(debtor), g.ProposalsLeft(2))
		}
		g = roundTrip(t, g)
		mustRefuse(t, g, sell(debtor, sq))
		mustApply(t, g, monopoly.Action{Kind: monopoly.ActMortgage, Player: debtor, Arg: sq})
	}
	if g.Cash(0) != 1600 {
		t.Errorf("A collected %d, want 100", g.Cash(0)-1500)
	}
}

// A trade event is written for viewers with squares and jail cards as
// lists and a counter-offer marked, and an offer reads back as itself.
func TestTradeEventJSON(t *testing.T) {
	o := monopoly.TradeOffer{From: 1, To: 0, GiveSquares: 1<<6 | 1<<39, GetCash: 120, GetCards: 1 << 1}
	e := monopoly.Event{Kind: monopoly.EvTradeProposed, Player: 1, Other: 0, Trade: o, Flag: true}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"counter":true,"kind":"trade_proposed","other":0,"player":1,"trade":{"from":1,"to":0,"give_squares":[6,39],"get_cash":120,"get_jail_cards":[1]}}`
	if string(data) != want {
		t.Errorf("event JSON\n%s\nwant\n%s", data, want)
	}
	var back monopoly.TradeOffer
	if err := json.Unmarshal(data[bytes.Index(data, []byte(`{"from"`)):len(data)-1], &back); err != nil || back != o {
		t.Errorf("read back %+v (%v), want %+v", back, err, o)
	}
	for _, bad := range []string{`{"give_squares":[64]}`, `{"get_squares":[3,3]}`, `{"give_jail_cards":[8]}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
