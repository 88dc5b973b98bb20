package render

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// The people's vocabulary: what a person reads of an option, a wait or
// a refusal, in one place for the terminal, the browser, MCP and the
// language models' prompts. The wire keeps its codes for programs;
// nothing here is a code, a phase name or a seat counted from 0.

// seatName names a seat for people: by names, the bank and the pot by
// their names, and a seat without a name counted from 1.
func seatName(names []string, p int) string {
	switch {
	case p == -1:
		return "the bank"
	case p == -2:
		return "the Free Parking pot"
	case p >= 0 && p < len(names) && names[p] != "":
		return names[p]
	}
	return "seat " + strconv.Itoa(p+1)
}

// DeckTitle is a deck's name as the cards print it: "community_chest"
// reads "Community Chest".
func DeckTitle(deck string) string {
	words := strings.Fields(strings.ReplaceAll(deck, "_", " "))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// Labels gives each of o's listed actions a label for a button or a
// menu, in o's order: "Roll the dice", "Pay the $50 fine", "Sell a house
// on Pacific Avenue (+$100)". snap is the position o belongs to (who
// owns what, what stands where); r its rules, which price the options.
func Labels(r *monopoly.Rules, snap wire.Snapshot, o wire.Options) []string {
	out := make([]string, len(o.Actions))
	for i, raw := range o.Actions {
		a, err := wire.DecodeAction(r, o.Player, raw)
		if err != nil {
			// Options come from the engine and always decode; a label
			// still says what the option is.
			out[i] = "Option " + strconv.Itoa(i+1)
			continue
		}
		out[i] = Label(r, snap, a)
	}
	return out
}

// Label is a's label for a person deciding in snap under rules r.
func Label(r *monopoly.Rules, snap wire.Snapshot, a monopoly.Action) string {
	name := snapshot(snap).playerName
	sq := func() string { return squareName(r, a.Arg) }
	d := snap.Decision
	switch a.Kind {
	case monopoly.ActContinue:
		return goOn(snap.Decision, inJail(snap, a.Player))
	case monopoly.ActBuild:
		what := "a house"
		if a.Arg >= 0 && a.Arg < len(snap.Board) && snap.Board[a.Arg].Houses >= r.MaxHouses {
			what = "a hotel"
		}
		return fmt.Sprintf("Build %s on %s ($%d)", what, sq(), r.HouseCost(a.Arg))
	case monopoly.ActSellBuilding:
		what := "a house on"
		if a.Arg >= 0 && a.Arg < len(snap.Board) && snap.Board[a.Arg].Hotel {
			what = "the hotel on"
		}
		return fmt.Sprintf("Sell %s %s (+$%d)", what, sq(), r.BuildingSalePrice(a.Arg))
	case monopoly.ActMortgage:
		return fmt.Sprintf("Mortgage %s (+$%d)", sq(), r.Squares[a.Arg].Mortgage)
	case monopoly.ActUnmortgage:
		return fmt.Sprintf("Lift the mortgage on %s ($%d)", sq(), r.UnmortgageCost(a.Arg))
	case monopoly.ActPayJailFine:
		return fmt.Sprintf("Pay the $%d fine", r.JailFine)
	case monopoly.ActUseJailCard:
		if a.Arg >= 0 && a.Arg < len(r.Decks) {
			return "Use your Get Out of Jail Free card (" + DeckTitle(r.Decks[a.Arg].Name) + ")"
		}
		return "Use your Get Out of Jail Free card"
	case monopoly.ActBuy:
		return fmt.Sprintf("Buy %s for $%d", d.SquareName, d.Amount)
	case monopoly.ActDecline:
		return fmt.Sprintf("Don't buy: %s goes to auction", d.SquareName)
	case monopoly.ActBid:
		return fmt.Sprintf("Bid $%d", a.Arg)
	case monopoly.ActAcceptTrade:
		if r.DealProtocol == monopoly.DealsSealed {
			return fmt.Sprintf("Accept the trade (your limit: $%d)", a.Arg)
		}
		return "Accept the trade"
	case monopoly.ActKeepMortgaged:
		return fmt.Sprintf("Keep %s mortgaged (pay the $%d fee)", d.SquareName, d.Amount)
	case monopoly.ActLiftMortgage:
		return fmt.Sprintf("Lift the mortgage on %s now ($%d)", d.SquareName, r.UnmortgageCost(d.Square))
	case monopoly.ActProposeTrade, monopoly.ActCounterTrade:
		verb := "Propose a trade to"
		if a.Kind == monopoly.ActCounterTrade {
			verb = "Counter-offer to"
		}
		if a.Offer == nil {
			return verb + " another player"
		}
		o := *a.Offer
		limit := ""
		if r.DealProtocol == monopoly.DealsSealed {
			// Sealed cash is a limit, not cash that moves.
			switch {
			case o.GiveCash > 0:
				limit = fmt.Sprintf(", paying at most $%d (sealed)", o.GiveCash)
			case o.GetCash > 0:
				limit = fmt.Sprintf(", taking at least $%d (sealed)", o.GetCash)
			}
			o.GiveCash, o.GetCash = 0, 0
		}
		dollars := func(n int64) string { return fmt.Sprintf("$%d", n) }
		return fmt.Sprintf("%s %s: give %s for %s%s", verb, name(int(o.To)),
			r.DescribeSide(o.GiveSquares, o.GiveCash, o.GiveCards, dollars), r.DescribeSide(o.GetSquares, o.GetCash, o.GetCards, dollars), limit)
	case monopoly.ActMove:
		return "Move to " + sq() + nth(r, a.Arg) + whose(snap, a.Arg, a.Player)
	}
	if l, ok := plainLabels[a.Kind]; ok {
		return l
	}
	return "Answer"
}

// plainLabels are the labels of the answers that say all with one word
// or two.
var plainLabels = map[monopoly.ActionKind]string{
	monopoly.ActRollForDoubles:    "Roll for doubles",
	monopoly.ActDropOut:           "Drop out of the auction",
	monopoly.ActRejectTrade:       "Reject the trade",
	monopoly.ActDeclareBankruptcy: "Declare bankruptcy",
}

// squareName is a square's name, or a word for one off the board.
func squareName(r *monopoly.Rules, sq int) string {
	if sq >= 0 && sq < len(r.Squares) {
		return r.Squares[sq].Name
	}
	return "square " + strconv.Itoa(sq)
}

// nth tells apart squares of one name ("Chance"), which a move to any
// square lists each: " (the 2nd)", or "" for a name the board has once.
func nth(r *monopoly.Rules, sq int) string {
	if sq < 0 || sq >= len(r.Squares) {
		return ""
	}
	n, of := 0, 0
	for i := range r.Squares {
		if r.Squares[i].Name == r.Squares[sq].Name {
			of++
			if i <= sq {
				n++
			}
		}
	}
	if of == 1 {
		return ""
	}
	return " (the " + ordinal(n) + ")"
}

func ordinal(n int) string {
	switch {
	case n%100/10 == 1:
		return strconv.Itoa(n) + "th"
	case n%10 == 1:
		return strconv.Itoa(n) + "st"
	case n%10 == 2:
		return strconv.Itoa(n) + "nd"
	case n%10 == 3:
		return strconv.Itoa(n) + "rd"
	}
	return strconv.Itoa(n) + "th"
}

// whose says who owns the square a move goes to, for the mover.
func whose(snap wire.Snapshot, sq, mover int) string {
	if sq < 0 || sq >= len(snap.Board) || snap.Board[sq].Price == 0 {
		return ""
	}
	s := snap.Board[sq]
	switch {
	case s.Owner < 0:
		return fmt.Sprintf(" (unowned, $%d)", s.Price)
	case s.Owner == mover:
		return " (yours)"
	case s.Mortgaged:
		return " (" + snapshot(snap).playerName(s.Owner) + "'s, mortgaged)"
	}
	return " (" + snapshot(snap).playerName(s.Owner) + "'s)"
}

// goOn is what going on does at d, for a player jailed or not: roll,
// roll again, end the turn, or face the jail turn.
func goOn(d wire.Decision, jailed bool) string {
	switch {
	case d.Phase == monopoly.PhaseAfterRoll && d.RollsAgain:
		return "Roll again (doubles)"
	case d.Phase == monopoly.PhaseAfterRoll:
		return "End your turn"
	case jailed:
		return "Go on to your turn in jail"
	}
	return "Roll the dice"
}

func inJail(snap wire.Snapshot, p int) bool {
	return p >= 0 && p < len(snap.Players) && snap.Players[p].InJail
}

// Waiting says whom the game waits for and for what, for everyone else:
// "Waiting for Bob to decide whether to buy Boardwalk"; "" when the game
// waits for nobody.
func Waiting(d wire.Decision, names []string) string {
	return waiting(d, func(p int) string { return seatName(names, p) })
}

// waiting is Waiting with players named by name.
func waiting(d wire.Decision, name func(int) string) string {
	if d.Kind == monopoly.DecisionNone || d.Player < 0 {
		return ""
	}
	return "Waiting for " + name(d.Player) + " to " + task(d, name)
}

// task is what the decider of d is to do, after "to".
func task(d wire.Decision, name func(int) string) string {
	switch d.Kind {
	case monopoly.DecisionManage:
		if d.Phase == monopoly.PhaseAfterRoll {
			return "decide whether to build or trade before ending the turn"
		}
		return "decide whether to build or trade before rolling"
	case monopoly.DecisionJail:
		return "decide how to get out of jail"
	case monopoly.DecisionBuy:
		return "decide whether to buy " + d.SquareName
	case monopoly.DecisionBid:
		return "bid for " + d.SquareName + " or drop out"
	case monopoly.DecisionTradeResponse:
		return "answer " + name(d.Counterparty) + "'s trade offer"
	case monopoly.DecisionRaiseCash:
		if d.Reason.Purchase() {
			return fmt.Sprintf("raise $%d to pay for %s", d.Amount, d.SquareName)
		}
		return fmt.Sprintf("raise $%d to pay %s", d.Amount, name(d.Counterparty))
	case monopoly.DecisionMortgagedTransfer:
		return "decide about the mortgage on " + d.SquareName
	case monopoly.DecisionMovement:
		return "choose where to move"
	}
	return "decide"
}

// Refusal words a refused answer for the person who gave it: the rule,
// without codes or the engine's particulars, and for an answer to
// another decision the one the game waits for. d is the decision
// pending when it was refused.
func Refusal(ref wire.Refusal, d wire.Decision, names []string) string {
	switch ref.Code {
	case monopoly.RefusalNotAnAnswer.String(), monopoly.RefusalNotYourDecision.String(), "not_waited", "stale_decision":
		if w := Waiting(d, names); w != "" {
			return "That is not an answer now. " + w + "."
		}
		return "That is not an answer now: nobody decides anything."
	case wire.CodeBadAction:
		return "Could not read that: " + plain(stripDecodePrefix(ref.Message), names)
	}
	return capital(plain(ref.Message, names))
}

// InputError words an error reading a person's typed move.
func InputError(err error) string {
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		return capital(plain(err.Error(), nil))
	}
	if strings.HasPrefix(de.Msg, "unknown command") || strings.HasPrefix(de.Msg, "expected a command") {
		return "That is not a move here: answer with an option's number, or type a move (? for help)."
	}
	return "Could not read that: " + plain(de.Msg, nil) + "."
}

