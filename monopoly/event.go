package monopoly

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strings"
)

// EventKind is the kind of a change in the game.
type EventKind uint8

// Event kinds. The fields an event uses are noted: Player (P), Other (O),
// Square (S), Amount (A), Dice, Deck/Card, Flag, Trade.
const (
	EvNone              EventKind = iota
	EvTurnStart                   // P starts a turn; A: round
	EvRoll                        // P rolled Dice
	EvMove                        // P moved from O to S
	EvSalary                      // P collected A for passing GO
	EvRollResolved                // P's roll ended on S; Flag: in jail
	EvBuy                         // P bought S for A
	EvDecline                     // P declined to buy S
	EvAuctionStart                // S goes to auction; calls start at P
	EvBid                         // P bid A for S
	EvDropOut                     // P dropped out of the auction for S
	EvAuctionWon                  // P won S for A
	EvAuctionUnsold               // nobody bid for S
	EvRent                        // P paid A rent to O for S
	EvPay                         // P paid A to O (Bank, Jackpot or a seat) for Reason
	EvCard                        // P drew Card from Deck
	EvGoToJail                    // P went to jail
	EvStayInJail                  // P failed to roll doubles; A: failures so far
	EvLeaveJail                   // P left jail
	EvUseJailCard                 // P used its Get Out of Jail Free card of Deck
	EvBuild                       // P built on S for A; O: buildings now
	EvSellBuilding                // P sold a building on S for A; O: buildings now
	EvMortgage                    // P mortgaged S for A
	EvUnmortgage                  // P lifted the mortgage on S for A
	EvTradeProposed               // P proposed Trade to O; Flag: a counter-offer
	EvTradeAccepted               // O accepted P's Trade (the cash that moved)
	EvTradeRejected               // O rejected P's Trade; Flag: sealed limits that did not meet
	EvMortgagedTransfer           // P received S mortgaged and paid A; Flag: lifted the mortgage
	EvBankrupt                    // P went bankrupt to O (Bank: the bank)
	EvPropertyTransfer            // S passed from bankrupt P to O (Bank: the bank)
	EvGameOver                    // P won (-1: a tie); Flag: at the round limit, A: net worth
	EvDebt                        // P owes A to O (for Reason) and must raise cash
	EvSpeech                      // P said Speech and thought Thought (with its next answer)
	EvSpeedDie                    // P's speed die showed A (a SpeedFace) with its roll; Flag: triples
)

var eventNames = names[EventKind]{"EventKind", []string{"none", "turn_start", "roll", "move", "salary", "roll_resolved", "buy", "decline",
	"auction_start", "bid", "drop_out", "auction_won", "auction_unsold", "rent", "pay", "card", "go_to_jail",
	"stay_in_jail", "leave_jail", "use_jail_card", "build", "sell_building", "mortgage", "unmortgage",
	"trade_proposed", "trade_accepted", "trade_rejected", "mortgaged_transfer", "bankrupt",
	"property_transfer", "game_over", "debt", "speech", "speed_die"}}

func (k EventKind) String() string { return eventNames.of(k) }

// Event is one change of the game state: data, not a log line.
type Event struct {
	Kind   EventKind
	Player int8
	Other  int8
	Square int8
	Deck   int8
	Card   int8
	Flag   bool
	Reason Reason
	Dice   [2]int8
	Amount int64
	Trade  TradeOffer
	// Words of an EvSpeech event: the speech is public, the thought
	// private to its author (see Event.For).
	Speech, Thought string
}

// For returns e as player viewer may see it (-1: a spectator): another
// player's private thought is removed, and so is the cash of a sealed
// offer, which only its proposer knows. A settled sealed trade
// (EvTradeAccepted) shows the cash that changed hands, which is public.
func (e Event) For(viewer int, r *Rules) Event {
	switch e.Kind {
	case EvSpeech:
		if int(e.Player) != viewer {
			e.Thought = ""
		}
	case EvTradeProposed, EvTradeRejected:
		e.Trade = r.sealFor(e.Trade, viewer)
	}
	return e
}

