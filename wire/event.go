package wire

import (
	"encoding/json"
	"fmt"

	"github.com/gopoly/gopoly/monopoly"
)

// Research is the viewer that sees events whole, private thoughts and
// sealed limits included: the research views. NewEvent applies no
// filter for it, so a caller passes it together with the raw engine
// event. Any other viewer (a seat, or -1 for a spectator) gets the event
// as monopoly.Event.For gives it to that viewer.
const Research = -2

// Event is one event of a game as a viewer sees it. Its JSON has "seq",
// "kind" and exactly the keys of that kind (see eventKeys), always all of
// them, so that the keys of an event depend on its kind alone:
//
//	turn_start          player, round
//	roll                player, dice
//	move                player, from, from_name, square, square_name
//	salary              player, amount
//	roll_resolved       player, square, square_name, in_jail
//	buy, auction_won, bid
//	                    player, square, square_name, amount
//	decline, drop_out   player, square, square_name
//	auction_start       player (the first called), square, square_name
//	auction_unsold      square, square_name
//	rent                player, to, square, square_name, amount
//	pay                 player, to, amount, reason
//	card                player, deck, deck_name, card, card_id, card_text
//	go_to_jail, leave_jail
//	                    player
//	stay_in_jail        player, failures
//	use_jail_card       player, deck, deck_name
//	build, sell_building
//	                    player, square, square_name, amount, buildings (standing after)
//	mortgage, unmortgage
//	                    player, square, square_name, amount
//	trade_proposed      player, to, trade, counter
//	trade_accepted      player, to, trade (the cash that moved)
//	trade_rejected      player, to, trade, limits_missed
//	mortgaged_transfer  player, square, square_name, amount, lifted
//	bankrupt            player, to
//	property_transfer   player, to, square, square_name
//	game_over           player (the winner, -1 for a tie), round_limit, net_worth
//	debt                player, to, square, square_name, amount, reason
//	speech              player, speech, thought ("" unless the viewer may see it)
//	speed_die           player, speed_die ("1"-"6", "mr_monopoly", "bus"), triples
//
// "to" is a seat, or -1 for the bank and -2 for the Free Parking pot;
// "trade" is an Offer. In trade_proposed and trade_rejected under sealed
// deals the cash is the proposer's limit, 0 for everyone else.
type Event struct {
	Seq          int                `json:"seq"`           // the event's number in its game, from 0
	Kind         monopoly.EventKind `json:"kind"`          // what happened
	Player       int                `json:"player"`        // who did it (-1 when the kind has no player)
	To           int                `json:"to"`            // the other party: a seat, -1 the bank, -2 the pot
	From         int                `json:"from"`          // move: the square left
	FromName     string             `json:"from_name"`     // move: its name
	Square       int                `json:"square"`        // the square concerned (-1: none)
	SquareName   string             `json:"square_name"`   // its name
	Amount       int64              `json:"amount"`        // the money: price, bid, rent, payment, cost, debt
	Round        int                `json:"round"`         // turn_start: the round
	Failures     int                `json:"failures"`      // stay_in_jail: failed rolls so far
	Buildings    int                `json:"buildings"`     // build, sell_building: buildings standing after (5: a hotel)
	Dice         [2]int             `json:"dice"`          // roll: the dice
	Deck         int                `json:"deck"`          // card, use_jail_card: the deck (-1: none)
	DeckName     string             `json:"deck_name"`     // its name
	Card         int                `json:"card"`          // card: the card's index in its deck (-1: none)
	CardID       string             `json:"card_id"`       // its id
	CardText     string             `json:"card_text"`     // its text
	InJail       bool               `json:"in_jail"`       // roll_resolved: the roll ended in jail
	Counter      bool               `json:"counter"`       // trade_proposed: a counter-offer
	LimitsMissed bool               `json:"limits_missed"` // trade_rejected: sealed limits that did not meet
	Lifted       bool               `json:"lifted"`        // mortgaged_transfer: the mortgage was lifted
	RoundLimit   bool               `json:"round_limit"`   // game_over: at the round limit
	NetWorth     int64              `json:"net_worth"`     // game_over at the limit: the winner's net worth
	Reason       monopoly.Reason    `json:"reason"`        // pay, debt: why
	Trade        *Offer             `json:"trade"`         // trade events: the offer
	Speech       string             `json:"speech"`        // speech: what was said
	Thought      string             `json:"thought"`       // speech: what was thought, if the viewer may see it
	SpeedDie     string             `json:"speed_die"`     // speed_die: the face thrown
	Triples      bool               `json:"triples"`       // speed_die: it shows the number both white dice show
}

