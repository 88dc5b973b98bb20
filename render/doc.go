// Package render draws what package wire carries for people and language
// models: the board as text (Text) and as SVG (SVG), a pending decision
// or a trade offer in a sentence (Decision, DecisionIn, Offer), and the
// rest of what people read: option labels (Labels), waiting lines
// (Waiting), refusals and unreadable moves (Refusal, InputError), the
// reasons for what the rules decide alone (CannotBuy, CannotBid), who
// owns what (Ownership), text wrapped to a width (Wrap). None of it
// shows a code, a phase name or a seat counted from 0: the codes stay in
// the wire for programs. The wire keeps the codec; nothing here is read
// back, so its wording may change without breaking a client that parses
// the wire.
package render
