package wire

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gopoly/gopoly/internal/weakcache"
	"github.com/gopoly/gopoly/monopoly"
)

// Notation reads and writes actions as short commands for people and
// language models: "bid 120", "build Boardwalk", `mortgage "St. Charles
// Place"`, "propose Cat give Boardwalk +$100 get Park Place". Rules
// resolve square and deck names; Names, by seat, the players named in
// trades (seat numbers always work).
//
// The forms, with their aliases:
//
//	continue (roll, end, done)      go on: roll, roll again, or end the turn
//	build SQUARE                    one house or a hotel
//	sell SQUARE (sell_building)     one building
//	mortgage SQUARE
//	unmortgage SQUARE               lift a mortgage you hold
//	pay_fine (pay_jail_fine)        leave jail paying the fine
//	use_card [DECK] (use_jail_card) leave jail with a Get Out of Jail Free card
//	roll_doubles (roll_for_doubles) try for doubles in jail
//	buy
//	auction (decline)               do not buy: the property goes to auction
//	bid AMOUNT
//	pass (drop, drop_out)           drop out of the auction
//	accept [LIMIT] (accept_trade)   LIMIT: sealed deals' least net cash taken (negative: most paid)
//	reject (reject_trade)
//	bankrupt (declare_bankruptcy)
//	keep (keep_mortgaged)           keep a received property mortgaged
//	lift_mortgage (lift)            lift the mortgage on a received property now
//	propose PLAYER [give ITEMS] [get ITEMS] (propose_trade)
//	counter PLAYER [give ITEMS] [get ITEMS] (counter_trade)
//	move SQUARE (move_to)           after the speed die's Bus or triples: where to
//
// Command words and names ignore case. A SQUARE is a name, quoted or not
// (an unambiguous beginning will do: "boardw"), or an index; a PLAYER a
// name or a seat number; an AMOUNT a whole number, "$" allowed. ITEMS
// are squares, cash as $100 or +$100, and jail_card DECK, optionally
// separated by commas; unquoted names of several words are matched
// against the board, longest first.
type Notation struct {
	Rules *monopoly.Rules // the board and decks names resolve against
	Names []string        // players' names by seat; may be short or nil
}

// commands maps each command word and alias to its action kind.
var commands = map[string]monopoly.ActionKind{
	"continue": monopoly.ActContinue, "roll": monopoly.ActContinue, "end": monopoly.ActContinue, "done": monopoly.ActContinue,
	"build": monopoly.ActBuild,
	"sell":  monopoly.ActSellBuilding, "sell_building": monopoly.ActSellBuilding,
	"mortgage":   monopoly.ActMortgage,
	"unmortgage": monopoly.ActUnmortgage,
	"propose":    monopoly.ActProposeTrade, "propose_trade": monopoly.ActProposeTrade,
	"pay_fine": monopoly.ActPayJailFine, "pay_jail_fine": monopoly.ActPayJailFine,
	"use_card": monopoly.ActUseJailCard, "use_jail_card": monopoly.ActUseJailCard,
	"roll_doubles": monopoly.ActRollForDoubles, "roll_for_doubles": monopoly.ActRollForDoubles,
	"buy":     monopoly.ActBuy,
	"auction": monopoly.ActDecline, "decline": monopoly.ActDecline,
	"bid":  monopoly.ActBid,
	"pass": monopoly.ActDropOut, "drop": monopoly.ActDropOut, "drop_out": monopoly.ActDropOut,
	"accept": monopoly.ActAcceptTrade, "accept_trade": monopoly.ActAcceptTrade,
	"reject": monopoly.ActRejectTrade, "reject_trade": monopoly.ActRejectTrade,
	"bankrupt": monopoly.ActDeclareBankruptcy, "declare_bankruptcy": monopoly.ActDeclareBankruptcy,
	"keep": monopoly.ActKeepMortgaged, "keep_mortgaged": monopoly.ActKeepMortgaged,
	"lift_mortgage": monopoly.ActLiftMortgage, "lift": monopoly.ActLiftMortgage,
	"counter": monopoly.ActCounterTrade, "counter_trade": monopoly.ActCounterTrade,
	"move": monopoly.ActMove, "move_to": monopoly.ActMove,
}

