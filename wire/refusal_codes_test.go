package wire_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
	"github.com/gopoly/gopoly/wire"
)

// TestGoldenRefusalCodes shows that every refusal code of the engine is
// reachable: for each, a position built by a setup and legal play (for
// one code, which play cannot reach, an edited saved game), and an action
// the engine refuses there with exactly that code. The
// refusals, as the refused seat receives them, are pinned in
// testdata/refusal_codes.json. A code with no case fails the test, so a
// refusal added to the engine needs a case here, and a fixture entry.
func TestGoldenRefusalCodes(t *testing.T) {
	r := monopoly.DefaultRules() // the overrides below keep its board
	at := func(name string) int { return monopolytest.Square(t, r, name) }
	squares := func(names ...string) uint64 {
		var m uint64
		for _, n := range names {
			m |= 1 << at(n)
		}
		return m
	}
	on := func(k monopoly.ActionKind, name string) monopoly.Action {
		return monopoly.Action{Kind: k, Arg: at(name)}
	}
	by := func(p int, k monopoly.ActionKind) monopoly.Action { return monopoly.Action{Kind: k, Player: p} }
	propose := func(o monopoly.TradeOffer) monopoly.Action {
		return monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: &o}
	}
	counter := func(o monopoly.TradeOffer) monopoly.Action {
		return monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &o}
	}
	chance, ok := r.JailCardBit(deckOf("chance"))
	if !ok {
		t.Fatal("the chance deck has no Get Out of Jail Free card")
	}
	gift := monopoly.TradeOffer{To: 1, GiveSquares: squares("Oriental Avenue")}
	// Most codes are refused at player 0's first decision in the estate;
	// the others in positions played on from a setup, under rules that
	// make the code possible where the default rules do not.
	estate := refusalEstate(t, "")
	sealed := refusalEstate(t, "deal_protocol: sealed")
	dry := refusalEstate(t, "")
	dry.ScriptDice(nil) // the dice script has run out before the roll
	offered := mustPlay(t, refusalEstate(t, ""), propose(gift))
	countered := mustPlay(t, refusalEstate(t, "counter_offers: 3"), propose(gift))
	sealedOffer := mustPlay(t, refusalEstate(t, "deal_protocol: sealed"),
		propose(monopoly.TradeOffer{To: 1, GetSquares: squares("Tennessee Avenue"), GiveCash: 40}))
	phaseUsed := mustPlay(t, refusalEstate(t, ""), propose(gift), by(1, monopoly.ActRejectTrade),
		propose(gift), by(1, monopoly.ActRejectTrade))
	// One proposal of the phase's two is left, but none of the turn's one.
	turnUsed := mustPlay(t, refusalEstate(t, "trades_per_turn: 1"), propose(gift), by(1, monopoly.ActRejectTrade))
	// Tennessee Avenue comes mortgaged: player 0 must keep it so or pay
	// $99 to lift the mortgage, which its $50 does not cover.
	received := mustPlay(t, refusalEstate(t, ""),
		propose(monopoly.TradeOffer{To: 1, GetSquares: squares("Tennessee Avenue")}), by(1, monopoly.ActAcceptTrade))
	// Eight houses stand on the Dark Blues and the bank was given eight
	// houses and no hotels: the Greens get no house, the Dark Blues no hotel.
	short := monopolytest.Position(t, monopolytest.Rules(t, "max_houses: 8\nmax_hotels: 0"), 0, []int{1500, 1500},
		monopolytest.Owned{Name: "Park Place", Houses: 4},
		monopolytest.Owned{Name: "Boardwalk", Houses: 4},
		monopolytest.Owned{Name: "Pacific Avenue"},
		monopolytest.Owned{Name: "North Carolina Avenue"},
		monopolytest.Owned{Name: "Pennsylvania Avenue"})
	jail := mustPlay(t, refusalJail(t, 10), by(0, monopoly.ActContinue))
	// 1+2 from GO is Baltic Avenue, $60, unowned; 1+3 is the $200 Income
	// Tax. With $50 the engine declines Baltic Avenue for player 0, which
	// could not pay (7.4), and puts it up for auction.
	bidding := refusalLanding(t, 50, [2]int{1, 2})
	// So no play asks a player to buy what it cannot pay for. A saved game
	// can: one with $60 at the question, edited so that $10 of it went to
	// player 1, is a position UnmarshalGame accepts.
	buying := refusalEdit(t, refusalLanding(t, 60, [2]int{1, 2}), func(state map[string]any) {
		players := state["players"].([]any)
		players[0].(map[string]any)["Cash"] = 50
		players[1].(map[string]any)["Cash"] = 1510
	})
	owing := refusalLanding(t, 10, [2]int{1, 3}, monopolytest.Owned{Name: "Boardwalk"})
	over := mustPlay(t, refusalLanding(t, 10, [2]int{1, 3}), by(0, monopoly.ActDeclareBankruptcy))
	// The speed die's Bus on 1+2 from GO: Mediterranean Avenue, Baltic
	// Avenue or Oriental Avenue, nowhere else.
	bus := refusalSpeedDie(t, [2]int{1, 2}, monopoly.SpeedBus)

	tests := []struct {
		name string
		want monopoly.Refusal
		g    *monopoly.Game
		a    monopoly.Action
	}{
		{"play after a bankruptcy ends the game", monopoly.RefusalGameOver, over, by(1, monopoly.ActContinue)},
		{"roll with the dice script spent", monopoly.RefusalNoDice, dry, by(0, monopoly.ActContinue)},
		{"move on another's decision", monopoly.RefusalNotYourDecision, estate, by(1, monopoly.ActContinue)},
		{"buy while managing", monopoly.RefusalNotAnAnswer, estate, by(0, monopoly.ActBuy)},
		{"build off the board", monopoly.RefusalNoSuchSquare, estate, monopoly.Action{Kind: monopoly.ActBuild, Arg: len(r.Squares)}},
		{"propose without an offer", monopoly.RefusalNoOffer, estate, by(0, monopoly.ActProposeTrade)},
		{"go bankrupt owning Boardwalk", monopoly.RefusalBankruptcyAvoidable, owing, by(0, monopoly.ActDeclareBankruptcy)},
		{"pay the fine with $10", monopoly.RefusalFineCash, jail, by(0, monopoly.ActPayJailFine)},
		{"use a jail card not held", monopoly.RefusalNoJailCard, jail, monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: -1}},
		{"buy Baltic Avenue with $50", monopoly.RefusalInsufficientCash, buying, by(0, monopoly.ActBuy)},
		{"bid nothing", monopoly.RefusalBidTooLow, bidding, monopoly.Action{Kind: monopoly.ActBid, Arg: 0}},
		{"bid $51 with $50", monopoly.RefusalBidAboveCash, bidding, monopoly.Action{Kind: monopoly.ActBid, Arg: 51}},
		{"lift a received mortgage with $50", monopoly.RefusalLiftCash, received, by(0, monopoly.ActLiftMortgage)},
		{"promise more than the cash", monopoly.RefusalSealedLimitCash, sealedOffer,
			monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1, Arg: -1501}},
		{"counter where the rules allow none", monopoly.RefusalNoCounterOffer, offered, counter(monopoly.TradeOffer{To: 0, GetCash: 10})},
		{"counter to a third player", monopoly.RefusalCounterToProposer, countered, counter(monopoly.TradeOffer{To: 2, GetCash: 10})},
		{"build on a railroad", monopoly.RefusalNotAStreet, estate, on(monopoly.ActBuild, "Reading Railroad")},
		{"build on another's street", monopoly.RefusalNotOwner, estate, on(monopoly.ActBuild, "Tennessee Avenue")},
		{"build without the group", monopoly.RefusalGroupIncomplete, estate, on(monopoly.ActBuild, "Oriental Avenue")},
		{"build beside a mortgage", monopoly.RefusalGroupMortgaged, estate, on(monopoly.ActBuild, "States Avenue")},
		{"build on a hotel", monopoly.RefusalHasHotel, estate, on(monopoly.ActBuild, "Boardwalk")},
		{"build a third house beside one", monopoly.RefusalUnevenBuilding, estate, on(monopoly.ActBuild, "Baltic Avenue")},
		{"build a hotel the bank lacks", monopoly.RefusalNoHotelsLeft, short, on(monopoly.ActBuild, "Boardwalk")},
		{"build a house the bank lacks", monopoly.RefusalNoHousesLeft, short, on(monopoly.ActBuild, "Pacific Avenue")},
		{"build a $200 house with $50", monopoly.RefusalBuildCash, estate, on(monopoly.ActBuild, "Pacific Avenue")},
		{"sell from a bare street", monopoly.RefusalNoBuildings, estate, on(monopoly.ActSellBuilding, "Oriental Avenue")},
		{"sell the one house beside two", monopoly.RefusalUnevenSale, estate, on(monopoly.ActSellBuilding, "Mediterranean Avenue")},
		{"mortgage twice", monopoly.RefusalAlreadyMortgaged, estate, on(monopoly.ActMortgage, "St. Charles Place")},
		{"mortgage a built street", monopoly.RefusalSellBuildingsFirst, estate, on(monopoly.ActMortgage, "Mediterranean Avenue")},
		{"lift no mortgage", monopoly.RefusalNotMortgaged, estate, on(monopoly.ActUnmortgage, "Oriental Avenue")},
		{"lift a $77 mortgage with $50", monopoly.RefusalUnmortgageCash, estate, on(monopoly.ActUnmortgage, "St. Charles Place")},
		{"trade with oneself", monopoly.RefusalNoSuchPlayer, estate, propose(monopoly.TradeOffer{To: 0, GiveCash: 10})},
		{"give and get a square", monopoly.RefusalSquareBothSides, estate,
			propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Oriental Avenue"), GetSquares: squares("Oriental Avenue")})},
		{"give another's square", monopoly.RefusalOfferNotOwned, estate, propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Tennessee Avenue")})},
		{"ask for the bank's square", monopoly.RefusalAskNotOwned, estate, propose(monopoly.TradeOffer{To: 1, GetSquares: squares("Kentucky Avenue")})},
		{"give a built group's street", monopoly.RefusalTradeBuildings, estate, propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Baltic Avenue")})},
		{"give negative cash", monopoly.RefusalNegativeCash, estate, propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Oriental Avenue"), GiveCash: -10})},
		{"give $51 with $50", monopoly.RefusalOfferCash, estate, propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Oriental Avenue"), GiveCash: 51})},
		{"ask $1501 of $1500", monopoly.RefusalAskCash, estate, propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Oriental Avenue"), GetCash: 1501})},
		{"give a jail card not held", monopoly.RefusalOfferJailCard, estate, propose(monopoly.TradeOffer{To: 1, GiveCards: chance})},
		{"ask a jail card not held", monopoly.RefusalAskJailCard, estate, propose(monopoly.TradeOffer{To: 1, GetCards: chance})},
		// Equal cash both ways cancels out: nothing changes hands.
		{"swap $10 for $10", monopoly.RefusalEmptyTrade, estate, propose(monopoly.TradeOffer{To: 1, GiveCash: 10, GetCash: 10})},
		{"name both sealed limits", monopoly.RefusalSealedBothLimits, sealed,
			propose(monopoly.TradeOffer{To: 1, GiveSquares: squares("Oriental Avenue"), GiveCash: 10, GetCash: 5})},
		{"seal a cash-only deal", monopoly.RefusalSealedNoProperty, sealed, propose(monopoly.TradeOffer{To: 1, GiveCash: 10})},
		{"propose a third time in a phase", monopoly.RefusalPhaseProposals, phaseUsed, propose(gift)},
		{"propose twice in a one-trade turn", monopoly.RefusalTurnProposals, turnUsed, propose(gift)},
		{"ride the Bus to Boardwalk on 1+2", monopoly.RefusalUnreachableSquare, bus, on(monopoly.ActMove, "Boardwalk")},
	}
	covered := make(map[monopoly.Refusal]bool)
	var cases []refusalFixture
	for _, tc := range tests {
		covered[tc.want] = true
		err := tc.g.View(tc.a.Player).Check(tc.a)
		if got, ok := refusalOf(err); !ok || got != tc.want {
			t.Errorf("%s: refused with %s (error %v), want %s", tc.name, got, err, tc.want)
			continue
		}
		cases = append(cases, refusalFixture{tc.name, wire.NewRefusal(err, tc.g.View(tc.a.Player))})
	}
	for _, c := range monopoly.Refusals() {
		if !covered[c] {
			t.Errorf("refusal %s has no case", c)
		}
	}
	// A fixture missing a case would be no proof: -update writes only a
	// complete one.
	if !t.Failed() {
		golden(t, "refusal_codes.json", cases)
	}
}

// refusalOf returns the refusal err reports. Check reports the game's
// end and spent dice with the sentinel errors callers test for, rather
// than a *monopoly.RuleError, so they are mapped back to their codes.
func refusalOf(err error) (monopoly.Refusal, bool) {
	var re *monopoly.RuleError
	switch {
	case errors.As(err, &re):
		return re.Code, true
	case errors.Is(err, monopoly.ErrGameOver):
		return monopoly.RefusalGameOver, true
	case errors.Is(err, monopoly.ErrNoDice):
		return monopoly.RefusalNoDice, true
	}
	return monopoly.RefusalNone, false
}

// refusalEstate starts a three-player game under the rules doc, at
// player 0's first decision, with holdings that break each building,
// mortgage and trade rule in some way. Player 0 has $50 and owns a
// complete Brown group built unevenly (one house and two), Dark Blue
// hotels, the bare Greens, the Pinks with St. Charles Place mortgaged,
// Oriental Avenue alone and Reading Railroad; player 1 owns Tennessee
// Avenue, mortgaged.
func refusalEstate(t *testing.T, doc string) *monopoly.Game {
	t.Helper()
	return monopolytest.Position(t, monopolytest.Rules(t, doc), 0, []int{50, 1500, 1500},
		monopolytest.Owned{Name: "Mediterranean Avenue", Houses: 1},
		monopolytest.Owned{Name: "Baltic Avenue", Houses: 2},
		monopolytest.Owned{Name: "Oriental Avenue"},
		monopolytest.Owned{Name: "Reading Railroad"},
		monopolytest.Owned{Name: "St. Charles Place", Mortgaged: true},
		monopolytest.Owned{Name: "States Avenue"},
		monopolytest.Owned{Name: "Virginia Avenue"},
		monopolytest.Owned{Name: "Pacific Avenue"},
		monopolytest.Owned{Name: "North Carolina Avenue"},
		monopolytest.Owned{Name: "Pennsylvania Avenue"},
		monopolytest.Owned{Name: "Park Place", Houses: 5},
		monopolytest.Owned{Name: "Boardwalk", Houses: 5},
		monopolytest.Owned{Name: "Tennessee Avenue", Owner: 1, Mortgaged: true})
}

// refusalJail starts a two-player game at the turn of player 0, in jail
// with cash and no Get Out of Jail Free card.
func refusalJail(t *testing.T, cash int) *monopoly.Game {
	t.Helper()
	r := monopoly.DefaultRules()
	g, err := monopoly.NewFromSetup(r, monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1,
		Players: []monopoly.PlayerSetup{{Cash: cash, Position: r.JailSquare, InJail: true}, {Cash: 1500}}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// refusalLanding starts a two-player game in which player 0, with cash
// and props, rolls dice from GO, and returns it at the decision the
// landing asks.
func refusalLanding(t *testing.T, cash int, dice [2]int, props ...monopolytest.Owned) *monopoly.Game {
	t.Helper()
	g := monopolytest.Position(t, monopoly.DefaultRules(), 0, []int{cash, 1500}, props...)
	g.ScriptDice([][2]int{dice})
	return mustPlay(t, g, monopoly.Action{Kind: monopoly.ActContinue})
}

// refusalSpeedDie starts a two-player game under the speed die in which
// player 0, who has passed GO, rolls dice and face from GO, and returns it
// at the decision the roll asks.
func refusalSpeedDie(t *testing.T, dice [2]int, face monopoly.SpeedFace) *monopoly.Game {
	t.Helper()
	g, err := monopoly.NewFromSetup(monopolytest.Rules(t, "speed_die: true"), monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Seed: 1,
		Players: []monopoly.PlayerSetup{{Cash: 1500, PassedGo: true}, {Cash: 1500}}})
	if err != nil {
		t.Fatal(err)
	}
	g.ScriptDice([][2]int{dice})
	g.ScriptSpeedDie([]monopoly.SpeedFace{face})
	return mustPlay(t, g, monopoly.Action{Kind: monopoly.ActContinue})
}

// refusalEdit returns g as a client restoring an edited saved game would
// have it: written as JSON, changed by edit, and read back.
func refusalEdit(t *testing.T, g *monopoly.Game, edit func(state map[string]any)) *monopoly.Game {
	t.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(data, &state); err != nil {
		t.Fatal(err)
	}
	edit(state)
	if data, err = json.Marshal(state); err != nil {
		t.Fatal(err)
	}
	h, err := monopoly.UnmarshalGame(data)
	if err != nil {
		t.Fatalf("the edited game: %v", err)
	}
	return h
}

// mustPlay applies the actions to g in turn, failing t if the engine
// refuses one, and returns g: positions are reached by legal play.
func mustPlay(t *testing.T, g *monopoly.Game, actions ...monopoly.Action) *monopoly.Game {
	t.Helper()
	for _, a := range actions {
		if err := g.Apply(a); err != nil {
			t.Fatalf("reaching a position: %v", err)
		}
	}
	return g
}
