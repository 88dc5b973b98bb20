package wire_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// fieldsJSON is the action JSON that gives the same keys as a
// wire.Fields, as a dialect had to write it before Fields.
type fieldsJSON struct {
	Kind   monopoly.ActionKind `json:"kind"`
	Square *int                `json:"square,omitempty"`
	Amount *int                `json:"amount,omitempty"`
	Deck   json.RawMessage     `json:"deck,omitempty"`
	Limit  *int                `json:"limit,omitempty"`
	Offer  *struct {
		To   int      `json:"to"`
		Give sideJSON `json:"give"`
		Get  sideJSON `json:"get"`
	} `json:"offer,omitempty"`
}

type sideJSON struct {
	Squares   []int    `json:"squares,omitempty"`
	Cash      int64    `json:"cash,omitempty"`
	JailCards []string `json:"jail_cards,omitempty"`
}

func asJSON(f wire.Fields) []byte {
	j := fieldsJSON{Kind: f.Kind, Square: f.Square, Amount: f.Amount, Deck: f.Deck, Limit: f.Limit}
	if o := f.Offer; o != nil {
		j.Offer = &struct {
			To   int      `json:"to"`
			Give sideJSON `json:"give"`
			Get  sideJSON `json:"get"`
		}{o.To, sideJSON(o.Give), sideJSON(o.Get)}
	}
	data, _ := json.Marshal(j)
	return data
}

// Fields reads as the same action, or fails with the same message, as
// the action's JSON read by DecodeAction: a dialect that builds actions
// key by key says what the JSON would have said.
func TestFieldsAsDecodeAction(t *testing.T) {
	r := monopoly.DefaultRules()
	n := func(v int) *int { return &v }
	offer := func(to int, give, get wire.SideFields) *wire.OfferFields {
		return &wire.OfferFields{To: to, Give: give, Get: get}
	}
	cases := []wire.Fields{
		{Kind: monopoly.ActContinue},
		{Kind: monopoly.ActBuild, Square: n(39)},
		{Kind: monopoly.ActBuild, Square: n(40)},
		{Kind: monopoly.ActMortgage, Square: n(-1)},
		{Kind: monopoly.ActBuild},
		{Kind: monopoly.ActContinue, Square: n(3)},
		{Kind: monopoly.ActBid, Amount: n(120)},
		{Kind: monopoly.ActBid},
		{Kind: monopoly.ActAcceptTrade, Limit: n(-50)},
		{Kind: monopoly.ActAcceptTrade},
		{Kind: monopoly.ActUseJailCard},
		{Kind: monopoly.ActUseJailCard, Deck: []byte(`"Chance"`)},
		{Kind: monopoly.ActUseJailCard, Deck: []byte(`1`)},
		{Kind: monopoly.ActUseJailCard, Deck: []byte(`"bonus"`)},
		{Kind: monopoly.ActUseJailCard, Deck: []byte(`null`)},
		{Kind: monopoly.ActUseJailCard, Deck: []byte(`7`)},
		{Kind: monopoly.ActPayJailFine, Deck: []byte(`"chance"`)},
		{Kind: monopoly.ActProposeTrade},
		{Kind: monopoly.ActProposeTrade, Offer: offer(2, wire.SideFields{Squares: []int{39, 37}, Cash: 100, JailCards: []string{"chance"}}, wire.SideFields{Squares: []int{1}})},
		{Kind: monopoly.ActCounterTrade, Offer: offer(0, wire.SideFields{}, wire.SideFields{Cash: 5})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(9, wire.SideFields{}, wire.SideFields{})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(-1, wire.SideFields{}, wire.SideFields{})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(2, wire.SideFields{Squares: []int{39, 39}}, wire.SideFields{})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(2, wire.SideFields{Squares: []int{1}}, wire.SideFields{Squares: []int{3, 44}})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(2, wire.SideFields{Cash: -1}, wire.SideFields{})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(2, wire.SideFields{JailCards: []string{"bonus"}}, wire.SideFields{})},
		{Kind: monopoly.ActProposeTrade, Offer: offer(2, wire.SideFields{JailCards: []string{"chance", "chance"}}, wire.SideFields{})},
		{Kind: monopoly.ActBuy, Offer: offer(2, wire.SideFields{}, wire.SideFields{})},
		{Kind: monopoly.ActMove, Square: n(24)},
	}
	failures := 0
	for _, f := range cases {
		data := asJSON(f)
		want, werr := wire.DecodeAction(r, 1, data)
		got, gerr := f.Action(r, 1)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%s: error %v, want %v", data, gerr, werr)
		}
		if werr != nil {
			failures++
			continue
		}
		if !sameAction(got, want) {
			t.Errorf("%s: %+v, want %+v", data, got, want)
		}
	}
	if failures < len(cases)/2 {
		t.Errorf("only %d of %d cases are refused: the messages are barely compared", failures, len(cases))
	}
	if _, err := (wire.Fields{}).Action(r, 1); err == nil {
		t.Error("no kind: accepted")
	}
}
