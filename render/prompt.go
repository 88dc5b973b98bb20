package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// Decision says what d asks, in a sentence or two for a person or a language
// model: "Buy Boardwalk for $400, or send it to auction?". Players are
// named from names by seat ("seat N", from 1, where names has none).
// DecisionIn says it knowing the position, which a player in jail needs.
func Decision(d wire.Decision, names []string) string { return decision(d, names, false) }

// DecisionIn says what snap's decision asks its decider, as Decision
// does, from the position: before a turn in jail it does not say "Roll
// the dice".
func DecisionIn(snap wire.Snapshot, names []string) string {
	return decision(snap.Decision, names, inJail(snap, snap.Decision.Player))
}

// DecisionOf says what v's pending decision asks, as DecisionIn does,
// for a player who holds the view rather than a snapshot (a language
// model's prompt, a program's message).
func DecisionOf(v monopoly.View, names []string) string {
	d := wire.NewDecision(v)
	return decision(d, names, d.Player >= 0 && v.InJail(d.Player))
}

func decision(d wire.Decision, names []string, jailed bool) string {
	name := func(p int) string { return seatName(names, p) }
	switch d.Kind {
	case monopoly.DecisionManage:
		next := goOn(d, jailed)
		if jailed && d.Phase != monopoly.PhaseAfterRoll {
			next += " (pay the fine, use a card or roll for doubles)"
		}
		return fmt.Sprintf("%s, or first build, sell, mortgage, lift a mortgage or propose a trade (%s left).", next, plural(d.ProposalsLeft, "proposal"))
	case monopoly.DecisionJail:
		return "You are in jail: pay the fine, use a Get Out of Jail Free card, or roll for doubles."
	case monopoly.DecisionBuy:
		return fmt.Sprintf("Buy %s for $%d, or send it to auction?", d.SquareName, d.Amount)
	case monopoly.DecisionBid:
		if d.Counterparty < 0 {
			return fmt.Sprintf("%s is up for auction, no bid yet: bid, or drop out.", d.SquareName)
		}
		return fmt.Sprintf("%s is up for auction, high bid $%d by %s: bid more, or drop out.", d.SquareName, d.Amount, name(d.Counterparty))
	case monopoly.DecisionTradeResponse:
		s := fmt.Sprintf("%s offers you a trade: %s.", name(d.Counterparty), Offer(*d.Offer, names))
		if d.TradeRound > 0 {
			s += fmt.Sprintf(" (Counter-offer %d of this negotiation.)", d.TradeRound)
		}
		return s + " Accept or reject?"
	case monopoly.DecisionRaiseCash:
		switch d.Reason {
		case monopoly.ReasonPurchase:
			return fmt.Sprintf("You are buying %s for $%d, more than your cash: raise the rest by selling buildings, mortgaging or trading.", d.SquareName, d.Amount)
		case monopoly.ReasonAuction:
			return fmt.Sprintf("You won %s at auction for $%d, more than your cash: raise the rest by selling buildings, mortgaging or trading.", d.SquareName, d.Amount)
		}
		return fmt.Sprintf("You owe %s $%d and cannot pay in cash: sell buildings, mortgage, trade, or declare bankruptcy.", name(d.Counterparty), d.Amount)
	case monopoly.DecisionMortgagedTransfer:
		return fmt.Sprintf("You received %s mortgaged: pay the $%d fee and keep it mortgaged, or lift the mortgage now.", d.SquareName, d.Amount)
	case monopoly.DecisionMovement:
		if d.Amount == 0 {
			return fmt.Sprintf("Triples! Move from %s to any other square of your choice; your roll ends there.", d.SquareName)
		}
		return fmt.Sprintf("The speed die shows the Bus: from %s, move by either white die or by their total of %d.", d.SquareName, d.Amount)
	}
	return "Nothing to decide."
}

// Offer describes an offer from the proposer's side: "Bob gives
// Boardwalk and $100 for Park Place". A sealed offer's cash is the
// proposer's limit, or "sealed" to a viewer it is hidden from.
func Offer(o wire.Offer, names []string) string {
	side := func(s wire.Side, limit string) string {
		cash := ""
		switch {
		case o.Sealed && o.Hidden:
		case o.Sealed && s.Cash > 0:
			cash = fmt.Sprintf("$%d %s (sealed)", s.Cash, limit)
		case s.Cash > 0:
			cash = fmt.Sprintf("$%d", s.Cash)
		}
		return Holdings(s.SquareNames, cash, s.JailCards)
	}
	s := fmt.Sprintf("%s gives %s for %s", seatName(names, o.From), side(o.Give, "at most"), side(o.Get, "at least"))
	if o.Sealed && o.Hidden {
		s += ", with a sealed cash limit"
	}
	return s
}

// Holdings lists what one side of a trade holds, or may hold: its
// squares by name, a phrase for its cash ("" for none) and its Get Out of
// Jail Free cards by deck; "nothing" when it holds none of them.
func Holdings(squares []string, cash string, jailCards []string) string {
	parts := slices.Clone(squares)
	if cash != "" {
		parts = append(parts, cash)
	}
	for _, d := range jailCards {
		parts = append(parts, "a Get Out of Jail Free card ("+DeckTitle(d)+")")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
