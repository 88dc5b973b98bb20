package wire

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
)

// keyType is the argument key an action kind takes besides "kind" (and
// the optional "player"). No kind takes more than one.
type keyType uint8

const (
	keyNone   keyType = iota
	keySquare         // "square": required; an index or a name
	keyAmount         // "amount": required integer
	keyDeck           // "deck": optional; a deck's name or index; omitted: any deck
	keyLimit          // "limit": optional integer
	keyOffer          // "offer": required object
)

var keyNames = [...]string{"", "square", "amount", "deck", "limit", "offer"}

// required reports whether an action of a kind taking the key must give it.
func (k keyType) required() bool { return k == keySquare || k == keyAmount || k == keyOffer }

// actionSpec is what an action kind takes and what it means: the one
// table behind encoding, decoding, the answer schemas and the notation.
type actionSpec struct {
	key keyType
	doc string
}

var actionSpecs = [...]actionSpec{
	monopoly.ActNone:              {},
	monopoly.ActContinue:          {keyNone, "go on: roll (before the roll, or again after doubles), or end the turn"},
	monopoly.ActBuild:             {keySquare, "build one house on the square, or a hotel on four houses"},
	monopoly.ActSellBuilding:      {keySquare, "sell one building on the square back to the bank at half its cost"},
	monopoly.ActMortgage:          {keySquare, "mortgage the square"},
	monopoly.ActUnmortgage:        {keySquare, "lift the mortgage on the square (its mortgage value plus 10%)"},
	monopoly.ActProposeTrade:      {keyOffer, "propose a trade to another player"},
	monopoly.ActPayJailFine:       {keyNone, "pay the fine and leave jail, then roll"},
	monopoly.ActUseJailCard:       {keyDeck, "use a Get Out of Jail Free card (of the deck given, or any), then roll"},
	monopoly.ActRollForDoubles:    {keyNone, "try to roll doubles to leave jail"},
	monopoly.ActBuy:               {keyNone, "buy the property at its price"},
	monopoly.ActDecline:           {keyNone, "do not buy: the property goes to auction (when the rules hold auctions)"},
	monopoly.ActBid:               {keyAmount, "bid this amount: above the high bid, at most your cash"},
	monopoly.ActDropOut:           {keyNone, "drop out of the auction"},
	monopoly.ActAcceptTrade:       {keyLimit, "accept the trade; under sealed deals limit is the least net cash you take from the proposer (negative: the most you pay)"},
	monopoly.ActRejectTrade:       {keyNone, "reject the trade"},
	monopoly.ActDeclareBankruptcy: {keyNone, "declare bankruptcy (only when selling and mortgaging everything cannot pay the debt)"},
	monopoly.ActKeepMortgaged:     {keyNone, "keep the received property mortgaged and pay the 10% fee"},
	monopoly.ActLiftMortgage:      {keyNone, "lift the mortgage on the received property now (fee plus mortgage value)"},
	monopoly.ActCounterTrade:      {keyOffer, "answer with a counter-offer to the proposer (when the rules allow counter-offers)"},
	monopoly.ActMove:              {keySquare, "move to the square: after the speed die's Bus, one white die's or both dice's move ahead; after triples, any other square"},
}