// canonical is the command word Format writes for each kind.
var canonical = [...]string{
	monopoly.ActContinue: "continue", monopoly.ActBuild: "build", monopoly.ActSellBuilding: "sell",
	monopoly.ActMortgage: "mortgage", monopoly.ActUnmortgage: "unmortgage", monopoly.ActProposeTrade: "propose",
	monopoly.ActPayJailFine: "pay_fine", monopoly.ActUseJailCard: "use_card", monopoly.ActRollForDoubles: "roll_doubles",
	monopoly.ActBuy: "buy", monopoly.ActDecline: "auction", monopoly.ActBid: "bid", monopoly.ActDropOut: "pass",
	monopoly.ActAcceptTrade: "accept", monopoly.ActRejectTrade: "reject", monopoly.ActDeclareBankruptcy: "bankrupt",
	monopoly.ActKeepMortgaged: "keep", monopoly.ActLiftMortgage: "lift_mortgage", monopoly.ActCounterTrade: "counter",
	monopoly.ActMove: "move",
}

// Words of trades; a name that is one of them is quoted.
const (
	wordGive     = "give"
	wordGet      = "get"
	wordJailCard = "jail_card"
)

// token is a word of notation.
type token struct {
	text   string
	quoted bool
	comma  bool
	word   int // its number, from 1, for errors
}

// stop reports whether t ends a run of words that may form a name.
func (t token) stop() bool {
	if t.quoted || t.comma {
		return true
	}
	l := strings.ToLower(t.text)
	return l == wordGive || l == wordGet || l == wordJailCard || strings.HasPrefix(t.text, "$") || strings.HasPrefix(t.text, "+")
}

func tokenize(s string) ([]token, error) {
	var toks []token
	word := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == ',':
			toks = append(toks, token{text: ",", comma: true, word: word})
			i++
		case c == '"':
			word++
			var b strings.Builder
			i++
			closed := false
			for i < len(s) {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					b.WriteByte(s[i+1])
					i += 2
					continue
				}
				if s[i] == '"' {
					closed = true
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			if !closed {
				return nil, &DecodeError{Input: "notation", Field: fmt.Sprintf("word %d", word), Msg: "a quote is not closed"}
			}
			toks = append(toks, token{text: b.String(), quoted: true, word: word})
		default:
			word++
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r,\"", rune(s[j])) {
				j++
			}
			toks = append(toks, token{text: s[i:j], word: word})
			i = j
		}
	}
	return toks, nil
}

// parser reads one action from tokens.
type parser struct {
	n    Notation
	toks []token
	pos  int
	a    monopoly.Action
}

