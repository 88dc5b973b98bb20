package wire

import (
	"encoding/json"
	"math/bits"

	"github.com/gopoly/gopoly/monopoly"
)

// Options are the legal answers to the pending decision for the viewing
// seat, as data. Answers that can be listed are listed (Actions); the
// parametric ones are described by their bounds (Bid, Accept, Trade).
// Every bound is found by asking the engine (View.LegalActions,
// View.Check on candidates), never by rules of the wire's own; a concrete
// answer is legal exactly when View.Check accepts it.
type Options struct {
	Decision monopoly.DecisionKind `json:"decision"` // the kind of the pending decision
	Player   int                   `json:"player"`   // the viewing seat
	// Actions are the listable legal answers as action JSON; empty when
	// the seat does not decide now. A bid is listed at its lowest raise.
	Actions []json.RawMessage `json:"actions"`
	// Notation holds the same actions in the text notation, in order.
	Notation []string `json:"notation"`
	// Bid: while bidding, the amounts a bid may name.
	Bid *Range `json:"bid,omitempty"`
	// Accept: answering a sealed deal, the limits accept_trade may name.
	Accept *LimitRange `json:"accept,omitempty"`
	// Trade: when the seat may propose a trade (manage, raise_cash) or
	// counter one (trade_response), what it may put in.
	Trade *TradeOptions `json:"trade,omitempty"`
}

// Range is an inclusive range of amounts.
type Range struct {
	Min int `json:"min"` // the least allowed
	Max int `json:"max"` // the most allowed
}

// LimitRange is the range of a sealed accept_trade's limit, and what the
// limit means.
type LimitRange struct {
	Range
	Meaning string `json:"meaning"` // what the limit means, for people
}

// TradeOptions describe the trades the seat may offer now. Each square
// listed passes the engine's checks on its own (owned, no buildings in
// its group); a whole offer is legal when View.Check accepts it.
type TradeOptions struct {
	Kind          monopoly.ActionKind `json:"kind"`           // propose_trade or counter_trade
	ProposalsLeft int                 `json:"proposals_left"` // propose_trade: proposals left in this phase and turn
	// CounterOffers is how many counter-offers one negotiation may have
	// under the rules (0: none); CountersLeft how many this one has left.
	CounterOffers int  `json:"counter_offers"`
	CountersLeft  int  `json:"counters_left"` // counter_trade: counter-offers the negotiation may still have, this one included
	Sealed        bool `json:"sealed"`        // deals are sealed: cash is a limit
	// Limits explains the cash of a sealed offer; "" under open deals.
	Limits   string         `json:"limits,omitempty"`
	Give     TradeSide      `json:"give"`     // what the seat may give
	Partners []TradePartner `json:"partners"` // whom it may trade with, and what it may ask of each
}

// TradeSide is what one party may put into a trade.
type TradeSide struct {
	Squares     []int    `json:"squares"`      // squares it may trade, in board order
	SquareNames []string `json:"square_names"` // their names
	MaxCash     int      `json:"max_cash"`     // cash from 0 to this
	JailCards   []string `json:"jail_cards"`   // its Get Out of Jail Free cards, by deck name
}

// TradePartner is a seat the trade may go to and what may be asked of it.
type TradePartner struct {
	Seat int       `json:"seat"` // the partner's seat
	Get  TradeSide `json:"get"`  // what may be asked of it
}

const sealedLimits = "sealed deal: give.cash is the most you pay, get.cash the least you take (at most one of them); " +
	"the other side does not see it, and if its limit meets yours the cash midway between them changes hands"

const acceptMeaning = "the least net cash you take from the proposer; negative: the most you pay. " +
	"If it meets the proposer's sealed limit the trade happens at the cash midway between them; if not, nothing happens"

// NewOptions lists the legal answers of v's seat to the pending decision.
func NewOptions(v monopoly.View) Options { return NewOptionsWithout(v, 0) }

// OptionsParts are parts of Options a client may go without, to save
// building and sending them.
type OptionsParts uint8

// The parts of Options a client may go without.
const (
	WithoutNotation OptionsParts = 1 << iota // Notation is left nil (and AppendJSON leaves its key out)
	WithoutTrade                             // Trade is left nil: the engine is not asked what trades are open
)

