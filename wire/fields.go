package wire

import (
	"fmt"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
)

// Fields is an action given key by key, as a dialect of its own reads it
// (monopoly-mcp's payloads): Action checks it as DecodeAction checks the
// same action's JSON, with the same messages, so that such a dialect
// builds the action directly instead of writing JSON for DecodeAction to
// parse again. A nil key is one not given.
type Fields struct {
	Kind   monopoly.ActionKind
	Square *int
	Amount *int
	Deck   []byte // a deck's name or index, as JSON
	Limit  *int
	Offer  *OfferFields
}

// OfferFields is the offer of a trade, key by key: To is the seat it
// goes to, Give what the answering seat gives, Get what it asks for.
type OfferFields struct {
	To        int
	Give, Get SideFields
}

// SideFields is one side of an offer: squares by index, cash, and Get
// Out of Jail Free cards by the name of their deck.
type SideFields struct {
	Squares   []int
	Cash      int64
	JailCards []string
}

// Action is the action f gives, answered by seat player, or the
// *DecodeError DecodeAction gives for the same action's JSON. It may
// still be illegal: that is View.Check's to say.
func (f Fields) Action(r *monopoly.Rules, player int) (monopoly.Action, error) {
	d := decoder{r: r, player: player, input: "action"}
	s, known := spec(f.Kind)
	if !known {
		return monopoly.Action{}, d.fail("kind", "unknown action kind %q (known: %s)", f.Kind.String(), strings.Join(actionKindNames(), ", "))
	}
	a := monopoly.Action{Kind: f.Kind, Player: player}
	if s.key == keyDeck {
		a.Arg = -1 // any deck
	}
	given := false
	// The keys in the order EncodeAction writes them, as DecodeAction
	// meets them, so that the first error is the same.
	for k := keySquare; k <= keyOffer; k++ {
		if !f.has(k) {
			continue
		}
		if k != s.key {
			return monopoly.Action{}, d.fail(keyNames[k], "not a key of %s, which takes %s", f.Kind, keysOf(f.Kind))
		}
		given = true
		if err := d.field(k, f, &a); err != nil {
			return monopoly.Action{}, err
		}
	}
	if s.key.required() && !given {
		return monopoly.Action{}, d.fail(keyNames[s.key], "missing: %s needs it", f.Kind)
	}
	return a, nil
}

// has reports whether f gives key k.
func (f Fields) has(k keyType) bool {
	switch k {
	case keySquare:
		return f.Square != nil
	case keyAmount:
		return f.Amount != nil
	case keyDeck:
		return f.Deck != nil
	case keyLimit:
		return f.Limit != nil
	case keyOffer:
		return f.Offer != nil
	}
	return false
}

// field sets a's argument from f's key k.
func (d *decoder) field(k keyType, f Fields, a *monopoly.Action) error {
	name := keyNames[k]
	switch k {
	case keySquare:
		sq, err := squareIndex(d.r, int64(*f.Square))
		if err != nil {
			return d.fail(name, "%v", err)
		}
		a.Arg = sq
	case keyAmount:
		a.Arg = *f.Amount
	case keyLimit:
		a.Arg = *f.Limit
	case keyDeck:
		v, err := parseJSON(f.Deck)
		if err != nil {
			return d.fail(name, "%v", err)
		}
		return d.arg(keyDeck, &v, a)
	case keyOffer:
		o := f.Offer
		if o.To < 0 || o.To >= monopoly.MaxPlayers {
			return d.fail("offer.to", "no seat %d", o.To)
		}
		a.Offer = &monopoly.TradeOffer{From: int8(d.player), To: int8(o.To)}
		if err := d.sideFields("offer.give", o.Give, &a.Offer.GiveSquares, &a.Offer.GiveCash, &a.Offer.GiveCards); err != nil {
			return err
		}
		return d.sideFields("offer.get", o.Get, &a.Offer.GetSquares, &a.Offer.GetCash, &a.Offer.GetCards)
	}
	return nil
}

// sideFields reads one side of an offer, as side reads its JSON.
func (d *decoder) sideFields(path string, s SideFields, squares *uint64, cash *int64, cards *uint8) error {
	for j, n := range s.Squares {
		sq, err := squareIndex(d.r, int64(n))
		if err == nil {
			err = addSquare(d.r, sq, squares)
		}
		if err != nil {
			return d.fail(fmt.Sprintf("%s.squares[%d]", path, j), "%v", err)
		}
	}
	if s.Cash < 0 {
		return d.fail(path+".cash", "%v", negativeCash(s.Cash))
	}
	*cash = s.Cash
	for j, name := range s.JailCards {
		deck, err := deckByName(d.r, name)
		if err == nil {
			err = addJailCard(d.r, deck, cards)
		}
		if err != nil {
			return d.fail(fmt.Sprintf("%s.jail_cards[%d]", path, j), "%v", err)
		}
	}
	return nil
}