// answers lists the action kinds that answer each decision kind, in the
// order the schemas give them. Whether one is legal in a position is
// always the engine's to say (View.Check); this says only which kinds
// are answers at all, and TestAnswersMatchEngine holds it to the engine.
var answers = [...][]monopoly.ActionKind{
	monopoly.DecisionNone:              nil,
	monopoly.DecisionManage:            {monopoly.ActContinue, monopoly.ActBuild, monopoly.ActSellBuilding, monopoly.ActMortgage, monopoly.ActUnmortgage, monopoly.ActProposeTrade},
	monopoly.DecisionJail:              {monopoly.ActPayJailFine, monopoly.ActUseJailCard, monopoly.ActRollForDoubles},
	monopoly.DecisionBuy:               {monopoly.ActBuy, monopoly.ActDecline},
	monopoly.DecisionBid:               {monopoly.ActBid, monopoly.ActDropOut},
	monopoly.DecisionTradeResponse:     {monopoly.ActAcceptTrade, monopoly.ActRejectTrade, monopoly.ActCounterTrade},
	monopoly.DecisionRaiseCash:         {monopoly.ActSellBuilding, monopoly.ActMortgage, monopoly.ActProposeTrade, monopoly.ActDeclareBankruptcy},
	monopoly.DecisionMortgagedTransfer: {monopoly.ActKeepMortgaged, monopoly.ActLiftMortgage},
	monopoly.DecisionMovement:          {monopoly.ActMove},
}

// Answers returns the action kinds that answer decisions of kind k.
func Answers(k monopoly.DecisionKind) []monopoly.ActionKind {
	if int(k) >= len(answers) {
		return nil
	}
	return append([]monopoly.ActionKind(nil), answers[k]...)
}

// spec returns the table row of a kind, and false for none or an unknown
// kind.
func spec(k monopoly.ActionKind) (actionSpec, bool) {
	if k == monopoly.ActNone || int(k) >= len(actionSpecs) {
		return actionSpec{}, false
	}
	return actionSpecs[k], true
}

// keysOf lists the keys an action of kind k takes, for error messages.
func keysOf(k monopoly.ActionKind) string {
	s := actionSpecs[k]
	switch {
	case s.key == keyNone:
		return "kind (and player)"
	case s.key.required():
		return "kind, " + keyNames[s.key] + " (and player)"
	}
	return "kind, optionally " + keyNames[s.key] + " (and player)"
}

// DecodeError is input that is not an action: bad JSON, an unknown or
// misplaced key, a value of the wrong type, an unknown square, deck or
// player, or notation that does not parse. Whether a well-formed action
// is legal is another matter, the engine's (*monopoly.RuleError).
type DecodeError struct {
	Input string // what was read: "action", "answer" or "notation"
	Field string // where: a key path such as "offer.give.squares[1]", or "word 3" of notation; "" for the whole input
	Msg   string // what is wrong there, and what was expected
}

// Error reads "wire: INPUT: FIELD: MSG".
func (e *DecodeError) Error() string {
	if e.Field == "" {
		return "wire: " + e.Input + ": " + e.Msg
	}
	return "wire: " + e.Input + ": " + e.Field + ": " + e.Msg
}

// decoder reads actions for one seat, naming fields under prefix.
type decoder struct {
	r      *monopoly.Rules
	player int
	input  string
	prefix string
}

func (d *decoder) fail(field, format string, args ...any) error {
	path := d.prefix
	if field != "" {
		if path != "" && field[0] != '[' {
			path += "."
		}
		path += field
	}
	return &DecodeError{Input: d.input, Field: path, Msg: fmt.Sprintf(format, args...)}
}

// DecodeAction reads the JSON of an action (see the package comment)
// answered by seat player. A "player" key, if given, must be that seat.
// It never panics; input that is not a well-formed action is a
// *DecodeError naming the field. A decoded action may still be illegal:
// that is View.Check's to say.
func DecodeAction(r *monopoly.Rules, player int, data []byte) (monopoly.Action, error) {
	d := decoder{r: r, player: player, input: "action"}
	v, err := parseJSON(data)
	if err != nil {
		return monopoly.Action{}, d.fail("", "%v", err)
	}
	return d.action(&v)
}