// Keys of events beyond seq and kind.
const (
	kPlayer = "player"
	kTo     = "to"
	kFrom   = "from"
	kSquare = "square" // with square_name
	kAmount = "amount"
	kRound  = "round"
	kFail   = "failures"
	kBuild  = "buildings"
	kDice   = "dice"
	kDeck   = "deck" // with deck_name
	kCard   = "card" // with card_id, card_text
	kInJail = "in_jail"
	kCount  = "counter"
	kMissed = "limits_missed"
	kLifted = "lifted"
	kLimit  = "round_limit" // with net_worth
	kReason = "reason"
	kTrade  = "trade"
	kWords  = "speech"    // with thought
	kSpeed  = "speed_die" // with triples
)

// eventKeys lists the keys of each event kind, in the order written.
var eventKeys = [...][]string{
	monopoly.EvNone:              {},
	monopoly.EvTurnStart:         {kPlayer, kRound},
	monopoly.EvRoll:              {kPlayer, kDice},
	monopoly.EvMove:              {kPlayer, kFrom, kSquare},
	monopoly.EvSalary:            {kPlayer, kAmount},
	monopoly.EvRollResolved:      {kPlayer, kSquare, kInJail},
	monopoly.EvBuy:               {kPlayer, kSquare, kAmount},
	monopoly.EvDecline:           {kPlayer, kSquare},
	monopoly.EvAuctionStart:      {kPlayer, kSquare},
	monopoly.EvBid:               {kPlayer, kSquare, kAmount},
	monopoly.EvDropOut:           {kPlayer, kSquare},
	monopoly.EvAuctionWon:        {kPlayer, kSquare, kAmount},
	monopoly.EvAuctionUnsold:     {kSquare},
	monopoly.EvRent:              {kPlayer, kTo, kSquare, kAmount},
	monopoly.EvPay:               {kPlayer, kTo, kAmount, kReason},
	monopoly.EvCard:              {kPlayer, kDeck, kCard},
	monopoly.EvGoToJail:          {kPlayer},
	monopoly.EvStayInJail:        {kPlayer, kFail},
	monopoly.EvLeaveJail:         {kPlayer},
	monopoly.EvUseJailCard:       {kPlayer, kDeck},
	monopoly.EvBuild:             {kPlayer, kSquare, kAmount, kBuild},
	monopoly.EvSellBuilding:      {kPlayer, kSquare, kAmount, kBuild},
	monopoly.EvMortgage:          {kPlayer, kSquare, kAmount},
	monopoly.EvUnmortgage:        {kPlayer, kSquare, kAmount},
	monopoly.EvTradeProposed:     {kPlayer, kTo, kTrade, kCount},
	monopoly.EvTradeAccepted:     {kPlayer, kTo, kTrade},
	monopoly.EvTradeRejected:     {kPlayer, kTo, kTrade, kMissed},
	monopoly.EvMortgagedTransfer: {kPlayer, kSquare, kAmount, kLifted},
	monopoly.EvBankrupt:          {kPlayer, kTo},
	monopoly.EvPropertyTransfer:  {kPlayer, kTo, kSquare},
	monopoly.EvGameOver:          {kPlayer, kLimit},
	monopoly.EvDebt:              {kPlayer, kTo, kSquare, kAmount, kReason},
	monopoly.EvSpeech:            {kPlayer, kWords},
	monopoly.EvSpeedDie:          {kPlayer, kSpeed},
}

