// Package wire is the format every client of gopoly speaks: a terminal
// UI, the MCP server, language-model players, a browser, bots in other
// languages. The engine (package monopoly) stays pure; this package turns
// its values into stable names and JSON and reads answers back; package
// render draws them for people (the board as text and SVG, decisions in
// sentences).
//
// # Names
//
// Decision kinds, action kinds, phases, event kinds, payment reasons and
// refusal codes are written by their snake_case names ("trade_response",
// "propose_trade", "after_roll", "auction_won", "jail_fine",
// "uneven_building"), the same names the engine's String methods give
// and its MarshalText methods write. All JSON keys are snake_case.
// Seats are numbered from 0; -1 stands for the bank (or for "none") and
// -2 for the Free Parking pot.
//
// # Actions
//
// An action is an object with its "kind" and the one key that kind
// takes, if any:
//
//	{"kind":"continue"}                      manage: roll, roll again, or end the turn
//	{"kind":"build","square":39}             also sell_building, mortgage, unmortgage
//	{"kind":"build","square":"Boardwalk"}    a square by name (any case) or index
//	{"kind":"bid","amount":120}
//	{"kind":"use_jail_card","deck":"chance"} the deck by name or index; omitted: any
//	{"kind":"accept_trade","limit":-50}      sealed deals: the least net cash taken (negative: most paid)
//	{"kind":"propose_trade","offer":{"to":2,
//	    "give":{"squares":[39,"Park Place"],"cash":100,"jail_cards":["chance"]},
//	    "get":{"squares":[1]}}}              also counter_trade; sides and their keys optional
//
// and buy, decline, drop_out, pay_jail_fine, roll_for_doubles,
// reject_trade, declare_bankruptcy, keep_mortgaged and lift_mortgage with
// no key. An optional "player" (and an offer's "from") must be the seat
// answering. Anything else is an error naming the field, as in
//
//	wire: action: offer.give.squares[1]: unknown square "Park Plaec" (did you mean "Park Place"?)
//
// and so are a key the kind does not take, a value of the wrong type,
// negative cash, a square listed twice and data after the object.
// EncodeAction writes the canonical form: keys in the order above,
// squares by index, decks by name, empty sides as {}. Whether an action
// is legal is never the wire's to say: monopoly.View.Check decides.
//
// An answer wraps an action with optional words:
//
//	{"action":{"kind":"buy"},"speech":"Mine!","thought":"cheap at the price"}
//
// Schema gives the JSON Schema (draft 2020-12) of the answer to each
// decision kind, generated from the same table as the decoder.
//
// # Decisions, options, snapshots, events
//
// Decision is the pending decision as a viewer sees it; Options the legal
// answers of the seat that decides, the listable ones as action JSON and
// the parametric ones by their bounds (bids, sealed limits, what a trade
// may hold); Snapshot the whole public position for a seat or a
// spectator, and Board and State the same split into what never changes
// and what does, for a client told of the board once; Event one event as
// a viewer may see it, with exactly the keys of its kind. State,
// Decision, Options and Event also write their JSON by hand
// (AppendJSON), for the messages sent at every decision. None of them ever holds the order of the decks, the
// generator, another player's private thought or another seat's sealed
// limit.
//
// # Refusals
//
// A refused answer is a Refusal: {"code","message","options"}. The code
// is the engine's refusal code for a broken rule ("bid_too_low"),
// "game_over", "no_dice", "bad_action" for input that is not an action,
// or "error".
//
// # Notation
//
// Notation reads and writes actions as short commands for people and
// language models ("bid 120", "build boardw", `propose Cat give
// Boardwalk +$100 get "Park Place"`); see its documentation for the
// forms.
//
// # Digests
//
// Digest hashes a sequence of engine events, every field of each, so
// that a replay can be checked against the original with one string.
package wire
