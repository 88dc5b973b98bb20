package wire_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

var names = []string{"Ann", "Bob", "Cat", "Dan Lee"}

func TestNotationParse(t *testing.T) {
	r := monopoly.DefaultRules()
	n := wire.Notation{Rules: r, Names: names}
	chance, _ := r.JailCardBit(0)
	chest, _ := r.JailCardBit(1)
	offer := func(o monopoly.TradeOffer) *monopoly.TradeOffer { o.From = 1; return &o }
	tests := []struct {
		in        string
		want      monopoly.Action
		canonical string
	}{
		{"continue", monopoly.Action{Kind: monopoly.ActContinue}, "continue"},
		{"  ROLL ", monopoly.Action{Kind: monopoly.ActContinue}, "continue"},
		{"end", monopoly.Action{Kind: monopoly.ActContinue}, "continue"},
		{"done", monopoly.Action{Kind: monopoly.ActContinue}, "continue"},
		{"buy", monopoly.Action{Kind: monopoly.ActBuy}, "buy"},
		{"auction", monopoly.Action{Kind: monopoly.ActDecline}, "auction"},
		{"decline", monopoly.Action{Kind: monopoly.ActDecline}, "auction"},
		{"bid 120", monopoly.Action{Kind: monopoly.ActBid, Arg: 120}, "bid 120"},
		{"bid $120", monopoly.Action{Kind: monopoly.ActBid, Arg: 120}, "bid 120"},
		{"pass", monopoly.Action{Kind: monopoly.ActDropOut}, "pass"},
		{"drop", monopoly.Action{Kind: monopoly.ActDropOut}, "pass"},
		{"build Boardwalk", monopoly.Action{Kind: monopoly.ActBuild, Arg: 39}, "build Boardwalk"},
		{"build boardw", monopoly.Action{Kind: monopoly.ActBuild, Arg: 39}, "build Boardwalk"},
		{"build 39", monopoly.Action{Kind: monopoly.ActBuild, Arg: 39}, "build Boardwalk"},
		{"sell Boardwalk", monopoly.Action{Kind: monopoly.ActSellBuilding, Arg: 39}, "sell Boardwalk"},
		{`mortgage "St. Charles Place"`, monopoly.Action{Kind: monopoly.ActMortgage, Arg: 11}, `mortgage "St. Charles Place"`},
		{`mortgage st. charles place`, monopoly.Action{Kind: monopoly.ActMortgage, Arg: 11}, `mortgage "St. Charles Place"`},
		{`mortgage St. Ch`, monopoly.Action{Kind: monopoly.ActMortgage, Arg: 11}, `mortgage "St. Charles Place"`},
		{`unmortgage "reading"`, monopoly.Action{Kind: monopoly.ActUnmortgage, Arg: 5}, `unmortgage "Reading Railroad"`},
		{"pay_fine", monopoly.Action{Kind: monopoly.ActPayJailFine}, "pay_fine"},
		{"use_card", monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: -1}, "use_card"},
		{"use_card Community_Chest", monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: 1}, "use_card community_chest"},
		{"roll_doubles", monopoly.Action{Kind: monopoly.ActRollForDoubles}, "roll_doubles"},
		{"accept", monopoly.Action{Kind: monopoly.ActAcceptTrade}, "accept"},
		{"accept -50", monopoly.Action{Kind: monopoly.ActAcceptTrade, Arg: -50}, "accept -50"},
		{"accept -$50", monopoly.Action{Kind: monopoly.ActAcceptTrade, Arg: -50}, "accept -50"},
		{"accept +$20", monopoly.Action{Kind: monopoly.ActAcceptTrade, Arg: 20}, "accept 20"},
		{"reject", monopoly.Action{Kind: monopoly.ActRejectTrade}, "reject"},
		{"bankrupt", monopoly.Action{Kind: monopoly.ActDeclareBankruptcy}, "bankrupt"},
		{"keep", monopoly.Action{Kind: monopoly.ActKeepMortgaged}, "keep"},
		{"lift_mortgage", monopoly.Action{Kind: monopoly.ActLiftMortgage}, "lift_mortgage"},
		{"lift", monopoly.Action{Kind: monopoly.ActLiftMortgage}, "lift_mortgage"},
		{`propose Cat give Boardwalk +$100 get "Park Place"`,
			monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: offer(monopoly.TradeOffer{To: 2, GiveSquares: 1 << 39, GiveCash: 100, GetSquares: 1 << 37})},
			`propose Cat give Boardwalk $100 get "Park Place"`},
		{`propose 2 give park place boardwalk, $100 jail_card chance get mediterranean baltic`,
			monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: offer(monopoly.TradeOffer{To: 2, GiveSquares: 1<<39 | 1<<37, GiveCash: 100, GiveCards: chance, GetSquares: 1<<1 | 1<<3})},
			`propose Cat give "Park Place" Boardwalk $100 jail_card chance get "Mediterranean Avenue" "Baltic Avenue"`},
		{`propose dan lee get $5 jail_card community_chest give "Short Line"`,
			monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: offer(monopoly.TradeOffer{To: 3, GiveSquares: 1 << 35, GetCash: 5, GetCards: chest})},
			`propose "Dan Lee" give "Short Line Railroad" get $5 jail_card community_chest`},
		{`counter ann give $1`, monopoly.Action{Kind: monopoly.ActCounterTrade, Offer: offer(monopoly.TradeOffer{To: 0, GiveCash: 1})}, `counter Ann give $1`},
		{`counter 0`, monopoly.Action{Kind: monopoly.ActCounterTrade, Offer: offer(monopoly.TradeOffer{To: 0})}, `counter Ann`},
	}
	for _, tc := range tests {
		got, err := n.Parse(1, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		tc.want.Player = 1
		if !sameAction(got, tc.want) {
			t.Errorf("%q: got %+v (offer %+v), want %+v (offer %+v)", tc.in, got, got.Offer, tc.want, tc.want.Offer)
		}
		if f := n.Format(got); f != tc.canonical {
			t.Errorf("%q: formatted %q, want %q", tc.in, f, tc.canonical)
		}
	}
}