func (d *decoder) action(v *value) (monopoly.Action, error) {
	if v.kind != jsonObject {
		return monopoly.Action{}, d.fail("", "want an object such as {\"kind\":\"continue\"}, got %s", v.kind)
	}
	kv, ok := v.get("kind")
	if !ok {
		return monopoly.Action{}, d.fail("kind", "missing: every action names its kind")
	}
	if kv.kind != jsonString {
		return monopoly.Action{}, d.fail("kind", "want a string, got %s", describe(kv))
	}
	var k monopoly.ActionKind
	s, known := actionSpec{}, k.UnmarshalText([]byte(kv.str)) == nil
	if known {
		s, known = spec(k)
	}
	if !known {
		return monopoly.Action{}, d.fail("kind", "unknown action kind %q (known: %s)", kv.str, strings.Join(actionKindNames(), ", "))
	}
	a := monopoly.Action{Kind: k, Player: d.player}
	if s.key == keyDeck {
		a.Arg = -1 // any deck
	}
	given := false
	for i := range v.fields {
		f := &v.fields[i]
		var err error
		switch {
		case f.key == "kind":
		case f.key == "player":
			err = d.seat("player", &f.val)
		case s.key != keyNone && f.key == keyNames[s.key]:
			given = true
			err = d.arg(s.key, &f.val, &a)
		default:
			err = d.fail(f.key, "not a key of %s, which takes %s", k, keysOf(k))
		}
		if err != nil {
			return monopoly.Action{}, err
		}
	}
	if s.key.required() && !given {
		return monopoly.Action{}, d.fail(keyNames[s.key], "missing: %s needs it", k)
	}
	return a, nil
}

// seat checks a key naming the answering seat.
func (d *decoder) seat(key string, v *value) error {
	n, ok := v.integer()
	if !ok {
		return d.fail(key, "want an integer seat, got %s", describe(v))
	}
	if n != int64(d.player) {
		return d.fail(key, "%d, but seat %d answers", n, d.player)
	}
	return nil
}

func (d *decoder) arg(k keyType, v *value, a *monopoly.Action) error {
	name := keyNames[k]
	switch k {
	case keySquare:
		sq, err := d.square(v)
		if err != nil {
			return d.fail(name, "%v", err)
		}
		a.Arg = sq
	case keyAmount, keyLimit:
		n, ok := v.integer()
		if !ok {
			return d.fail(name, "want an integer, got %s", describe(v))
		}
		a.Arg = int(n)
	case keyDeck:
		deck, err := d.deck(v)
		if err != nil {
			return d.fail(name, "%v", err)
		}
		a.Arg = deck
	case keyOffer:
		o, err := d.offer(v)
		if err != nil {
			return err
		}
		a.Offer = o
	}
	return nil
}

func (d *decoder) square(v *value) (int, error) {
	return d.nameOrIndex(v, squareByName, squareIndex, "a square's index or name")
}

func (d *decoder) deck(v *value) (int, error) {
	return d.nameOrIndex(v, deckByName, deckIndex, "a deck's name or index")
}

// nameOrIndex reads a square or a deck: by name from a string, by index
// from a whole number.
func (d *decoder) nameOrIndex(v *value, byName func(*monopoly.Rules, string) (int, error),
	byIndex func(*monopoly.Rules, int64) (int, error), want string) (int, error) {
	switch v.kind {
	case jsonString:
		return byName(d.r, v.str)
	case jsonNumber:
		if n, ok := v.integer(); ok {
			return byIndex(d.r, n)
		}
	}
	return -1, fmt.Errorf("want %s, got %s", want, describe(v))
}

func (d *decoder) offer(v *value) (*monopoly.TradeOffer, error) {
	if v.kind != jsonObject {
		return nil, d.fail("offer", "want an object {\"to\":SEAT,\"give\":{...},\"get\":{...}}, got %s", v.kind)
	}
	o := &monopoly.TradeOffer{From: int8(d.player)}
	to := false
	for i := range v.fields {
		f := &v.fields[i]
		var err error
		switch f.key {
		case "to":
			n, ok := f.val.integer()
			switch {
			case !ok:
				err = d.fail("offer.to", "want an integer seat, got %s", describe(&f.val))
			case n < 0 || n >= monopoly.MaxPlayers:
				err = d.fail("offer.to", "no seat %d", n)
			}
			o.To, to = int8(n), true
		case "from":
			err = d.seat("offer.from", &f.val)
		case "give":
			err = d.side("offer.give", &f.val, &o.GiveSquares, &o.GiveCash, &o.GiveCards)
		case "get":
			err = d.side("offer.get", &f.val, &o.GetSquares, &o.GetCash, &o.GetCards)
		default:
			err = d.fail("offer."+f.key, "not a key of an offer, which takes to, give and get (and from)")
		}
		if err != nil {
			return nil, err
		}
	}
	if !to {
		return nil, d.fail("offer.to", "missing: the seat the offer goes to")
	}
	return o, nil
}

