// Package render draws what package wire carries for people and language
// models: the board as text (Text) and as SVG (SVG), and a pending
// decision or a trade offer in a sentence (Decision, Offer). The wire
// keeps the codec; nothing here is read back, so its wording may change
// without breaking a client that parses the wire.
package render