func TestNotationErrors(t *testing.T) {
	n := wire.Notation{Rules: monopoly.DefaultRules(), Names: names}
	tests := []struct{ in, want string }{
		{"", "wire: notation: end: expected a command"},
		{"bidd 5", `word 1: unknown command "bidd" (expected one of continue, build`},
		{`"buy"`, "word 1: unknown command"},
		{"bid", "end: expected an amount such as 120 after bid, got the end"},
		{"bid five", `word 2: expected an amount such as 120 after bid, got "five"`},
		{"bid -5", "word 2: expected an amount"},
		{"bid 5 6", `word 3: expected the end after bid, got "6"`},
		{"buy now", `word 2: expected the end after buy, got "now"`},
		{"build", "end: expected a square"},
		{"build Boardwlak", `word 2: unknown square "Boardwlak" (did you mean "Boardwalk"?)`},
		{"build Park Plaec", `word 2: unknown square "Park Plaec" (did you mean "Park Place"?)`},
		{"build pennsylvania", `word 2: "pennsylvania" is ambiguous: it begins "Pennsylvania Railroad", "Pennsylvania Avenue"`},
		{"build chance", `square name "chance" is ambiguous (squares 7, 22, 36): give the index`},
		{"build 40", "word 2: no square 40"},
		{`build "Boardwalk`, "word 2: a quote is not closed"},
		{"lift Boardwalk", "lift_mortgage takes nothing"},
		{"use_card joker", `word 2: unknown deck "joker"`},
		{"propose", "end: expected a player"},
		{"propose Zed give $5", `word 2: unknown player "Zed" (players: "Ann", "Bob", "Cat", "Dan Lee", or a seat number)`},
		{"propose 9 give $5", "word 2: no seat 9"},
		{"propose Cat take Boardwalk", `word 3: expected give or get (each once), got "take"`},
		{"propose Cat give", "end: expected squares, cash or jail cards"},
		{"propose Cat give get Boardwalk", `word 4: expected squares, cash or jail cards, got "get"`},
		{"propose Cat give $5 give $6", `word 5: expected give or get (each once), got "give"`},
		{"propose Cat give $5 $6", "word 5: cash given twice"},
		{"propose Cat give $x", `word 4: expected cash such as $100, got "$x"`},
		{"propose Cat give $-5", "expected cash such as $100"},
		{"propose Cat give Boardwalk boardwalk", "word 5: Boardwalk is listed twice"},
		{"propose Cat give jail_card", "end: expected a deck"},
		{"propose Cat give jail_card chance jail_card chance", "deck chance has no (more) Get Out of Jail Free cards"},
	}
	for _, tc := range tests {
		_, err := n.Parse(1, tc.in)
		var de *wire.DecodeError
		if err == nil || !errors.As(err, &de) {
			t.Errorf("%q: got %v", tc.in, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, err, tc.want)
		}
	}
}