func (p *parser) fail(format string, args ...any) error {
	field := "end"
	if p.pos < len(p.toks) {
		field = fmt.Sprintf("word %d", p.toks[p.pos].word)
	}
	return &DecodeError{Input: "notation", Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) done() bool { return p.pos >= len(p.toks) }

// got describes the token at the parser's position, for errors.
func (p *parser) got() string {
	if p.done() {
		return "the end"
	}
	return strconv.Quote(p.toks[p.pos].text)
}

func (p *parser) end() error {
	if !p.done() {
		return p.fail("expected the end after %s, got %s", canonical[p.a.Kind], p.got())
	}
	return nil
}

// Parse reads one action answered by seat player. A malformed command is
// a *DecodeError naming the word where it went wrong and what was
// expected there; a well-formed one may still be illegal (View.Check).
func (n Notation) Parse(player int, s string) (monopoly.Action, error) {
	toks, err := tokenize(s)
	if err != nil {
		return monopoly.Action{}, err
	}
	p := &parser{n: n, toks: toks}
	if p.done() {
		return monopoly.Action{}, p.fail("expected a command such as continue, buy, bid 120 or build Boardwalk, got nothing")
	}
	t := toks[0]
	k, ok := commands[strings.ToLower(t.text)]
	if !ok || t.quoted || t.comma {
		return monopoly.Action{}, p.fail("unknown command %q (expected one of %s)", t.text, strings.Join(canonical[1:], ", "))
	}
	p.pos = 1
	p.a = monopoly.Action{Kind: k, Player: player}
	switch actionSpecs[k].key {
	case keyNone:
		if k == monopoly.ActLiftMortgage && !p.done() {
			return monopoly.Action{}, p.fail("lift_mortgage takes nothing: it answers for a mortgaged property just received; to lift a mortgage you hold, use unmortgage SQUARE")
		}
	case keySquare:
		p.a.Arg, err = p.square(true)
	case keyAmount:
		p.a.Arg, err = p.amount(false)
	case keyLimit:
		if !p.done() {
			p.a.Arg, err = p.amount(true)
		}
	case keyDeck:
		p.a.Arg = -1
		if !p.done() {
			p.a.Arg, err = p.deck()
		}
	case keyOffer:
		p.a.Offer, err = p.offer(player)
	}
	if err == nil {
		err = p.end()
	}
	if err != nil {
		return monopoly.Action{}, err
	}
	return p.a, nil
}

// amount reads a whole number with an optional "$" (and, when signed,
// a sign before it: -$50).
func (p *parser) amount(signed bool) (int, error) {
	if p.done() || p.toks[p.pos].quoted || p.toks[p.pos].comma {
		return 0, p.fail("expected an amount such as 120 after %s, got %s", canonical[p.a.Kind], p.got())
	}
	s := p.toks[p.pos].text
	neg := false
	if signed && (strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+")) {
		neg = s[0] == '-'
		s = s[1:]
	}
	s = strings.TrimPrefix(s, "$")
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || s == "" || s[0] == '+' || s[0] == '-' {
		return 0, p.fail("expected an amount such as 120 after %s, got %s", canonical[p.a.Kind], p.got())
	}
	if neg {
		v = -v
	}
	p.pos++
	return int(v), nil
}

// square reads a square: a quoted name, an index, or unquoted words
// matched against the board longest first (all remaining words when
// rest, up to the next trade word otherwise).
func (p *parser) square(rest bool) (int, error) {
	r := p.n.Rules
	if p.done() || p.toks[p.pos].comma {
		return -1, p.fail("expected a square (a name such as Boardwalk, or an index) after %s, got %s", canonical[p.a.Kind], p.got())
	}
	t := p.toks[p.pos]
	if t.quoted {
		sq, err := matchSquare(r, t.text)
		if err != nil {
			return -1, p.fail("%v", err)
		}
		p.pos++
		return sq, nil
	}
	if isDigits(t.text) {
		v, _ := strconv.ParseInt(t.text, 10, 64)
		sq, err := squareIndex(r, v)
		if err != nil {
			return -1, p.fail("%v", err)
		}
		p.pos++
		return sq, nil
	}
	end := p.pos
	for end < len(p.toks) && (end == p.pos || rest || !p.toks[end].stop()) && !p.toks[end].quoted && !p.toks[end].comma {
		end++
	}
	// All the rest must be the name when it is the last argument: a
	// shorter match would only leave words over.
	shortest := p.pos + 1
	if rest {
		shortest = end
	}
	var firstErr error
	for k := end; k >= shortest; k-- {
		words := make([]string, 0, k-p.pos)
		for _, w := range p.toks[p.pos:k] {
			words = append(words, w.text)
		}
		sq, err := matchSquare(r, strings.Join(words, " "))
		if err == nil {
			p.pos = k
			return sq, nil
		}
		if firstErr == nil || !isUnknown(err) {
			firstErr = err
		}
		if !isUnknown(err) {
			break // ambiguous: fewer words are no less so
		}
	}
	return -1, p.fail("%v", firstErr)
}

// matchSquare finds the square named s, ignoring case: its full name, or
// failing that a beginning of exactly one name.
func matchSquare(r *monopoly.Rules, s string) (int, error) {
	sq, err := squareByName(r, s)
	if !isUnknown(err) {
		return sq, err
	}
	found := -1
	var names []string
	for i := range r.Squares {
		name := r.Squares[i].Name
		if s == "" || !hasPrefixFold(name, s) || slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) }) {
			continue // not a match, or the same name again: its squares need an index
		}
		if found < 0 {
			found = i
		}
		names = append(names, name)
	}
	switch {
	case len(names) == 1:
		if !squareUnique(r, found) {
			return -1, fmt.Errorf("square name %q is ambiguous (squares %s): give the index", r.Squares[found].Name, indexesNamed(r, r.Squares[found].Name))
		}
		return found, nil
	case len(names) > 1:
		return -1, fmt.Errorf("%q is ambiguous: it begins %s", s, quoteList(names))
	}
	return -1, err
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func isDigits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// deck reads a deck by name (any case) or index.
func (p *parser) deck() (int, error) {
	r := p.n.Rules
	if p.done() || p.toks[p.pos].comma {
		return -1, p.fail("expected a deck such as %s, got %s", deckExample(r), p.got())
	}
	t := p.toks[p.pos]
	var d int
	var err error
	if isDigits(t.text) && !t.quoted {
		v, _ := strconv.ParseInt(t.text, 10, 64)
		d, err = deckIndex(r, v)
	} else {
		d, err = deckByName(r, t.text)
	}
	if err != nil {
		return -1, p.fail("%v", err)
	}
	p.pos++
	return d, nil
}