func (d *decoder) side(path string, v *value, squares *uint64, cash *int64, cards *uint8) error {
	if v.kind != jsonObject {
		return d.fail(path, "want an object {\"squares\":[...],\"cash\":N,\"jail_cards\":[...]}, got %s", v.kind)
	}
	for i := range v.fields {
		f := &v.fields[i]
		p := path + "." + f.key
		switch f.key {
		case "squares":
			err := d.array(p, "squares", &f.val, func(e *value) error {
				sq, err := d.square(e)
				if err != nil {
					return err
				}
				return addSquare(d.r, sq, squares)
			})
			if err != nil {
				return err
			}
		case "cash":
			n, ok := f.val.integer()
			switch {
			case !ok:
				return d.fail(p, "want an integer, got %s", describe(&f.val))
			case n < 0:
				return d.fail(p, "%v", negativeCash(n))
			}
			*cash = n
		case "jail_cards":
			err := d.array(p, "deck names", &f.val, func(e *value) error {
				deck, err := d.deck(e)
				if err != nil {
					return err
				}
				return addJailCard(d.r, deck, cards)
			})
			if err != nil {
				return err
			}
		default:
			return d.fail(p, "not a key of a side of an offer, which takes squares, cash and jail_cards")
		}
	}
	return nil
}

// addSquare adds square sq to a side's squares, which must not hold it.
func addSquare(r *monopoly.Rules, sq int, squares *uint64) error {
	if *squares&(1<<sq) != 0 {
		return fmt.Errorf("%s (%d) is listed twice", r.Squares[sq].Name, sq)
	}
	*squares |= 1 << sq
	return nil
}

// addJailCard adds the next Get Out of Jail Free card of deck to a
// side's cards.
func addJailCard(r *monopoly.Rules, deck int, cards *uint8) error {
	b := nextJailCard(r, deck, *cards)
	if b < 0 {
		what := "no Get Out of Jail Free card"
		if *cards != 0 {
			what = "no more Get Out of Jail Free cards"
		}
		return fmt.Errorf("deck %s has %s", r.Decks[deck].Name, what)
	}
	*cards |= 1 << b
	return nil
}

// negativeCash refuses cash below 0 on a side of an offer.
func negativeCash(n int64) error {
	return fmt.Errorf("negative cash %d: each side gives what it gives", n)
}

// array reads the JSON array v at path p, of what it should hold, each
// element by read; an element's error is reported at its index.
func (d *decoder) array(p, of string, v *value, read func(e *value) error) error {
	if v.kind != jsonArray {
		return d.fail(p, "want an array of %s, got %s", of, v.kind)
	}
	for j := range v.elems {
		if err := read(&v.elems[j]); err != nil {
			return d.fail(fmt.Sprintf("%s[%d]", p, j), "%v", err)
		}
	}
	return nil
}

// describe names a JSON value's type, with the value for the short ones.
func describe(v *value) string {
	switch v.kind {
	case jsonNumber:
		return "the number " + v.str
	case jsonString:
		return "the string " + strconv.Quote(v.str)
	case jsonBool:
		return strconv.FormatBool(v.truth)
	}
	return v.kind.String()
}

func actionKindNames() []string {
	var names []string
	for k := monopoly.ActNone + 1; int(k) < len(actionSpecs); k++ {
		names = append(names, k.String())
	}
	return names
}

