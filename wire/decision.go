package wire

import (
	"math/bits"

	"github.com/gopoly/gopoly/monopoly"
)

// Decision is the pending decision with its context, as one seat (or a
// spectator) may see it. Every key is always written; those a kind does
// not use hold their zero (-1 for the seats and squares).
type Decision struct {
	Kind   monopoly.DecisionKind `json:"kind"`   // "none" when the game is over or waits for dice
	Player int                   `json:"player"` // the seat that decides; -1 for none
	// Square: buy: the property offered; bid: the property auctioned;
	// raise_cash: where the debt arose; mortgaged_transfer: the property
	// received; movement: where the player stands. -1 (and SquareName "")
	// otherwise.
	Square     int    `json:"square"`
	SquareName string `json:"square_name"` // the square's name; "" for none
	// Amount: buy: the price; bid: the high bid (0 before the first);
	// raise_cash: the debt; mortgaged_transfer: the fee; movement: the
	// white dice's total after the Bus, 0 after triples (any square). 0
	// otherwise.
	Amount int            `json:"amount"`
	Phase  monopoly.Phase `json:"phase"` // where the current turn stands
	// RollsAgain: in manage after a roll, going on rolls again (doubles).
	RollsAgain bool `json:"rolls_again"`
	// Counterparty: bid: the high bidder (-1 before the first bid);
	// raise_cash: the creditor (a seat, -1 the bank, -2 the Free Parking
	// pot); trade_response: the proposer. -1 otherwise.
	Counterparty int `json:"counterparty"`
	// Reason: raise_cash: why the debt is owed (rent, tax, card,
	// repairs, jail_fine, transfer_fee, purchase, auction); "" otherwise.
	Reason monopoly.Reason `json:"reason"`
	// Offer: trade_response: the offer to answer, as this viewer may see
	// it (under sealed deals only the proposer sees the cash limit).
	Offer *Offer `json:"offer,omitempty"`
	// TradeRound: trade_response: the counter-offers the negotiation has
	// had so far.
	TradeRound int `json:"trade_round"`
	// ProposalsLeft: manage and raise_cash: how many more trades the
	// decider may propose in this phase and turn.
	ProposalsLeft int `json:"proposals_left"`
}

// NewDecision describes v's pending decision as v's seat may see it.
func NewDecision(v monopoly.View) Decision {
	d := v.Pending()
	r := v.Rules()
	out := Decision{Kind: d.Kind, Player: d.Player, Square: -1, Phase: v.Phase(), Counterparty: -1}
	if d.Kind == monopoly.DecisionNone {
		out.Player = -1
		return out
	}
	if d.Square >= 0 && d.Square < len(r.Squares) {
		out.Square, out.SquareName = d.Square, r.Squares[d.Square].Name
	}
	switch d.Kind {
	case monopoly.DecisionBuy, monopoly.DecisionBid, monopoly.DecisionRaiseCash, monopoly.DecisionMortgagedTransfer, monopoly.DecisionMovement:
		out.Amount = d.Amount
	}
	out.RollsAgain = v.RollsAgain()
	out.Counterparty = v.Counterparty()
	out.Reason = v.DebtReason()
	switch d.Kind {
	case monopoly.DecisionTradeResponse:
		o := newOffer(r, v.PendingOffer(), v.Me(), true)
		out.Offer = &o
		out.TradeRound = v.TradeRound()
	case monopoly.DecisionManage, monopoly.DecisionRaiseCash:
		out.ProposalsLeft = v.ProposalsLeft(d.Player)
	}
	return out
}

// Offer is a trade offer as a viewer sees it: what each side gives, with
// the names of the squares.
type Offer struct {
	From int  `json:"from"` // the proposer's seat
	To   int  `json:"to"`   // the seat the offer goes to
	Give Side `json:"give"` // what the proposer gives
	Get  Side `json:"get"`  // what the proposer asks for
	// Sealed: the cash is a sealed limit, not cash that moves: give.cash
	// the most the proposer pays, get.cash the least it takes.
	Sealed bool `json:"sealed"`
	// Hidden: the limit is hidden from this viewer, who is not the
	// proposer; both cash amounts read 0.
	Hidden bool `json:"hidden"`
}

// Side is one side of an offer. The lists are never null.
type Side struct {
	Squares     []int    `json:"squares"`      // by index, in board order
	SquareNames []string `json:"square_names"` // the same squares by name
	Cash        int64    `json:"cash"`         // cash, or under sealed deals a limit (see Offer.Sealed)
	JailCards   []string `json:"jail_cards"`   // Get Out of Jail Free cards, by deck name
}

// newOffer describes o for viewer; limits says the cash is a sealed
// deal's limits (a proposal or a rejection, not a settled trade). The
// offer is taken as the engine hands it to that viewer, already sealed.
func newOffer(r *monopoly.Rules, o monopoly.TradeOffer, viewer int, limits bool) Offer {
	sealed := limits && r.DealProtocol == monopoly.DealsSealed
	return Offer{
		From: int(o.From), To: int(o.To),
		Give:   newSide(r, o.GiveSquares, o.GiveCash, o.GiveCards),
		Get:    newSide(r, o.GetSquares, o.GetCash, o.GetCards),
		Sealed: sealed,
		Hidden: sealed && viewer != int(o.From) && viewer != Research,
	}
}

func emptySide() Side { return Side{Squares: []int{}, SquareNames: []string{}, JailCards: []string{}} }

func newSide(r *monopoly.Rules, squares uint64, cash int64, cards uint8) Side {
	s := emptySide()
	s.Cash = cash
	for m := squares; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		s.Squares = append(s.Squares, sq)
		if sq < len(r.Squares) {
			s.SquareNames = append(s.SquareNames, r.Squares[sq].Name)
		} else {
			s.SquareNames = append(s.SquareNames, "")
		}
	}
	s.JailCards = jailCardNames(r, uint64(cards))
	return s
}

// jailCardNames names a set of Get Out of Jail Free cards by their decks.
func jailCardNames(r *monopoly.Rules, cards uint64) []string {
	names := []string{}
	keep, n := keepDecks(r)
	for m := cards; m != 0; m &= m - 1 {
		if b := bits.TrailingZeros64(m); b < n {
			names = append(names, r.Decks[keep[b]].Name)
		}
	}
	return names
}
