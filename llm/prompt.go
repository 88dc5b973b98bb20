package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// The prompt has the six sections of 001 §4. PERSONALITY and RULES are
// the system prompt, the same at every call of a game (which lets the
// providers cache them); CONTEXT, PUBLIC_HISTORY, PRIVATE_HISTORY and
// DECISION are the user message of each decision.

// LegalHeader begins the block of the DECISION section that lists the
// legal answers, one action JSON a line after "- " (llmtest's fake
// player reads it).
const LegalHeader = "Legal answers now"

// Prompt is one decision's prompt, by section.
type Prompt struct {
	Personality, Rules, Context, Public, Private, Decision string
}

// System returns the system prompt: PERSONALITY and RULES.
func (p Prompt) System() string {
	return "[PERSONALITY]\n" + p.Personality + "\n\n[RULES]\n" + p.Rules
}

// User returns the user message: the other four sections.
func (p Prompt) User() string {
	return "[CONTEXT]\n" + p.Context + "\n\n[PUBLIC_HISTORY]\n" + p.Public +
		"\n\n[PRIVATE_HISTORY]\n" + p.Private + "\n\n[DECISION]\n" + p.Decision
}

// Table is who sits at a game: names and what plays each seat, by seat.
type Table struct {
	Names   []string
	Players []string
}

func (t Table) name(p int) string {
	if p >= 0 && p < len(t.Names) && t.Names[p] != "" {
		return t.Names[p]
	}
	return fmt.Sprintf("player %d", p)
}

// personalitySection is the persona's text with the table it sits at:
// 001's appendix A, its opponents named as this table names them.
func personalitySection(p Persona, seat int, t Table, players int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are %s, playing as %s (seat %d) in a %d-player Monopoly game.\n\n", strings.ToUpper(p.Name), t.name(seat), seat, players)
	b.WriteString(p.Text)
	b.WriteString("\n\nOPPONENTS:\n")
	for s := range players {
		if s == seat {
			continue
		}
		player := ""
		if s < len(t.Players) {
			player = t.Players[s]
		}
		fmt.Fprintf(&b, "- %s, seat %d (%s)\n", t.name(s), s, traitsOf(player))
	}
	if p.Closing != "" {
		b.WriteString("\n" + p.Closing)
	}
	return strings.TrimRight(b.String(), "\n")
}

// rulesSection describes the rules this game is played by, from the
// rules themselves, so that every variant reads as it plays.
func rulesSection(r *monopoly.Rules, players int) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, "- "+format+"\n", args...) }
	fmt.Fprintf(&b, "You are playing Monopoly with %d players. The rules of this game:\n", players)
	line("You start with $%d. Passing or landing on GO pays $%d.", r.StartingCash, r.GoSalary)
	if r.Auctions {
		line("You may buy an unowned property you land on at its price; if you decline, it goes to auction, where everyone may bid.")
	} else {
		line("You may buy an unowned property you land on at its price; if you decline, it stays unowned (no auctions in this game).")
	}
	if r.RaiseToBuy {
		line("You may buy, or bid, beyond your cash, up to what selling your buildings and mortgaging your properties would raise; you then raise the rest before you pay.")
	}
	line("Owning a whole colour group lets you build: houses cost the group's house price, built evenly (no street more than one house ahead of another in its group); the fifth level is a hotel. The bank holds %d houses and %d hotels; when they run out, nobody can build.", r.MaxHouses, r.MaxHotels)
	line("Building happens on your own turn, before or after your roll. Buildings sell back for half their cost.")
	if r.MortgagedGroupDoubleRent {
		line("Rent doubles on the unbuilt streets of a whole colour group, even when one of them is mortgaged.")
	} else {
		line("Rent doubles on the unbuilt streets of a whole colour group while none of them is mortgaged.")
	}
	if r.MortgagedRailroadsCount {
		line("Mortgaged railroads still count towards the rent of your other railroads.")
	}
	line("A mortgage pays half the price of the property; a mortgaged property collects no rent; lifting the mortgage costs the mortgage plus %d%%. A property received mortgaged in a trade costs that %d%% at once, or the lifting of its mortgage.", r.MortgageInterestPercent, r.MortgageInterestPercent)
	line("Jail: pay $%d, use a Get Out of Jail Free card, or roll for doubles; after %d failed rolls you must pay and move.", r.JailFine, r.JailTurns)
	if r.FreeParkingJackpot {
		line("Free Parking jackpot: taxes and fines go into a pot that the next player to land on Free Parking collects.")
	}
	if r.IncomeTax == monopoly.IncomeTaxLesser {
		line("Income tax is the lesser of its flat amount and a share of your total assets: cash, properties at their printed price and buildings at their cost.")
	}
	if r.SpeedDie {
		line("The speed die (Hasbro's standard edition) is thrown with the white dice once you have passed GO: a number adds to the move; Mr. Monopoly moves you on, after your square is settled, to the next unowned property (or the next one where you owe rent); the Bus lets you move by either white die or by both (a movement decision); triples let you move to any square (a movement decision) and end your roll.")
	}
	perPhase := fmt.Sprintf("%d", r.TradesPerPhase)
	switch r.DealProtocol {
	case monopoly.DealsSealed:
		line("Trades are sealed deals: a proposal names the properties and Get Out of Jail Free cards each way and one cash limit (the most you pay, or the least you take). The other player sees the properties, not your cash, and accepts with a limit of its own or rejects; if the limits meet, the cash changes hands at the midpoint between them. You may propose up to %s trades before your roll and as many after.", perPhase)
	default:
		line("Trades are open offers of properties (without buildings in their group), cash and Get Out of Jail Free cards, each way, to one other player, during your turn (up to %s proposals before your roll and as many after) or while you raise cash. Everyone hears every proposal; your public speech is your pitch.", perPhase)
		if r.CounterOffers > 0 {
			line("The player offered a trade may accept, reject, or answer with a counter-offer; up to %d counter-offers per negotiation.", r.CounterOffers)
		} else {
			line("The player offered a trade accepts or rejects it; there are no counter-offers.")
		}
	}
	line("A debt you cannot pay in cash must be raised by selling buildings, mortgaging or trading; if you still cannot pay, you are bankrupt and out.")
	if r.MaxRounds > 0 {
		worth := "cash, properties at their printed price, mortgaged ones at their mortgage value, and buildings at their cost"
		if r.NetWorth == monopoly.NetWorthResale {
			worth = "what each could raise: cash, unmortgaged properties at their mortgage value, and buildings at half their cost"
		}
		line("The game ends after %d rounds if it has not ended before: then the richest player by net worth wins, counting %s. Otherwise the last player not bankrupt wins.", r.MaxRounds, worth)
	} else {
		line("The last player not bankrupt wins.")
	}
	return strings.TrimRight(b.String(), "\n")
}