// EncodeAction writes an action as JSON: its kind and the one key that
// kind takes, squares by index and decks by name, keys in a fixed order,
// so that the same action always has the same bytes. Player is not
// written: the seat answering is known from where the answer comes.
// It fails for an action that cannot be read back: no kind, a square or
// deck the rules do not have, a trade without an offer or with negative
// cash.
func EncodeAction(r *monopoly.Rules, a monopoly.Action) ([]byte, error) {
	return AppendAction(nil, r, a)
}

// AppendAction appends EncodeAction's JSON to buf, for callers that keep
// a buffer.
func AppendAction(buf []byte, r *monopoly.Rules, a monopoly.Action) ([]byte, error) {
	s, ok := spec(a.Kind)
	if !ok {
		return buf, fmt.Errorf("wire: encode: no action kind %s", a.Kind)
	}
	buf = append(buf, `{"kind":"`...)
	buf = append(buf, a.Kind.String()...)
	buf = append(buf, '"')
	switch s.key {
	case keySquare:
		if a.Arg < 0 || a.Arg >= len(r.Squares) {
			return buf, fmt.Errorf("wire: encode: %s of square %d, which the board does not have", a.Kind, a.Arg)
		}
		buf = append(buf, `,"square":`...)
		buf = strconv.AppendInt(buf, int64(a.Arg), 10)
	case keyAmount:
		buf = append(buf, `,"amount":`...)
		buf = strconv.AppendInt(buf, int64(a.Arg), 10)
	case keyLimit:
		// Under sealed deals the limit is always written, 0 included, so
		// that a reader sees it was meant; open deals ignore it.
		if r.DealProtocol == monopoly.DealsSealed || a.Arg != 0 {
			buf = append(buf, `,"limit":`...)
			buf = strconv.AppendInt(buf, int64(a.Arg), 10)
		}
	case keyDeck:
		if a.Arg != -1 {
			if a.Arg < 0 || a.Arg >= len(r.Decks) {
				return buf, fmt.Errorf("wire: encode: %s of deck %d, which the rules do not have", a.Kind, a.Arg)
			}
			buf = append(buf, `,"deck":`...)
			buf = AppendString(buf, r.Decks[a.Arg].Name)
		}
	case keyOffer:
		if a.Offer == nil {
			return buf, fmt.Errorf("wire: encode: %s without an offer", a.Kind)
		}
		o := a.Offer
		if o.To < 0 || o.To >= monopoly.MaxPlayers {
			return buf, fmt.Errorf("wire: encode: %s to seat %d", a.Kind, o.To)
		}
		buf = append(buf, `,"offer":{"to":`...)
		buf = strconv.AppendInt(buf, int64(o.To), 10)
		var err error
		buf = append(buf, `,"give":`...)
		if buf, err = appendSide(buf, r, o.GiveSquares, o.GiveCash, o.GiveCards); err != nil {
			return buf, err
		}
		buf = append(buf, `,"get":`...)
		if buf, err = appendSide(buf, r, o.GetSquares, o.GetCash, o.GetCards); err != nil {
			return buf, err
		}
		buf = append(buf, '}')
	}
	return append(buf, '}'), nil
}