// sealFor hides a sealed offer's cash from everyone but its proposer.
// For returns a as player viewer may see it (-1: a spectator): under
// sealed deals the cash limits of another player's offer or acceptance
// are hidden, as Event.For hides them in the events.
func (a Action) For(viewer int, r *Rules) Action {
	if r.DealProtocol != DealsSealed || a.Player == viewer {
		return a
	}
	switch a.Kind {
	case ActProposeTrade, ActCounterTrade:
		if a.Offer != nil {
			o := r.sealFor(*a.Offer, viewer)
			a.Offer = &o
		}
	case ActAcceptTrade:
		a.Arg = 0
	}
	return a
}

func (r *Rules) sealFor(o TradeOffer, viewer int) TradeOffer {
	if r.DealProtocol == DealsSealed && int(o.From) != viewer {
		o.GiveCash, o.GetCash = 0, 0
	}
	return o
}

// Say records what player p says and thinks with the answer it is about
// to give (an EvSpeech event, when the game records events). Words change
// nothing in the game.
func (g *Game) Say(p int, speech, thought string) {
	if speech != "" || thought != "" {
		g.emit(Event{Kind: EvSpeech, Player: int8(p), Speech: speech, Thought: thought})
	}
}

// Recording reports whether the game records events.
func (g *Game) Recording() bool { return g.record }

// Record turns the event log on or off. Off (the default) costs nothing,
// which is what bot-only simulation wants.
func (g *Game) Record(on bool) { g.record = on }

// Events returns the events recorded since the last TakeEvents.
func (g *Game) Events() []Event { return g.events }

// TakeEvents returns the recorded events and empties the log, keeping its
// buffer for reuse: the returned slice is valid until the next Apply.
func (g *Game) TakeEvents() []Event {
	ev := g.events
	g.events = g.events[:0]
	return ev
}

func (g *Game) emit(e Event) {
	if g.record {
		g.events = append(g.events, e)
	}
}