// answerSchema is the schema the model answers by: the wire's schema of
// the decision's actions, with the two words 001 asks for required.
// oneOf becomes anyOf, which every provider's schema dialect accepts.
func answerSchema(k monopoly.DecisionKind) map[string]any {
	var ws map[string]any
	if err := json.Unmarshal(wire.Schema(k), &ws); err != nil {
		panic(err) // the wire's schemas are tested JSON
	}
	props, _ := ws["properties"].(map[string]any)
	action := anyOf(props["action"])
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"action":          action,
			"public_speech":   map[string]any{"type": "string", "description": "what you say out loud at the table, in character, under 30 words; a proposal's pitch"},
			"private_thought": map[string]any{"type": "string", "description": "your private strategic reasoning, 2-3 sentences: nobody else sees it"},
		},
		"required":             []any{"action", "public_speech", "private_thought"},
		"additionalProperties": false,
	}
}

// anyOf rewrites oneOf as anyOf throughout a schema: the action kinds
// exclude each other by their "kind" anyway.
func anyOf(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if k == "oneOf" {
				k = "anyOf"
			}
			out[k] = anyOf(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = anyOf(x)
		}
		return out
	}
	return v
}

// summarySchema is the answer of a summary call.
var summarySchema = map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"summary": map[string]any{"type": "string"}},
	"required":             []any{"summary"},
	"additionalProperties": false,
}