// NewOptionsWithout is NewOptions less the parts in without.
func NewOptionsWithout(v monopoly.View, without OptionsParts) Options {
	r := v.Rules()
	d := v.Pending()
	me := v.Me()
	o := Options{Decision: d.Kind, Player: me, Actions: []json.RawMessage{}, Notation: []string{}}
	if without&WithoutNotation != 0 {
		o.Notation = nil
	}
	if d.Kind == monopoly.DecisionNone || d.Player != me {
		return o
	}
	var buf [64]monopoly.Action
	n := Notation{Rules: r}
	for _, a := range v.LegalActions(buf[:0]) {
		raw, err := EncodeAction(r, a)
		if err != nil {
			continue // the engine's own actions always encode (TestOptionsActionsLegal)
		}
		o.Actions = append(o.Actions, raw)
		if o.Notation != nil {
			o.Notation = append(o.Notation, n.Format(a))
		}
	}
	switch d.Kind {
	case monopoly.DecisionBid:
		lo, hi := d.Amount+1, v.Funds(me)
		if legal(v, monopoly.Action{Kind: monopoly.ActBid, Player: me, Arg: lo}) &&
			legal(v, monopoly.Action{Kind: monopoly.ActBid, Player: me, Arg: hi}) {
			o.Bid = &Range{lo, hi}
		}
	case monopoly.DecisionTradeResponse:
		if r.DealProtocol == monopoly.DealsSealed {
			lo, hi := -v.Cash(me), monopoly.MaxAmount*monopoly.MaxPlayers
			accept := func(limit int) bool {
				return legal(v, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: me, Arg: limit})
			}
			if accept(lo) && accept(hi) && !accept(lo-1) && !accept(hi+1) {
				o.Accept = &LimitRange{Range{lo, hi}, acceptMeaning}
			}
		}
	}
	if without&WithoutTrade == 0 {
		o.Trade = tradeOptions(v)
	}
	return o
}

func legal(v monopoly.View, a monopoly.Action) bool { return v.Refusal(a) == monopoly.RefusalNone }

// tradeOptions asks the engine which trades the seat may offer: whether
// an offer is an answer now (a missing offer is refused as no_offer, not
// as not_an_answer or no_counter_offer), to whom (an empty offer to a
// seat is refused for being empty, not for the seat), and which squares
// (a one-square offer is refused for nothing about that square).
func tradeOptions(v monopoly.View) *TradeOptions {
	r := v.Rules()
	me := v.Me()
	kind := monopoly.ActProposeTrade
	if v.Pending().Kind == monopoly.DecisionTradeResponse {
		kind = monopoly.ActCounterTrade
	}
	if v.Refusal(monopoly.Action{Kind: kind, Player: me}) != monopoly.RefusalNoOffer {
		return nil
	}
	offer := new(monopoly.TradeOffer) // one for all the tries
	try := func(o monopoly.TradeOffer) monopoly.Refusal {
		*offer = o
		offer.From = int8(me)
		return v.Refusal(monopoly.Action{Kind: kind, Player: me, Offer: offer})
	}
	t := &TradeOptions{Kind: kind, CounterOffers: r.CounterOffers, Sealed: r.DealProtocol == monopoly.DealsSealed}
	if kind == monopoly.ActProposeTrade {
		t.ProposalsLeft = v.ProposalsLeft(me)
		if t.ProposalsLeft == 0 {
			return nil
		}
	} else {
		t.CountersLeft = max(0, r.CounterOffers-v.TradeRound())
	}
	if t.Sealed {
		t.Limits = sealedLimits
		t.CounterOffers = 0 // sealed deals have no counter-offers
	}
	for p := range v.Players() {
		if p == me {
			continue
		}
		switch try(monopoly.TradeOffer{To: int8(p)}) {
		case monopoly.RefusalNoSuchPlayer, monopoly.RefusalCounterToProposer:
			continue
		}
		get := tradeSide(v, p, func(sq int) monopoly.Refusal {
			return try(monopoly.TradeOffer{To: int8(p), GetSquares: 1 << sq})
		}, monopoly.RefusalAskNotOwned)
		t.Partners = append(t.Partners, TradePartner{Seat: p, Get: get})
	}
	if len(t.Partners) == 0 {
		return nil
	}
	to := int8(t.Partners[0].Seat)
	t.Give = tradeSide(v, me, func(sq int) monopoly.Refusal {
		return try(monopoly.TradeOffer{To: to, GiveSquares: 1 << sq})
	}, monopoly.RefusalOfferNotOwned)
	return t
}

// tradeSide lists what seat p may put in: the squares whose one-square
// offer (check) is refused for nothing about that square, its cash and
// its jail cards.
func tradeSide(v monopoly.View, p int, check func(sq int) monopoly.Refusal, notOwned monopoly.Refusal) TradeSide {
	r := v.Rules()
	owned := v.OwnedMask(p)
	n := bits.OnesCount64(owned)
	s := TradeSide{Squares: make([]int, 0, n), SquareNames: make([]string, 0, n), MaxCash: v.Cash(p)}
	for m := owned; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		switch check(sq) {
		case notOwned, monopoly.RefusalTradeBuildings, monopoly.RefusalSquareBothSides:
			continue
		}
		s.Squares = append(s.Squares, sq)
		s.SquareNames = append(s.SquareNames, r.Squares[sq].Name)
	}
	s.JailCards = jailCardNames(r, uint64(v.JailCardBits(p)))
	return s
}