func deckExample(r *monopoly.Rules) string {
	if len(r.Decks) > 0 {
		return r.Decks[0].Name
	}
	return "chance"
}

// offer reads PLAYER [give ITEMS] [get ITEMS].
func (p *parser) offer(player int) (*monopoly.TradeOffer, error) {
	o := &monopoly.TradeOffer{From: int8(player)}
	to, err := p.player()
	if err != nil {
		return nil, err
	}
	o.To = int8(to)
	sides := 0
	for !p.done() {
		w := strings.ToLower(p.toks[p.pos].text)
		q := p.toks[p.pos].quoted
		switch {
		case !q && w == wordGive && sides&1 == 0:
			sides |= 1
			p.pos++
			if err := p.items(&o.GiveSquares, &o.GiveCash, &o.GiveCards); err != nil {
				return nil, err
			}
		case !q && w == wordGet && sides&2 == 0:
			sides |= 2
			p.pos++
			if err := p.items(&o.GetSquares, &o.GetCash, &o.GetCards); err != nil {
				return nil, err
			}
		default:
			return nil, p.fail("expected give or get (each once), got %s", p.got())
		}
	}
	return o, nil
}

// player reads a seat: its number, or its name (quoted, or the words
// before give or get).
func (p *parser) player() (int, error) {
	if p.done() || p.toks[p.pos].comma {
		return -1, p.fail("expected a player (a name or a seat number) after %s, got %s", canonical[p.a.Kind], p.got())
	}
	t := p.toks[p.pos]
	if !t.quoted && isDigits(t.text) {
		v, _ := strconv.Atoi(t.text)
		if v >= monopoly.MaxPlayers {
			return -1, p.fail("no seat %d", v)
		}
		p.pos++
		return v, nil
	}
	end := p.pos + 1
	if !t.quoted {
		for end < len(p.toks) && !p.toks[end].quoted && !p.toks[end].comma {
			l := strings.ToLower(p.toks[end].text)
			if l == wordGive || l == wordGet {
				break
			}
			end++
		}
	}
	// Longest first, as for squares: a name of several words is read
	// whole, and a word after a one-word name is left for what follows.
	for k := end; k > p.pos; k-- {
		words := make([]string, 0, k-p.pos)
		for _, w := range p.toks[p.pos:k] {
			words = append(words, w.text)
		}
		name := strings.Join(words, " ")
		seat, n := -1, 0
		for i, nm := range p.n.Names {
			if strings.EqualFold(nm, name) {
				seat, n = i, n+1
			}
		}
		if n > 1 {
			return -1, p.fail("player name %q is ambiguous: give the seat number", name)
		}
		if n == 1 {
			p.pos = k
			return seat, nil
		}
	}
	known := "players are named by seat number here"
	if len(p.n.Names) > 0 {
		known = "players: " + quoteList(p.n.Names) + ", or a seat number"
	}
	return -1, p.fail("unknown player %q (%s)", t.text, known)
}

