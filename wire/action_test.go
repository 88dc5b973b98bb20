package wire_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// Every answer tried in many positions of every variant encodes, decodes
// back as itself, and encodes to the same bytes again.
func TestActionRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[monopoly.ActionKind]bool{}
	for _, vr := range variants {
		r := rulesOf(t, vr)
		positions(t, r, 4, func(g *monopoly.Game, seed uint64, n int) bool {
			d := g.Pending()
			if d.Kind == monopoly.DecisionNone {
				return true
			}
			for _, a := range candidates(g.View(d.Player), rng) {
				data, err := wire.EncodeAction(r, a)
				if err != nil {
					t.Fatalf("%s seed %d: encode %+v: %v", vr.Name, seed, a, err)
				}
				back, err := wire.DecodeAction(r, d.Player, data)
				if err != nil {
					t.Fatalf("%s seed %d: decode %s: %v", vr.Name, seed, data, err)
				}
				if !sameAction(a, back) {
					t.Fatalf("%s: %s read back as %+v, want %+v", vr.Name, data, back, a)
				}
				again, _ := wire.EncodeAction(r, back)
				if string(again) != string(data) {
					t.Fatalf("%s: encoded %s, then %s", vr.Name, data, again)
				}
				seen[a.Kind] = true
			}
			return true
		})
	}
	for k := monopoly.ActContinue; k <= monopoly.ActCounterTrade; k++ {
		if !seen[k] {
			t.Errorf("no position tried %s", k)
		}
	}
}

