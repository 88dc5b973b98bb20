package monopoly_test

import (
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// Describe reads as English: who gives what in an accepted trade, what
// is built, deck names as the board prints them, reasons and card counts
// in words.
func TestDescribeReads(t *testing.T) {
	r := monopoly.DefaultRules()
	names := []string{"Ann", "Bob", "Cat"}
	sq := func(name string) int8 {
		i, ok := r.SquareIndex(name)
		if !ok {
			t.Fatalf("no square %q", name)
		}
		return int8(i)
	}
	bo := uint64(1) << sq("B&O Railroad")
	for _, c := range []struct {
		e    monopoly.Event
		want string
	}{
		{monopoly.Event{Kind: monopoly.EvTradeAccepted, Player: 2, Other: 1, Trade: monopoly.TradeOffer{From: 2, To: 1, GiveCash: 235, GetSquares: bo}},
			"Bob accepts Cat's trade: Cat gives $235 for B&O Railroad"},
		{monopoly.Event{Kind: monopoly.EvTradeProposed, Player: 0, Other: 1, Trade: monopoly.TradeOffer{From: 0, To: 1, GiveCards: 1, GetSquares: bo}},
			"Ann proposes to Bob: gives a Get Out of Jail Free card for B&O Railroad"},
		{monopoly.Event{Kind: monopoly.EvTradeProposed, Player: 0, Other: 1, Trade: monopoly.TradeOffer{From: 0, To: 1, GiveCards: 3, GetCash: 10}},
			"Ann proposes to Bob: gives 2 Get Out of Jail Free cards for $10"},
		{monopoly.Event{Kind: monopoly.EvTradeProposed, Player: 0, Other: 1, Flag: true, Trade: monopoly.TradeOffer{From: 0, To: 1,
			GiveSquares: 1<<sq("Atlantic Avenue") | 1<<sq("Baltic Avenue"), GetSquares: bo, GetCash: 35}},
			"Ann counters Bob: gives Baltic Avenue and Atlantic Avenue for B&O Railroad and $35"},
		{monopoly.Event{Kind: monopoly.EvBuild, Player: 1, Square: sq("Mediterranean Avenue"), Amount: 50, Other: 1},
			"Bob builds a house on Mediterranean Avenue for $50 (1 there now)"},
		{monopoly.Event{Kind: monopoly.EvBuild, Player: 1, Square: sq("Mediterranean Avenue"), Amount: 50, Other: 5},
			"Bob builds a hotel on Mediterranean Avenue for $50"},
		{monopoly.Event{Kind: monopoly.EvCard, Player: 2, Deck: 1, Card: 0},
			`Cat draws Community Chest: "` + r.Decks[1].Cards[0].Text + `"`},
		{monopoly.Event{Kind: monopoly.EvPay, Player: 0, Other: monopoly.Bank, Amount: 50, Reason: monopoly.ReasonJailFine},
			"Ann pays $50 to the bank (jail fine)"},
		{monopoly.Event{Kind: monopoly.EvDebt, Player: 0, Other: 2, Amount: 1100, Reason: monopoly.ReasonRent},
			"Ann owes $1100 to Cat (rent) and must raise cash"},
		{monopoly.Event{Kind: monopoly.EvDebt, Player: 0, Other: monopoly.Bank, Square: sq("Park Place"), Amount: 350, Reason: monopoly.ReasonPurchase},
			"Ann must raise cash to pay $350 for Park Place"},
	} {
		if got := r.Describe(c.e, names); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.e.Kind, got, c.want)
		}
	}
}