// decisionSection asks for the decision: what it is, what the rules
// allow, the legal answers, and the form of the answer.
func decisionSection(v monopoly.View, t Table, lastSpeech string) string {
	d := wire.NewDecision(v)
	o := wire.NewOptions(v)
	r := v.Rules()
	me := v.Me()
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("You must now decide: %s", d.Kind)
	line("%s", render.DecisionOf(v, t.Names))
	line("Your cash: $%d.", v.Cash(me))
	switch d.Kind {
	case monopoly.DecisionManage:
		line("Answer one action at a time: you are asked again after each, until you answer continue. Build with {\"kind\":\"build\",\"square\":N}, sell with sell_building, mortgage, unmortgage (lift a mortgage), or propose a trade (below).")
	case monopoly.DecisionJail:
		line("You are in jail (%d failed rolls so far of %d). The fine is $%d; you hold %d Get Out of Jail Free cards.", v.JailTurns(me), r.JailTurns, r.JailFine, v.JailCardCount(me))
		if v.JailTurns(me) == r.JailTurns-1 {
			line("This is your last roll: if it fails you must pay the fine.")
		}
	case monopoly.DecisionBuy:
		sq := &r.Squares[d.Square]
		line("%s costs $%d.", sq.Name, d.Amount)
		if sq.Group >= 0 {
			g := &r.Groups[sq.Group]
			var parts []string
			for _, s := range g.Squares {
				owner := "unowned"
				switch o := v.Owner(s); {
				case o == me:
					owner = "yours"
				case o >= 0:
					owner = t.name(o)
				}
				parts = append(parts, fmt.Sprintf("%s (%s)", r.Squares[s].Name, owner))
			}
			line("Its colour group %s: %s. Houses there cost $%d.", g.Name, strings.Join(parts, ", "), g.HouseCost)
		}
		if r.Auctions {
			line("Answer buy, or decline to send it to auction.")
		} else {
			line("Answer buy, or decline to leave it unowned.")
		}
	case monopoly.DecisionBid:
		if o.Bid != nil {
			line("A bid must be from $%d to $%d: {\"kind\":\"bid\",\"amount\":N}; drop_out leaves the auction.", o.Bid.Min, o.Bid.Max)
		}
	case monopoly.DecisionTradeResponse:
		if lastSpeech != "" {
			line("Their pitch: %q", lastSpeech)
		}
		if o.Accept != nil {
			line("This is a sealed deal: accept with your own limit, {\"kind\":\"accept_trade\",\"limit\":N}, N from %d to %d (%s); the deal happens if the limits meet, at the midpoint.", o.Accept.Min, o.Accept.Max, o.Accept.Meaning)
		}
	case monopoly.DecisionRaiseCash:
		line("Raise the cash by selling buildings, mortgaging or trading; declare_bankruptcy only when nothing else is left.")
	case monopoly.DecisionMortgagedTransfer:
		line("keep_mortgaged pays the fee now; lift_mortgage pays off the mortgage and the fee (%s).", fmt.Sprintf("$%d", r.UnmortgageCost(d.Square)))
	case monopoly.DecisionMovement:
		line("Answer {\"kind\":\"move\",\"square\":N} with one of the squares listed.")
	}
	if o.Trade != nil {
		tradeOptions(&b, o.Trade, r, t)
	}
	line("Answer with a JSON object: \"action\" (one action object), \"public_speech\" (what you say at the table, in character, under 30 words) and \"private_thought\" (your reasoning, 2-3 sentences).")
	b.WriteString("\n" + LegalHeader + " (one per line, as action JSON; a bid or a trade may name other amounts within the bounds given):\n")
	for i, a := range o.Actions {
		line("- %s   (%s)", a, o.Notation[i])
	}
	return strings.TrimRight(b.String(), "\n")
}

// tradeOptions writes what a trade may hold now.
func tradeOptions(b *strings.Builder, to *wire.TradeOptions, r *monopoly.Rules, t Table) {
	verb := "propose"
	if to.Kind == monopoly.ActCounterTrade {
		verb = fmt.Sprintf("answer with a counter-offer (%d left in this negotiation)", to.CountersLeft)
	} else {
		verb = fmt.Sprintf("propose a trade (%d proposals left)", to.ProposalsLeft)
	}
	fmt.Fprintf(b, "You may %s: {\"kind\":%q,\"offer\":{\"to\":SEAT,\"give\":{\"squares\":[...],\"cash\":N,\"jail_cards\":[DECK]},\"get\":{...}}}.\n", verb, to.Kind.String())
	if to.Sealed {
		fmt.Fprintf(b, "Sealed deal: %s\n", to.Limits)
	}
	fmt.Fprintf(b, "  You may give: %s.\n", sideText(to.Give))
	for _, p := range to.Partners {
		fmt.Fprintf(b, "  %s (seat %d) may give: %s.\n", t.name(p.Seat), p.Seat, sideText(p.Get))
	}
}

func sideText(s wire.TradeSide) string {
	cash := ""
	if s.MaxCash > 0 {
		cash = fmt.Sprintf("cash up to $%d", s.MaxCash)
	}
	return render.Holdings(s.SquareNames, cash, s.JailCards)
}

// contextSection is the board as the seat sees it.
func contextSection(v monopoly.View, t Table) string {
	s := wire.ViewSnapshot(v, t.Names)
	s.Options = nil // the decision section lists them
	return strings.TrimRight(render.Text(s), "\n")
}

// estimateTokens is the budgets' measure: four characters a token.
func estimateTokens(s string) int { return (len(s) + 3) / 4 }

// fit cuts text to a budget of tokens: keepEnd keeps the last lines
// (histories: the newest), otherwise the first. A cut is marked.
func fit(text string, budget int, keepEnd bool) string {
	if budget <= 0 || estimateTokens(text) <= budget {
		return text
	}
	lines := strings.Split(text, "\n")
	for len(lines) > 1 && estimateTokens(strings.Join(lines, "\n"))+4 > budget {
		if keepEnd {
			lines = lines[1:]
		} else {
			lines = lines[:len(lines)-1]
		}
	}
	out := strings.Join(lines, "\n")
	if max := budget * 4; len(out) > max {
		if keepEnd {
			out = out[len(out)-max:]
		} else {
			out = out[:max]
		}
	}
	if keepEnd {
		return "(earlier lines cut)\n" + out
	}
	return out + "\n(cut)"
}