// The forms a client may write besides the canonical one.
func TestDecodeActionForms(t *testing.T) {
	r := monopoly.DefaultRules()
	chance, _ := r.DeckIndex("chance")
	chest, _ := r.DeckIndex("community_chest")
	chanceBit, _ := r.JailCardBit(chance)
	chestBit, _ := r.JailCardBit(chest)
	tests := []struct {
		json string
		want monopoly.Action
	}{
		{`{"kind":"continue"}`, monopoly.Action{Kind: monopoly.ActContinue, Player: 1}},
		{` {"kind" : "continue", "player": 1} `, monopoly.Action{Kind: monopoly.ActContinue, Player: 1}},
		{`{"kind":"build","square":39}`, monopoly.Action{Kind: monopoly.ActBuild, Player: 1, Arg: 39}},
		{`{"square":"Boardwalk","kind":"build"}`, monopoly.Action{Kind: monopoly.ActBuild, Player: 1, Arg: 39}},
		{`{"kind":"mortgage","square":"st. charles place"}`, monopoly.Action{Kind: monopoly.ActMortgage, Player: 1, Arg: 11}},
		{`{"kind":"bid","amount":120}`, monopoly.Action{Kind: monopoly.ActBid, Player: 1, Arg: 120}},
		{`{"kind":"use_jail_card"}`, monopoly.Action{Kind: monopoly.ActUseJailCard, Player: 1, Arg: -1}},
		{`{"kind":"use_jail_card","deck":"Chance"}`, monopoly.Action{Kind: monopoly.ActUseJailCard, Player: 1, Arg: chance}},
		{`{"kind":"use_jail_card","deck":1}`, monopoly.Action{Kind: monopoly.ActUseJailCard, Player: 1, Arg: 1}},
		{`{"kind":"accept_trade"}`, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1}},
		{`{"kind":"accept_trade","limit":-50}`, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1, Arg: -50}},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"squares":[39,"Park Place"],"cash":100,"jail_cards":["chance"]},"get":{}}}`,
			monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &monopoly.TradeOffer{From: 1, To: 2,
				GiveSquares: 1<<39 | 1<<37, GiveCash: 100, GiveCards: chanceBit}}},
		{`{"kind":"counter_trade","offer":{"from":1,"to":0,"get":{"squares":[1],"cash":5,"jail_cards":[1]}}}`,
			monopoly.Action{Kind: monopoly.ActCounterTrade, Player: 1, Offer: &monopoly.TradeOffer{From: 1, To: 0,
				GetSquares: 1 << 1, GetCash: 5, GetCards: chestBit}}},
		{`{"kind":"propose_trade","offer":{"to":3}}`,
			monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 1, Offer: &monopoly.TradeOffer{From: 1, To: 3}}},
	}
	for _, tc := range tests {
		got, err := wire.DecodeAction(r, 1, []byte(tc.json))
		if err != nil {
			t.Errorf("%s: %v", tc.json, err)
			continue
		}
		if !sameAction(got, tc.want) {
			t.Errorf("%s: got %+v (offer %+v), want %+v", tc.json, got, got.Offer, tc.want)
		}
	}
}

// Input that is not an action is refused with an error naming the field.
func TestDecodeActionErrors(t *testing.T) {
	r := monopoly.DefaultRules()
	tests := []struct{ json, want string }{
		{``, "wire: action: unexpected end of input"},
		{`[]`, "want an object"},
		{`{"kind":"continue"} {}`, "trailing data"},
		{`{"kind":"continue"}x`, "wire: action: "},
		{`{"kind":"continue","kind":"buy"}`, `duplicate key "kind"`},
		{`{}`, "kind: missing"},
		{`{"kind":7}`, "kind: want a string, got the number 7"},
		{`{"kind":"none"}`, `kind: unknown action kind "none"`},
		{`{"kind":"bild"}`, `kind: unknown action kind "bild" (known: continue, build`},
		{`{"kind":"continue","square":3}`, "square: not a key of continue, which takes kind (and player)"},
		{`{"kind":"build"}`, "square: missing: build needs it"},
		{`{"kind":"build","square":40}`, "square: no square 40 (the board has squares 0 to 39)"},
		{`{"kind":"build","square":-1}`, "square: no square -1"},
		{`{"kind":"build","square":3.5}`, "square: want a square's index or name, got the number 3.5"},
		{`{"kind":"build","square":"Boardwalc"}`, `square: unknown square "Boardwalc" (did you mean "Boardwalk"?)`},
		{`{"kind":"build","square":"Chance"}`, `square name "Chance" is ambiguous (squares 7, 22, 36)`},
		{`{"kind":"build","square":null}`, "square: want a square's index or name, got null"},
		{`{"kind":"build","square":39,"amount":3}`, "amount: not a key of build"},
		{`{"kind":"bid"}`, "amount: missing"},
		{`{"kind":"bid","amount":"120"}`, `amount: want an integer, got the string "120"`},
		{`{"kind":"bid","amount":1e3}`, "amount: want an integer, got the number 1e3"},
		{`{"kind":"bid","amount":99999999999999999999}`, "amount: want an integer"},
		{`{"kind":"accept_trade","limit":true}`, "limit: want an integer, got true"},
		{`{"kind":"use_jail_card","deck":"bonus"}`, `deck: unknown deck "bonus" (decks: chance, community_chest)`},
		{`{"kind":"use_jail_card","deck":2}`, "deck: no deck 2"},
		{`{"kind":"continue","player":2}`, "player: 2, but seat 1 answers"},
		{`{"kind":"continue","player":"1"}`, "player: want an integer seat"},
		{`{"kind":"propose_trade"}`, "offer: missing"},
		{`{"kind":"propose_trade","offer":[]}`, "offer: want an object"},
		{`{"kind":"propose_trade","offer":{}}`, "offer.to: missing"},
		{`{"kind":"propose_trade","offer":{"to":8}}`, "offer.to: no seat 8"},
		{`{"kind":"propose_trade","offer":{"to":-1}}`, "offer.to: no seat -1"},
		{`{"kind":"propose_trade","offer":{"to":"2"}}`, "offer.to: want an integer seat"},
		{`{"kind":"propose_trade","offer":{"to":2,"from":0}}`, "offer.from: 0, but seat 1 answers"},
		{`{"kind":"propose_trade","offer":{"to":2,"cash":5}}`, "offer.cash: not a key of an offer"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":[]}}`, "offer.give: want an object"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"square":[1]}}}`, "offer.give.square: not a key of a side"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"squares":1}}}`, "offer.give.squares: want an array"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"squares":[39,"Park Plaec"]}}}`,
			`wire: action: offer.give.squares[1]: unknown square "Park Plaec" (did you mean "Park Place"?)`},
		{`{"kind":"propose_trade","offer":{"to":2,"get":{"squares":[39,"boardwalk"]}}}`, "offer.get.squares[1]: Boardwalk (39) is listed twice"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"cash":-100}}}`, "offer.give.cash: negative cash -100"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"cash":1.5}}}`, "offer.give.cash: want an integer"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"jail_cards":"chance"}}}`, "offer.give.jail_cards: want an array"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"jail_cards":["chance","chance"]}}}`, "offer.give.jail_cards[1]: deck chance has no more"},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"jail_cards":["joker"]}}}`, `offer.give.jail_cards[0]: unknown deck "joker"`},
		{`{"kind":"propose_trade","offer":{"to":2,"give":{"squares":[[[[[[[[[]]]]]]]]]}}}`, "nested too deeply"},
	}
	for _, tc := range tests {
		_, err := wire.DecodeAction(r, 1, []byte(tc.json))
		if err == nil {
			t.Errorf("%s: accepted", tc.json)
			continue
		}
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: %T is not a *wire.DecodeError", tc.json, err)
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "wire: action: ") {
			t.Errorf("%s:\n got %q\nwant %q", tc.json, err, tc.want)
		}
	}
}