// NewEvent describes engine event e, number seq of its game, as viewer
// sees it: e.For(viewer, r) for a seat or a spectator (-1); e as given
// for Research. Squares, decks and cards are named from the rules.
func NewEvent(r *monopoly.Rules, e monopoly.Event, viewer int, seq int) Event {
	if viewer != Research {
		e = e.For(viewer, r)
	}
	// Keys the kind does not have keep these values, which is also what
	// UnmarshalJSON leaves in them: an event reads back equal.
	out := Event{Seq: seq, Kind: e.Kind, Player: -1, To: -1, From: -1, Square: -1, Deck: -1, Card: -1}
	if int(e.Kind) >= len(eventKeys) {
		out.Player = int(e.Player) // a kind newer than this table: its player at least
		return out
	}
	squareName := func(sq int8) string {
		if sq >= 0 && int(sq) < len(r.Squares) {
			return r.Squares[sq].Name
		}
		return ""
	}
	for _, k := range eventKeys[e.Kind] {
		switch k {
		case kPlayer:
			out.Player = int(e.Player)
		case kAmount:
			out.Amount = e.Amount
		case kDice:
			out.Dice = [2]int{int(e.Dice[0]), int(e.Dice[1])}
		case kReason:
			out.Reason = e.Reason
		case kWords:
			out.Speech, out.Thought = e.Speech, e.Thought
		case kSpeed:
			out.SpeedDie, out.Triples = monopoly.SpeedFace(e.Amount).String(), e.Flag
		case kTo:
			out.To = int(e.Other)
		case kFrom:
			out.From, out.FromName = int(e.Other), squareName(e.Other)
		case kSquare:
			out.Square, out.SquareName = int(e.Square), squareName(e.Square)
		case kRound:
			out.Round = int(e.Amount)
		case kFail:
			out.Failures = int(e.Amount)
		case kBuild:
			out.Buildings = int(e.Other)
		case kDeck:
			out.Deck = int(e.Deck)
			if e.Deck >= 0 && int(e.Deck) < len(r.Decks) {
				out.DeckName = r.Decks[e.Deck].Name
			}
		case kCard:
			if e.Deck >= 0 && int(e.Deck) < len(r.Decks) {
				if cards := r.Decks[e.Deck].Cards; e.Card >= 0 && int(e.Card) < len(cards) {
					out.Card, out.CardID, out.CardText = int(e.Card), cards[e.Card].ID, cards[e.Card].Text
				}
			}
		case kInJail:
			out.InJail = e.Flag
		case kCount:
			out.Counter = e.Flag
		case kMissed:
			out.LimitsMissed = e.Flag
		case kLifted:
			out.Lifted = e.Flag
		case kLimit:
			out.RoundLimit = e.Flag
			out.NetWorth = e.Amount
		case kTrade:
			limits := e.Kind != monopoly.EvTradeAccepted // a settled trade shows the cash that moved
			o := newOffer(r, e.Trade, viewer, limits)
			out.Trade = &o
		}
	}
	return out
}

// MarshalJSON writes seq, kind and the keys of the event's kind (see
// AppendJSON).
func (e Event) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

// AppendJSON appends the event's JSON to b: seq, kind and the keys of its
// kind. A kind newer than this package's table is written with its
// player alone, rather than failing the whole history it is part of.
func (e *Event) AppendJSON(b []byte) []byte {
	o := openObject(b)
	o.int("seq", e.Seq)
	o.str("kind", e.Kind.String())
	keys := []string{kPlayer}
	if int(e.Kind) < len(eventKeys) {
		keys = eventKeys[e.Kind]
	}
	for _, k := range keys {
		switch k {
		case kPlayer:
			o.int(k, e.Player)
		case kTo:
			o.int(k, e.To)
		case kFrom:
			o.int(k, e.From)
			o.str("from_name", e.FromName)
		case kSquare:
			o.int(k, e.Square)
			o.str("square_name", e.SquareName)
		case kAmount:
			o.int64(k, e.Amount)
		case kRound:
			o.int(k, e.Round)
		case kFail:
			o.int(k, e.Failures)
		case kBuild:
			o.int(k, e.Buildings)
		case kDice:
			o.ints(k, e.Dice[:])
		case kDeck:
			o.int(k, e.Deck)
			o.str("deck_name", e.DeckName)
		case kCard:
			o.int(k, e.Card)
			o.str("card_id", e.CardID)
			o.str("card_text", e.CardText)
		case kInJail:
			o.bool(k, e.InJail)
		case kCount:
			o.bool(k, e.Counter)
		case kMissed:
			o.bool(k, e.LimitsMissed)
		case kLifted:
			o.bool(k, e.Lifted)
		case kLimit:
			o.bool(k, e.RoundLimit)
			o.int64("net_worth", e.NetWorth)
		case kReason:
			o.str(k, e.Reason.String())
		case kTrade:
			o.key(k)
			if e.Trade == nil {
				o.b = (&Offer{Give: emptySide(), Get: emptySide()}).appendJSON(o.b)
			} else {
				o.b = e.Trade.appendJSON(o.b)
			}
		case kWords:
			o.str("speech", e.Speech)
			o.str("thought", e.Thought)
		case kSpeed:
			o.str(k, e.SpeedDie)
			o.bool("triples", e.Triples)
		}
	}
	return o.close()
}

// UnmarshalJSON reads what MarshalJSON writes; keys of other kinds are
// ignored, as a reader written for a later version would ignore keys it
// does not know.
func (e *Event) UnmarshalJSON(data []byte) error {
	type plain Event // without the methods, for the default decoding
	p := plain{Player: -1, To: -1, From: -1, Square: -1, Deck: -1, Card: -1}
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("wire: event: %w", err)
	}
	*e = Event(p)
	return nil
}