// Describe renders an event as an English sentence, naming players with
// names (by seat).
func (r *Rules) Describe(e Event, names []string) string {
	who := func(p int8) string {
		switch {
		case p == Bank:
			return "the bank"
		case p == Jackpot:
			return "the Free Parking pot"
		case int(p) >= 0 && int(p) < len(names):
			return names[p]
		}
		return fmt.Sprintf("player %d", p)
	}
	sq := func(s int8) string {
		if s >= 0 && int(s) < len(r.Squares) {
			return r.Squares[s].Name
		}
		return "?"
	}
	P, O, S := who(e.Player), who(e.Other), sq(e.Square)
	switch e.Kind {
	case EvTurnStart:
		return fmt.Sprintf("%s's turn (round %d)", P, e.Amount)
	case EvRoll:
		s := fmt.Sprintf("%s rolls %d + %d = %d", P, e.Dice[0], e.Dice[1], e.Dice[0]+e.Dice[1])
		if e.Dice[0] == e.Dice[1] {
			s += " (doubles)"
		}
		return s
	case EvMove:
		return fmt.Sprintf("%s moves to %s", P, S)
	case EvSalary:
		return fmt.Sprintf("%s collects $%d salary", P, e.Amount)
	case EvRollResolved:
		if e.Flag {
			return fmt.Sprintf("%s's roll ends in jail", P)
		}
		return fmt.Sprintf("%s's roll ends on %s", P, S)
	case EvBuy:
		return fmt.Sprintf("%s buys %s for $%d", P, S, e.Amount)
	case EvDecline:
		return fmt.Sprintf("%s does not buy %s", P, S)
	case EvAuctionStart:
		return fmt.Sprintf("%s goes to auction", S)
	case EvBid:
		return fmt.Sprintf("%s bids $%d for %s", P, e.Amount, S)
	case EvDropOut:
		return fmt.Sprintf("%s drops out of the auction", P)
	case EvAuctionWon:
		return fmt.Sprintf("%s wins %s at auction for $%d", P, S, e.Amount)
	case EvAuctionUnsold:
		return fmt.Sprintf("nobody bids: %s stays with the bank", S)
	case EvRent:
		return fmt.Sprintf("%s pays $%d rent to %s for %s", P, e.Amount, O, S)
	case EvPay:
		return fmt.Sprintf("%s pays $%d to %s (%s)", P, e.Amount, O, reason(e.Reason))
	case EvCard:
		if int(e.Deck) < len(r.Decks) && int(e.Card) < len(r.Decks[e.Deck].Cards) {
			c := r.Decks[e.Deck].Cards[e.Card]
			text := c.Text
			if text == "" {
				text = c.ID
			}
			return fmt.Sprintf("%s draws %s: %q", P, deckTitle(r.Decks[e.Deck].Name), text)
		}
		return fmt.Sprintf("%s draws a card", P)
	case EvGoToJail:
		return fmt.Sprintf("%s goes to jail", P)
	case EvStayInJail:
		return fmt.Sprintf("%s stays in jail (failed attempt %d)", P, e.Amount)
	case EvLeaveJail:
		return fmt.Sprintf("%s leaves jail", P)
	case EvUseJailCard:
		return fmt.Sprintf("%s uses a Get Out of Jail Free card", P)
	case EvBuild:
		if e.Other == 5 {
			return fmt.Sprintf("%s builds a hotel on %s for $%d", P, S, e.Amount)
		}
		return fmt.Sprintf("%s builds a house on %s for $%d (%d there now)", P, S, e.Amount, e.Other)
	case EvSellBuilding:
		return fmt.Sprintf("%s sells a building on %s for $%d (%d left)", P, S, e.Amount, e.Other)
	case EvMortgage:
		return fmt.Sprintf("%s mortgages %s for $%d", P, S, e.Amount)
	case EvUnmortgage:
		return fmt.Sprintf("%s lifts the mortgage on %s for $%d", P, S, e.Amount)
	case EvTradeProposed:
		verb := "proposes to"
		if e.Flag {
			verb = "counters"
		}
		return fmt.Sprintf("%s %s %s: %s", P, verb, O, r.DescribeOffer(e.Trade, names))
	case EvTradeAccepted:
		// The sides are the proposer's: "Bob accepts Cat's trade: gives
		// $235" would read as Bob giving it.
		return fmt.Sprintf("%s accepts %s's trade: %s %s", O, P, P, r.describeSides(e.Trade))
	case EvTradeRejected:
		if e.Flag {
			return fmt.Sprintf("no deal between %s and %s: their cash limits do not meet", P, O)
		}
		return fmt.Sprintf("%s rejects the trade from %s", O, P)
	case EvMortgagedTransfer:
		if e.Flag {
			return fmt.Sprintf("%s pays $%d to lift the mortgage on %s", P, e.Amount, S)
		}
		return fmt.Sprintf("%s keeps %s mortgaged and pays the $%d fee", P, S, e.Amount)
	case EvBankrupt:
		return fmt.Sprintf("%s is bankrupt to %s", P, O)
	case EvPropertyTransfer:
		return fmt.Sprintf("%s passes from %s to %s", S, P, O)
	case EvDebt:
		if e.Reason.Purchase() {
			return fmt.Sprintf("%s must raise cash to pay $%d for %s", P, e.Amount, S)
		}
		return fmt.Sprintf("%s owes $%d to %s (%s) and must raise cash", P, e.Amount, O, reason(e.Reason))
	case EvSpeedDie:
		face := SpeedFace(e.Amount)
		s := fmt.Sprintf("%s's speed die shows %s", P, face.Describe())
		if e.Flag {
			s += " (triples: move to any square)"
		}
		return s
	case EvSpeech:
		if e.Speech == "" {
			return fmt.Sprintf("%s thinks: %s", P, e.Thought)
		}
		return fmt.Sprintf("%s: %q", P, e.Speech)
	case EvGameOver:
		if e.Player < 0 {
			return "the game ends in a tie"
		}
		if e.Flag {
			return fmt.Sprintf("round limit: %s wins with net worth $%d", P, e.Amount)
		}
		return fmt.Sprintf("%s wins", P)
	}
	return e.Kind.String()
}

// reason is a payment's reason in words: "jail fine", not "jail_fine".
func reason(r Reason) string { return strings.ReplaceAll(r.String(), "_", " ") }