// items reads one side of a trade up to the next give/get or the end.
func (p *parser) items(squares *uint64, cash *int64, cards *uint8) error {
	r := p.n.Rules
	before := p.pos
	cashSeen := false
	for !p.done() {
		t := p.toks[p.pos]
		l := strings.ToLower(t.text)
		switch {
		case t.comma:
			p.pos++
			continue
		case !t.quoted && (l == wordGive || l == wordGet):
			if p.pos == before {
				return p.fail("expected squares, cash or jail cards, got %s", p.got())
			}
			return nil
		case !t.quoted && (strings.HasPrefix(t.text, "$") || strings.HasPrefix(t.text, "+$")):
			s := strings.TrimPrefix(strings.TrimPrefix(t.text, "+"), "$")
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || !isDigitsAny(s) {
				return p.fail("expected cash such as $100, got %s", p.got())
			}
			if cashSeen {
				return p.fail("cash given twice on one side")
			}
			cashSeen = true
			*cash = v
			p.pos++
		case !t.quoted && l == wordJailCard:
			p.pos++
			d, err := p.deck()
			if err != nil {
				return err
			}
			b := nextJailCard(r, d, *cards)
			if b < 0 {
				p.pos--
				return p.fail("deck %s has no (more) Get Out of Jail Free cards", r.Decks[d].Name)
			}
			*cards |= 1 << b
		default:
			at := p.pos
			sq, err := p.square(false)
			if err != nil {
				return err
			}
			if *squares&(1<<sq) != 0 {
				p.pos = at
				return p.fail("%s is listed twice", r.Squares[sq].Name)
			}
			*squares |= 1 << sq
		}
	}
	if p.pos == before {
		return p.fail("expected squares, cash or jail cards, got %s", p.got())
	}
	return nil
}

func isDigitsAny(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Format writes an action in the canonical notation: the first command
// word of each kind, squares by name (by index where the board repeats
// the name), names quoted where they hold spaces or could run into the
// next word, players by name where Names has a unique one. Parse reads it
// back as the same action. An action that cannot be written (no kind, a
// square off the board, negative cash) is written in a form Parse
// refuses.
func (n Notation) Format(a monopoly.Action) string {
	if _, ok := spec(a.Kind); !ok {
		return "?" + a.Kind.String()
	}
	var b strings.Builder
	b.WriteString(canonical[a.Kind])
	switch actionSpecs[a.Kind].key {
	case keySquare:
		b.WriteByte(' ')
		b.WriteString(n.square(a.Arg))
	case keyAmount:
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(a.Arg))
	case keyLimit:
		if a.Arg != 0 || n.Rules.DealProtocol == monopoly.DealsSealed {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(a.Arg))
		}
	case keyDeck:
		if a.Arg != -1 {
			b.WriteByte(' ')
			if a.Arg >= 0 && a.Arg < len(n.Rules.Decks) {
				b.WriteString(quoteIfNeeded(n.Rules.Decks[a.Arg].Name, false))
			} else {
				b.WriteString("?" + strconv.Itoa(a.Arg))
			}
		}
	case keyOffer:
		if a.Offer == nil {
			b.WriteString(" ?")
			break
		}
		o := a.Offer
		b.WriteByte(' ')
		b.WriteString(n.player(int(o.To)))
		n.side(&b, wordGive, o.GiveSquares, o.GiveCash, o.GiveCards)
		n.side(&b, wordGet, o.GetSquares, o.GetCash, o.GetCards)
	}
	return b.String()
}

