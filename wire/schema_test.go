package wire_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// resolve reads a JSON Schema for validating instances against it.
func resolve(t *testing.T, data []byte) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return rs
}

// decodeAny decodes an instance as the validator takes it: numbers as
// float64 (it reads a json.Number as the string it is).
func decodeAny(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

// Every answer tried in many positions validates against its decision's
// schema, with words and without.
func TestSchemaAdmitsAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	schemas := map[monopoly.DecisionKind]*jsonschema.Resolved{}
	for k := monopoly.DecisionNone; k <= monopoly.DecisionMovement; k++ {
		schemas[k] = resolve(t, wire.Schema(k))
	}
	// An answer met again in another position validates as it did: the
	// schema depends on the decision kind alone.
	seen := map[string]bool{}
	count := 0
	for _, vr := range variants {
		r := rulesOf(t, vr)
		positions(t, r, 3, func(g *monopoly.Game, seed uint64, n int) bool {
			d := g.Pending()
			for i, a := range candidates(g.View(d.Player), rng) {
				data, err := wire.EncodeAnswer(r, a, "", "")
				if i%2 == 1 {
					data, err = wire.EncodeAnswer(r, a, "a word", "a thought")
				}
				if err != nil {
					t.Fatal(err)
				}
				count++
				key := d.Kind.String() + string(data)
				if seen[key] {
					continue
				}
				seen[key] = true
				if err := schemas[d.Kind].Validate(decodeAny(t, data)); err != nil {
					t.Fatalf("%s seed %d: %s answering %s: %v", vr.Name, seed, data, d.Kind, err)
				}
			}
			return true
		})
	}
	t.Logf("%d answers, %d distinct", count, len(seen))
	if count < 10000 {
		t.Errorf("only %d answers validated", count)
	}
}

// Answers the decoder refuses, or that answer another decision, fail the
// schema; the forms the decoder takes besides the canonical one pass.
func TestSchemaRefusesWrongAnswers(t *testing.T) {
	r := monopoly.DefaultRules()
	tests := []struct {
		decision monopoly.DecisionKind
		answer   string
		ok       bool
	}{
		{monopoly.DecisionBuy, `{"action":{"kind":"buy"}}`, true},
		{monopoly.DecisionBuy, `{"action":{"kind":"buy","player":2},"speech":"mine","thought":"cheap"}`, true},
		{monopoly.DecisionManage, `{"action":{"kind":"build","square":"Boardwalk"}}`, true},
		{monopoly.DecisionJail, `{"action":{"kind":"use_jail_card","deck":1}}`, true},
		{monopoly.DecisionJail, `{"action":{"kind":"use_jail_card"}}`, true},
		{monopoly.DecisionManage, `{"action":{"kind":"propose_trade","offer":{"to":1,"give":{"squares":[39,"Park Place"],"cash":5,"jail_cards":["chance"]},"get":{}}}}`, true},
		{monopoly.DecisionTradeResponse, `{"action":{"kind":"accept_trade","limit":-50}}`, true},

		{monopoly.DecisionBuy, `{"action":{"kind":"bid","amount":5}}`, false},              // another decision's
		{monopoly.DecisionBuy, `{"action":{"kind":"buy"},"mood":"glad"}`, false},           // unknown key
		{monopoly.DecisionBuy, `{"speech":"hi"}`, false},                                   // no action
		{monopoly.DecisionBuy, `{"action":{"kind":"buy"},"speech":5}`, false},              // wrong type
		{monopoly.DecisionBuy, `{"action":{"kind":"buy","square":3}}`, false},              // a key buy does not take
		{monopoly.DecisionBid, `{"action":{"kind":"bid"}}`, false},                         // missing amount
		{monopoly.DecisionBid, `{"action":{"kind":"bid","amount":"5"}}`, false},            // wrong type
		{monopoly.DecisionBid, `{"action":{"kind":"bid","amount":5.5}}`, false},            // not an integer
		{monopoly.DecisionManage, `{"action":{"kind":"build","square":true}}`, false},      // wrong type
		{monopoly.DecisionManage, `{"action":{"kind":"build","square":-1}}`, false},        // below the board
		{monopoly.DecisionManage, `{"action":{"kind":"propose_trade","offer":{}}}`, false}, // no seat
		{monopoly.DecisionManage, `{"action":{"kind":"propose_trade","offer":{"to":1,"give":{"cash":-5}}}}`, false},
		{monopoly.DecisionManage, `{"action":{"kind":"propose_trade","offer":{"to":1,"give":{"squares":[3,3]}}}}`, false},
		{monopoly.DecisionManage, `{"action":{"kind":"propose_trade","offer":{"to":1,"gift":{}}}}`, false},
		{monopoly.DecisionManage, `{"action":{"kind":"continue"},"thought":null}`, false},
		{monopoly.DecisionNone, `{"action":{"kind":"continue"}}`, false},
		{monopoly.DecisionMortgagedTransfer, `{"action":{"kind":"unmortgage","square":3}}`, false},
	}
	for _, tc := range tests {
		err := resolve(t, wire.Schema(tc.decision)).Validate(decodeAny(t, []byte(tc.answer)))
		if (err == nil) != tc.ok {
			t.Errorf("%s answering %s: valid %v, want %v (%v)", tc.answer, tc.decision, err == nil, tc.ok, err)
		}
		// What the schema admits as the answer to a decision that takes
		// its kind, the decoder reads.
		if tc.ok {
			if _, _, _, err := wire.DecodeAnswer(r, 2, []byte(tc.answer)); err != nil {
				t.Errorf("%s: schema admits it, decoder refuses: %v", tc.answer, err)
			}
		}
	}
}

// Each decision's schema offers exactly the action kinds of Answers, and
// AnswerSchemas holds every decision kind.
func TestSchemaMatchesTable(t *testing.T) {
	all := wire.AnswerSchemas()
	if len(all) != int(monopoly.DecisionMovement)+1 {
		t.Errorf("%d schemas", len(all))
	}
	for k := monopoly.DecisionNone; k <= monopoly.DecisionMovement; k++ {
		if !bytes.Equal(all[k.String()], wire.Schema(k)) {
			t.Errorf("%s: AnswerSchemas and Schema differ", k)
		}
		schema := resolve(t, wire.Schema(k))
		allowed := map[monopoly.ActionKind]bool{}
		for _, a := range wire.Answers(k) {
			allowed[a] = true
		}
		for a := monopoly.ActContinue; a <= monopoly.ActCounterTrade; a++ {
			// The smallest action of the kind: its required key filled.
			data, _ := wire.EncodeAction(monopoly.DefaultRules(), monopoly.Action{Kind: a, Arg: 1,
				Offer: &monopoly.TradeOffer{To: 1, GiveCash: 1}})
			answer := decodeAny(t, []byte(`{"action":`+string(data)+`}`))
			if err := schema.Validate(answer); (err == nil) != allowed[a] {
				t.Errorf("%s: %s valid %v, listed %v (%v)", k, data, err == nil, allowed[a], err)
			}
		}
	}
}