// Every answer tried in many positions formats to text that parses back
// as the same action, and the text is already canonical.
func TestNotationRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, vr := range variants {
		r := rulesOf(t, vr)
		n := wire.Notation{Rules: r, Names: names}
		bare := wire.Notation{Rules: r}
		positions(t, r, 4, func(g *monopoly.Game, seed uint64, _ int) bool {
			d := g.Pending()
			for _, a := range candidates(g.View(d.Player), rng) {
				for _, n := range []wire.Notation{n, bare} {
					s := n.Format(a)
					back, err := n.Parse(d.Player, s)
					if err != nil {
						t.Fatalf("%s seed %d: %+v formatted as %q: %v", vr.Name, seed, a, s, err)
					}
					if !sameAction(a, back) {
						t.Fatalf("%s: %q read back as %+v, want %+v", vr.Name, s, back, a)
					}
					if again := n.Format(back); again != s {
						t.Fatalf("%s: %q formatted again as %q", vr.Name, s, again)
					}
				}
			}
			return true
		})
	}
}

// Names that could run into the next word, or that look like numbers or
// trade words, are quoted or replaced by what reads back.
func TestNotationAwkwardNames(t *testing.T) {
	r, err := monopoly.DefaultRules().WithOverrides("awkward", []byte(`
board:
  - {name: GO, kind: go}
  - {name: Short, kind: street, group: Brown, price: 60, rent: [2, 10, 30, 90, 160, 250]}
  - {name: Short Line, kind: railroad, price: 200}
  - {name: give, kind: street, group: Brown, price: 60, rent: [2, 10, 30, 90, 160, 250]}
  - {name: "$5", kind: utility, price: 150}
  - {name: "12", kind: utility, price: 150}
  - {name: Jail, kind: jail}
  - {name: "Say \"hi\"", kind: street, group: Brown, price: 60, rent: [2, 10, 30, 90, 160, 250]}
  - {name: Twin, kind: railroad, price: 200}
  - {name: Twin 2, kind: railroad, price: 200}
groups:
  - {name: Brown, house_cost: 50}
decks:
  - name: chance
    cards:
      - {id: out, do: KEEP}
      - {id: fee, do: PAY 5}
`))
	if err != nil {
		t.Fatal(err)
	}
	n := wire.Notation{Rules: r, Names: []string{"give", "7", "ann", "Ann"}}
	all := uint64(1)<<10 - 1 - 1<<6 - 1 // every ownable square
	for _, a := range []monopoly.Action{
		{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &monopoly.TradeOffer{From: 1, To: 0, GiveSquares: all, GiveCash: 3}},
		{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &monopoly.TradeOffer{From: 0, To: 1, GetSquares: 1<<1 | 1<<2}},
		{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &monopoly.TradeOffer{From: 0, To: 2, GetSquares: 1 << 3}},
		{Kind: monopoly.ActMortgage, Player: 0, Arg: 8},
		{Kind: monopoly.ActMortgage, Player: 0, Arg: 9},
		{Kind: monopoly.ActMortgage, Player: 0, Arg: 5},
		{Kind: monopoly.ActBuild, Player: 0, Arg: 7},
	} {
		s := n.Format(a)
		back, err := n.Parse(a.Player, s)
		if err != nil || !sameAction(a, back) {
			t.Errorf("%+v formatted as %q, read back as %+v: %v", a, s, back, err)
		}
	}
}