func (n Notation) side(b *strings.Builder, word string, squares uint64, cash int64, cards uint8) {
	if squares == 0 && cash == 0 && cards == 0 {
		return
	}
	b.WriteString(" " + word)
	for m := squares; m != 0; m &= m - 1 {
		b.WriteByte(' ')
		b.WriteString(n.square(bits.TrailingZeros64(m)))
	}
	if cash != 0 {
		b.WriteString(" $" + strconv.FormatInt(cash, 10))
	}
	keep, nkeep := keepDecks(n.Rules)
	for m := cards; m != 0; m &= m - 1 {
		bit := bits.TrailingZeros8(m)
		if bit >= nkeep {
			b.WriteString(" " + wordJailCard + " ?")
			continue
		}
		b.WriteString(" " + wordJailCard + " " + quoteIfNeeded(n.Rules.Decks[keep[bit]].Name, false))
	}
}

// square writes a square so that it reads back as itself.
func (n Notation) square(sq int) string {
	r := n.Rules
	if sq < 0 || sq >= len(r.Squares) {
		return "?" + strconv.Itoa(sq)
	}
	return squareWords(r)[sq]
}

// squareWords are the squareWord of every square of r, computed once per
// rules: options write several at every decision, and each compares the
// square's name with every other.
func squareWords(r *monopoly.Rules) []string {
	return squareWordCache.Get(r, func(r *monopoly.Rules) []string {
		w := make([]string, len(r.Squares))
		for sq := range w {
			w[sq] = squareWord(r, sq)
		}
		return w
	})
}

var squareWordCache weakcache.Cache[monopoly.Rules, []string]

// squareWord writes square sq of r so that it reads back as itself.
func squareWord(r *monopoly.Rules, sq int) string {
	name := r.Squares[sq].Name
	if !squareUnique(r, sq) || name == "" {
		return strconv.Itoa(sq)
	}
	// A single word runs into the next square's when together they begin
	// a name: then it is quoted.
	runsOn := false
	for i := range r.Squares {
		if other := r.Squares[i].Name; hasPrefixFold(other, name) { // first without the allocation
			runsOn = runsOn || hasPrefixFold(other, name+" ")
		}
	}
	return quoteIfNeeded(name, runsOn)
}

// player writes a seat: its name when Names gives one that reads back
// as the seat, else its number.
func (n Notation) player(seat int) string {
	if seat < 0 || seat >= len(n.Names) {
		return strconv.Itoa(seat)
	}
	name := n.Names[seat]
	if name == "" || isDigits(name) {
		return strconv.Itoa(seat)
	}
	for i, other := range n.Names {
		if i != seat && strings.EqualFold(other, name) {
			return strconv.Itoa(seat)
		}
	}
	return quoteIfNeeded(name, strings.ContainsAny(name, " \t"))
}

// quoteIfNeeded quotes s when it would not read back as one plain word.
func quoteIfNeeded(s string, force bool) string {
	l := strings.ToLower(s)
	if force || s == "" || strings.ContainsAny(s, " \t\n\r,\"\\") || strings.HasPrefix(s, "$") || strings.HasPrefix(s, "+") ||
		strings.HasPrefix(s, "-") || isDigitsAny(s) || l == wordGive || l == wordGet || l == wordJailCard {
		return `"` + quoteEscaper.Replace(s) + `"`
	}
	return s
}

var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// hasPrefixFold reports whether s begins with prefix, ignoring case as
// strings.ToLower does, without lowering whole names in the common ASCII
// case.
func hasPrefixFold(s, prefix string) bool {
	// Bytewise while both are ASCII (the common case, and no allocation):
	// a difference there is final, since lower-casing what came before
	// kept every byte in place.
	for i := range len(prefix) {
		if i >= len(s) || s[i] >= utf8.RuneSelf || prefix[i] >= utf8.RuneSelf {
			if isASCII(s) && isASCII(prefix) {
				return false
			}
			return strings.HasPrefix(strings.ToLower(s), strings.ToLower(prefix))
		}
		if lowerASCII(s[i]) != lowerASCII(prefix[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