func TestEncodeActionErrors(t *testing.T) {
	r := monopoly.DefaultRules()
	tests := []monopoly.Action{
		{Kind: monopoly.ActNone},
		{Kind: monopoly.ActMove + 1},
		{Kind: monopoly.ActBuild, Arg: 40},
		{Kind: monopoly.ActMortgage, Arg: -1},
		{Kind: monopoly.ActUseJailCard, Arg: 2},
		{Kind: monopoly.ActProposeTrade},
		{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{To: 1, GiveCash: -1}},
		{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{To: 1, GetSquares: 1 << 45}},
		{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{To: 1, GetCards: 1 << 5}},
		{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{To: 9}},
	}
	for _, a := range tests {
		if data, err := wire.EncodeAction(r, a); err == nil {
			t.Errorf("%+v encoded as %s", a, data)
		} else if !strings.HasPrefix(err.Error(), "wire: encode: ") {
			t.Errorf("%+v: error %q", a, err)
		}
	}
}

// The canonical bytes of each form, pinned: clients and stored logs
// depend on them.
func TestEncodeActionCanonical(t *testing.T) {
	r := monopoly.DefaultRules()
	sealed := rulesOf(t, variant{Name: "sealed", YAML: "deal_protocol: sealed"})
	chance, _ := r.JailCardBit(0)
	tests := []struct {
		r    *monopoly.Rules
		a    monopoly.Action
		want string
	}{
		{r, monopoly.Action{Kind: monopoly.ActContinue, Arg: 5}, `{"kind":"continue"}`},
		{r, monopoly.Action{Kind: monopoly.ActBuild, Arg: 39}, `{"kind":"build","square":39}`},
		{r, monopoly.Action{Kind: monopoly.ActBid, Arg: 120}, `{"kind":"bid","amount":120}`},
		{r, monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: -1}, `{"kind":"use_jail_card"}`},
		{r, monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: 1}, `{"kind":"use_jail_card","deck":"community_chest"}`},
		{r, monopoly.Action{Kind: monopoly.ActAcceptTrade}, `{"kind":"accept_trade"}`},
		{sealed, monopoly.Action{Kind: monopoly.ActAcceptTrade}, `{"kind":"accept_trade","limit":0}`},
		{sealed, monopoly.Action{Kind: monopoly.ActAcceptTrade, Arg: -50}, `{"kind":"accept_trade","limit":-50}`},
		{r, monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{From: 1, To: 2, GiveSquares: 1<<39 | 1<<37, GiveCash: 100, GiveCards: chance}},
			`{"kind":"propose_trade","offer":{"to":2,"give":{"squares":[37,39],"cash":100,"jail_cards":["chance"]},"get":{}}}`},
	}
	for _, tc := range tests {
		got, err := wire.EncodeAction(tc.r, tc.a)
		if err != nil || string(got) != tc.want {
			t.Errorf("%+v: got %s, %v; want %s", tc.a, got, err, tc.want)
		}
	}
}