// appendSide writes one side of an offer, leaving out what it does not
// give: {} for nothing.
func appendSide(buf []byte, r *monopoly.Rules, squares uint64, cash int64, cards uint8) ([]byte, error) {
	if squares>>len(r.Squares) != 0 {
		return buf, fmt.Errorf("wire: encode: an offer of squares the board does not have")
	}
	if cash < 0 {
		return buf, fmt.Errorf("wire: encode: an offer of negative cash %d", cash)
	}
	keep, nkeep := keepDecks(r)
	if int(cards)>>nkeep != 0 {
		return buf, fmt.Errorf("wire: encode: an offer of jail cards the rules do not have")
	}
	buf = append(buf, '{')
	sep := false
	if squares != 0 {
		buf = append(buf, `"squares":[`...)
		for m := squares; m != 0; m &= m - 1 {
			if m != squares {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(bits.TrailingZeros64(m)), 10)
		}
		buf = append(buf, ']')
		sep = true
	}
	if cash != 0 {
		if sep {
			buf = append(buf, ',')
		}
		buf = append(buf, `"cash":`...)
		buf = strconv.AppendInt(buf, cash, 10)
		sep = true
	}
	if cards != 0 {
		if sep {
			buf = append(buf, ',')
		}
		buf = append(buf, `"jail_cards":[`...)
		for m := cards; m != 0; m &= m - 1 {
			if m != cards {
				buf = append(buf, ',')
			}
			buf = AppendString(buf, r.Decks[keep[bits.TrailingZeros8(m)]].Name)
		}
		buf = append(buf, ']')
	}
	return append(buf, '}'), nil
}

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json writes it.
func AppendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	plain := 0 // the leading bytes that need no escape, copied at once
	for plain < len(s) && s[plain] >= 0x20 && s[plain] < 0x7f && s[plain] != '"' && s[plain] != '\\' {
		plain++
	}
	buf = append(buf, '"')
	buf = append(buf, s[:plain]...)
	for i := plain; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20 || c == 0x7f:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// Answer is a player's answer with its words, as clients send it:
// {"action":{...},"speech":"...","thought":"..."}. Speech is said at the
// table for everyone; thought is private to its author (and research
// views).
type Answer struct {
	Action  json.RawMessage `json:"action"`            // the action's JSON
	Speech  string          `json:"speech,omitempty"`  // said at the table
	Thought string          `json:"thought,omitempty"` // private
}

// DecodeAnswer reads an Answer's JSON answered by seat player: the action
// (as DecodeAction reads it, errors naming "action.<field>"), the speech
// and the thought. Unknown keys and trailing data are errors.
func DecodeAnswer(r *monopoly.Rules, player int, data []byte) (monopoly.Action, string, string, error) {
	d := decoder{r: r, player: player, input: "answer"}
	v, err := parseJSON(data)
	if err != nil {
		return monopoly.Action{}, "", "", d.fail("", "%v", err)
	}
	if v.kind != jsonObject {
		return monopoly.Action{}, "", "", d.fail("", "want an object {\"action\":{...},\"speech\":\"...\",\"thought\":\"...\"}, got %s", v.kind)
	}
	var a monopoly.Action
	var speech, thought string
	seen := false
	for i := range v.fields {
		f := &v.fields[i]
		switch f.key {
		case "action":
			ad := d
			ad.prefix = "action"
			if a, err = ad.action(&f.val); err != nil {
				return monopoly.Action{}, "", "", err
			}
			seen = true
		case "speech", "thought":
			if f.val.kind != jsonString {
				return monopoly.Action{}, "", "", d.fail(f.key, "want a string, got %s", describe(&f.val))
			}
			if f.key == "speech" {
				speech = f.val.str
			} else {
				thought = f.val.str
			}
		default:
			return monopoly.Action{}, "", "", d.fail(f.key, "not a key of an answer, which takes action, speech and thought")
		}
	}
	if !seen {
		return monopoly.Action{}, "", "", d.fail("action", "missing")
	}
	return a, speech, thought, nil
}

// EncodeAnswer writes an Answer's JSON, the action as EncodeAction does.
func EncodeAnswer(r *monopoly.Rules, a monopoly.Action, speech, thought string) ([]byte, error) {
	buf, err := AppendAction([]byte(`{"action":`), r, a)
	if err != nil {
		return nil, err
	}
	if speech != "" {
		buf = AppendString(append(buf, `,"speech":`...), speech)
	}
	if thought != "" {
		buf = AppendString(append(buf, `,"thought":`...), thought)
	}
	return append(buf, '}'), nil
}