// stripDecodePrefix leaves a DecodeError's message without its
// "wire: INPUT: FIELD: " prefix.
func stripDecodePrefix(msg string) string {
	for _, p := range []string{"wire: ", "action: ", "answer: ", "notation: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

var (
	// packagePrefix is a Go package's name heading an error: "session: ".
	packagePrefix = regexp.MustCompile(`\b(wire|notation|agent|session|monopoly|table|render|store): `)
	// zeroSeat is a seat counted from 0, as the engine writes it.
	zeroSeat = regexp.MustCompile(`\bplayer (\d+)\b`)
	// ruleKey is a rules file's key in parentheses: "(counter_offers)".
	ruleKey = regexp.MustCompile(` \([a-z]+(?:_[a-z]+)+\)`)
	// snakeWord is a code word: "pay_fine", "before_roll".
	snakeWord = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)
)

// plain turns a message meant for programmers into one for people:
// package prefixes dropped, seats by name, rules keys left out and code
// words in plain words.
func plain(msg string, names []string) string {
	msg = packagePrefix.ReplaceAllString(msg, "")
	msg = zeroSeat.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(m, "player "))
		return seatName(names, n)
	})
	msg = ruleKey.ReplaceAllString(msg, "")
	return snakeWord.ReplaceAllStringFunc(msg, func(w string) string { return strings.ReplaceAll(w, "_", " ") })
}

// Plain readies a server's error message for people: without the Go
// package prefixes. Unlike a refusal's words it keeps the rest as it is
// (a rules file's name and field names as they are typed), since the
// person has to find them in the file.
func Plain(msg string) string {
	return packagePrefix.ReplaceAllString(msg, "")
}

// capital starts a sentence with a capital letter.
func capital(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// CannotBuy explains a purchase the rules skip: who lands on a square
// it cannot pay for, which goes to auction (7.4).
func CannotBuy(who, square string, price, cash int) string {
	return fmt.Sprintf("%s can't afford %s (%s, has %s): it goes to auction", who, square, money(price), money(cash))
}

// CannotBid explains a bidder the rules drop from an auction: its cash
// does not top the high bid (8.3).
func CannotBid(who string, high, cash int) string {
	return fmt.Sprintf("%s drops out of the auction: %s can't top the high bid of %s", who, money(cash), money(high))
}
