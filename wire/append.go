package wire

import (
	"encoding/json"
	"strconv"
)

// The AppendJSON methods write the JSON of the values a program is sent
// at each of its decisions (extbot's decide message) without reflection:
// encoding/json spends some 15 µs on a decision's state and options,
// this a tenth of that, and a decision's whole round trip over a pipe is
// meant to cost under 50 µs. They write the keys and values that
// encoding/json writes (TestAppendJSONAsEncodingJSON), so a reader
// cannot tell them apart.

// object appends one JSON object's members.
type object struct {
	b []byte
	n int // members written
}

func openObject(b []byte) object { return object{b: append(b, '{')} }

func (o *object) close() []byte { return append(o.b, '}') }

func (o *object) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *object) int(k string, v int) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

func (o *object) int64(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *object) bool(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *object) str(k, v string) {
	o.key(k)
	o.b = AppendString(o.b, v)
}

func (o *object) ints(k string, v []int) {
	o.key(k)
	o.b = appendInts(o.b, v)
}

func (o *object) strs(k string, v []string) {
	o.key(k)
	o.b = AppendArray(o.b, v, func(s *string, b []byte) []byte { return AppendString(b, *s) })
}

func appendInts(b []byte, v []int) []byte {
	return AppendArray(b, v, func(n *int, b []byte) []byte { return strconv.AppendInt(b, int64(*n), 10) })
}

// AppendArray appends l to b as a JSON array, each element written by f
// (a method expression such as (*Event).AppendJSON will do); nil is
// null, as encoding/json writes a nil slice.
func AppendArray[T any](b []byte, l []T, f func(e *T, b []byte) []byte) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = f(&l[i], b)
	}
	return append(b, ']')
}

// AppendJSON appends the state's JSON to b.
func (s *State) AppendJSON(b []byte) []byte {
	o := openObject(b)
	o.int("viewer", s.Viewer)
	o.int("turn", s.Turn)
	o.int("round", s.Round)
	o.str("phase", s.Phase.String())
	o.int("current", s.Current)
	o.ints("dice", s.Dice[:])
	o.str("speed_die", s.SpeedDie)
	o.bool("over", s.Over)
	o.int("winner", s.Winner)
	o.int("house_supply", s.HouseSupply)
	o.int("hotel_supply", s.HotelSupply)
	o.int("jackpot", s.Jackpot)
	o.ints("decks", s.Decks)
	o.ints("owners", s.Owners)
	o.ints("houses", s.Houses)
	o.ints("mortgaged", s.Mortgaged)
	o.key("players")
	o.b = AppendArray(o.b, s.Players, (*PlayerBrief).appendJSON)
	return o.close()
}

func (p *PlayerBrief) appendJSON(b []byte) []byte {
	o := openObject(b)
	o.int("cash", p.Cash)
	o.int("position", p.Position)
	o.bool("in_jail", p.InJail)
	o.bool("passed_go", p.PassedGo)
	o.int("jail_turns", p.JailTurns)
	o.strs("jail_card_decks", p.JailCardDecks)
	o.bool("bankrupt", p.Bankrupt)
	o.int("net_worth", p.NetWorth)
	return o.close()
}

// AppendJSON appends the decision's JSON to b.
func (d *Decision) AppendJSON(b []byte) []byte {
	o := openObject(b)
	o.str("kind", d.Kind.String())
	o.int("player", d.Player)
	o.int("square", d.Square)
	o.str("square_name", d.SquareName)
	o.int("amount", d.Amount)
	o.str("phase", d.Phase.String())
	o.bool("rolls_again", d.RollsAgain)
	o.int("counterparty", d.Counterparty)
	o.str("reason", d.Reason.String())
	if d.Offer != nil {
		o.key("offer")
		o.b = d.Offer.appendJSON(o.b)
	}
	o.int("trade_round", d.TradeRound)
	o.int("proposals_left", d.ProposalsLeft)
	return o.close()
}

func (f *Offer) appendJSON(b []byte) []byte {
	o := openObject(b)
	o.int("from", f.From)
	o.int("to", f.To)
	o.key("give")
	o.b = f.Give.appendJSON(o.b)
	o.key("get")
	o.b = f.Get.appendJSON(o.b)
	o.bool("sealed", f.Sealed)
	o.bool("hidden", f.Hidden)
	return o.close()
}

func (s *Side) appendJSON(b []byte) []byte {
	o := openObject(b)
	o.ints("squares", s.Squares)
	o.strs("square_names", s.SquareNames)
	o.int64("cash", s.Cash)
	o.strs("jail_cards", s.JailCards)
	return o.close()
}

// AppendJSON appends the options' JSON to b. A nil Notation (see
// WithoutNotation) leaves its key out, where encoding/json writes null.
func (op *Options) AppendJSON(b []byte) []byte {
	o := openObject(b)
	o.str("decision", op.Decision.String())
	o.int("player", op.Player)
	o.key("actions") // EncodeAction's compact JSON, as it is
	o.b = AppendArray(o.b, op.Actions, func(a *json.RawMessage, b []byte) []byte { return append(b, *a...) })
	if op.Notation != nil {
		o.strs("notation", op.Notation)
	}
	if r := op.Bid; r != nil {
		o.key("bid")
		b := openObject(o.b)
		b.int("min", r.Min)
		b.int("max", r.Max)
		o.b = b.close()
	}
	if r := op.Accept; r != nil {
		o.key("accept")
		a := openObject(o.b)
		a.int("min", r.Min)
		a.int("max", r.Max)
		a.str("meaning", r.Meaning)
		o.b = a.close()
	}
	if t := op.Trade; t != nil {
		o.key("trade")
		o.b = t.appendJSON(o.b)
	}
	return o.close()
}

func (t *TradeOptions) appendJSON(b []byte) []byte {
	o := openObject(b)
	o.str("kind", t.Kind.String())
	o.int("proposals_left", t.ProposalsLeft)
	o.int("counter_offers", t.CounterOffers)
	o.int("counters_left", t.CountersLeft)
	o.bool("sealed", t.Sealed)
	if t.Limits != "" {
		o.str("limits", t.Limits)
	}
	o.key("give")
	o.b = t.Give.appendJSON(o.b)
	o.key("partners")
	o.b = AppendArray(o.b, t.Partners, func(tp *TradePartner, b []byte) []byte {
		p := openObject(b)
		p.int("seat", tp.Seat)
		p.key("get")
		p.b = tp.Get.appendJSON(p.b)
		return p.close()
	})
	return o.close()
}

func (s *TradeSide) appendJSON(b []byte) []byte {
	o := openObject(b)
	o.ints("squares", s.Squares)
	o.strs("square_names", s.SquareNames)
	o.int("max_cash", s.MaxCash)
	o.strs("jail_cards", s.JailCards)
	return o.close()
}