func TestDecodeAnswer(t *testing.T) {
	r := monopoly.DefaultRules()
	a, speech, thought, err := wire.DecodeAnswer(r, 0, []byte(`{"speech":"Mine!","action":{"kind":"buy"},"thought":"cheap"}`))
	if err != nil || a != (monopoly.Action{Kind: monopoly.ActBuy}) || speech != "Mine!" || thought != "cheap" {
		t.Fatalf("got %+v %q %q %v", a, speech, thought, err)
	}
	data, err := wire.EncodeAnswer(r, monopoly.Action{Kind: monopoly.ActBid, Arg: 7}, "seven", "\"quoted\"\n")
	if err != nil {
		t.Fatal(err)
	}
	var ans wire.Answer
	if err := json.Unmarshal(data, &ans); err != nil || ans.Speech != "seven" || ans.Thought != "\"quoted\"\n" || string(ans.Action) != `{"kind":"bid","amount":7}` {
		t.Fatalf("EncodeAnswer wrote %s: %+v %v", data, ans, err)
	}
	for _, tc := range []struct{ json, want string }{
		{`{"speech":"hi"}`, "wire: answer: action: missing"},
		{`{"action":{"kind":"bid"}}`, "wire: answer: action.amount: missing"},
		{`{"action":{"kind":"propose_trade","offer":{"to":1,"give":{"squares":["x"]}}}}`, `wire: answer: action.offer.give.squares[0]: unknown square "x"`},
		{`{"action":{"kind":"buy"},"speech":3}`, "wire: answer: speech: want a string"},
		{`{"action":{"kind":"buy"},"mood":"happy"}`, "wire: answer: mood: not a key of an answer"},
		{`{"action":"buy"}`, "wire: answer: action: want an object"},
		{`"buy"`, "wire: answer: want an object"},
	} {
		_, _, _, err := wire.DecodeAnswer(r, 0, []byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.json, err, tc.want)
		}
	}
}

// The answers table agrees with the engine: at a position of each
// decision kind, an action kind the table does not list for it is
// refused as not_an_answer, and one it lists is not.
func TestAnswersMatchEngine(t *testing.T) {
	for _, vr := range variants[:3] {
		r := rulesOf(t, vr)
		done := map[monopoly.DecisionKind]bool{}
		positions(t, r, 10, func(g *monopoly.Game, _ uint64, _ int) bool {
			d := g.Pending()
			if d.Kind == monopoly.DecisionNone || done[d.Kind] {
				return true
			}
			done[d.Kind] = true
			listed := map[monopoly.ActionKind]bool{}
			for _, k := range wire.Answers(d.Kind) {
				listed[k] = true
			}
			for k := monopoly.ActContinue; k <= monopoly.ActCounterTrade; k++ {
				err := g.Check(monopoly.Action{Kind: k, Player: d.Player})
				var re *monopoly.RuleError
				notAnswer := errors.As(err, &re) && re.Code == monopoly.RefusalNotAnAnswer
				if notAnswer == listed[k] {
					t.Errorf("%s: %s: listed %v, engine says %v", vr.Name, d.Kind, listed[k], err)
				}
			}
			return len(done) < 7
		})
		if len(done) < 7 {
			t.Errorf("%s: only %d decision kinds reached", vr.Name, len(done))
		}
	}
}

// Jail cards are named by deck, and the deck's card is the bit the
// engine gives it.
func TestJailCardsByDeck(t *testing.T) {
	r := monopoly.DefaultRules()
	for d := range r.Decks {
		bit, ok := r.JailCardBit(d)
		if !ok {
			continue
		}
		a := monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &monopoly.TradeOffer{To: 1, GetCards: bit}}
		data, err := wire.EncodeAction(r, a)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"jail_cards":["`+r.Decks[d].Name+`"]`) {
			t.Errorf("deck %s's card encoded as %s", r.Decks[d].Name, data)
		}
	}
}