// deckTitle is a deck's name as the board prints it: "community_chest"
// is "Community Chest".
func deckTitle(name string) string {
	words := strings.Fields(strings.ReplaceAll(name, "_", " "))
	for i, w := range words {
		if c := w[0]; c >= 'a' && c <= 'z' {
			words[i] = string(c-'a'+'A') + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// DescribeOffer renders a trade offer; under sealed deals its cash is
// shown as the proposer's limit (zero when it is hidden from the reader).
func (r *Rules) DescribeOffer(o TradeOffer, names []string) string {
	if r.DealProtocol != DealsSealed {
		return r.describeSides(o)
	}
	s := r.describeSides(TradeOffer{GiveSquares: o.GiveSquares, GetSquares: o.GetSquares, GiveCards: o.GiveCards, GetCards: o.GetCards})
	switch {
	case o.GiveCash > 0:
		return fmt.Sprintf("%s, paying at most $%d (sealed)", s, o.GiveCash)
	case o.GetCash > 0:
		return fmt.Sprintf("%s, wanting at least $%d (sealed)", s, o.GetCash)
	}
	return s + ", cash sealed"
}

// describeSides renders what each side of a trade gives.
func (r *Rules) describeSides(o TradeOffer) string {
	dollars := func(n int64) string { return fmt.Sprintf("$%d", n) }
	return fmt.Sprintf("gives %s for %s", r.DescribeSide(o.GiveSquares, o.GiveCash, o.GiveCards, dollars),
		r.DescribeSide(o.GetSquares, o.GetCash, o.GetCards, dollars))
}

// DescribeSide lists one side of a trade: "Reading Railroad, Baltic
// Avenue and $110", "nothing" when empty; money writes the cash.
func (r *Rules) DescribeSide(squares uint64, cash int64, cards uint8, money func(int64) string) string {
	var parts []string
	for m := squares; m != 0; m &= m - 1 {
		parts = append(parts, r.Squares[popLowest(m)].Name)
	}
	if cash > 0 {
		parts = append(parts, money(cash))
	}
	switch n := bits.OnesCount8(cards); n {
	case 0:
	case 1:
		parts = append(parts, "a Get Out of Jail Free card")
	default:
		parts = append(parts, fmt.Sprintf("%d Get Out of Jail Free cards", n))
	}
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// MarshalJSON writes an event with its kind by name and only the fields
// that kind uses.
func (e Event) MarshalJSON() ([]byte, error) {
	m := map[string]any{"kind": e.Kind.String(), "player": e.Player}
	switch e.Kind {
	case EvRoll:
		m["dice"] = e.Dice
	case EvMove:
		m["from"], m["square"] = e.Other, e.Square
	case EvRollResolved:
		m["square"], m["in_jail"] = e.Square, e.Flag
	case EvCard:
		m["deck"], m["card"] = e.Deck, e.Card
	case EvTradeProposed, EvTradeAccepted, EvTradeRejected:
		m["other"], m["trade"] = e.Other, e.Trade
		switch {
		case e.Flag && e.Kind == EvTradeProposed:
			m["counter"] = true
		case e.Flag && e.Kind == EvTradeRejected:
			m["limits_missed"] = true // sealed limits that did not meet
		}
	case EvUseJailCard:
		m["deck"] = e.Deck
	case EvSpeedDie:
		m["face"] = SpeedFace(e.Amount).String()
		if e.Flag {
			m["triples"] = true
		}
		return json.Marshal(m) // the face, not an amount
	case EvSpeech:
		if e.Speech != "" {
			m["speech"] = e.Speech
		}
		if e.Thought != "" {
			m["thought"] = e.Thought
		}
	default:
		if e.Other != 0 || e.Kind == EvRent || e.Kind == EvPay || e.Kind == EvBankrupt {
			m["other"] = e.Other
		}
		if e.Square != 0 || e.Kind == EvBuy {
			m["square"] = e.Square
		}
		if e.Flag {
			m["flag"] = true
		}
	}
	if e.Amount != 0 {
		m["amount"] = e.Amount
	}
	if e.Reason != ReasonNone {
		m["reason"] = e.Reason.String()
	}
	return json.Marshal(m)
}
