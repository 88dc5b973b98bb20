package extbot

import (
	_ "embed" // the schema
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gopoly/gopoly/wire"
)

// Version is the protocol's version, sent in every Start. A program
// answers Ready with the version it speaks; another version retires it
// before its first decision. Additions that old programs may ignore (a
// new key, a new message type) keep the version; anything else changes
// it. Version 2 sends the board's fixed facts once, in Start, and a
// compact state (wire.State) in each Decide, where version 1 sent the
// whole wire.Snapshot.
const Version = 2

// Message types, the "type" key of every message.
const (
	TypeStart   = "start"   // gopoly: a game begins; answered by ready
	TypeReady   = "ready"   // the program: it speaks the protocol
	TypeDecide  = "decide"  // gopoly: a decision to answer; answered by answer
	TypeAnswer  = "answer"  // the program: its answer to a decision
	TypeRefusal = "refusal" // gopoly: an answer was refused (or late), and the fallback answered
	TypeRetired = "retired" // gopoly: no more decisions this game
	TypeEnd     = "end"     // gopoly: the game is over (or was abandoned)
)

// Budget is time a program may take, in milliseconds: per decision, and
// over a whole game. In a Decide it is what is left for that decision and
// for the rest of the game.
type Budget struct {
	DecisionMS int64 `json:"decision_ms"`
	GameMS     int64 `json:"game_ms"`
}

// Start opens a game: the handshake. The program answers with Ready.
type Start struct {
	Type     string `json:"type"`     // "start"
	Protocol int    `json:"protocol"` // Version
	Game     int    `json:"game"`     // games started on this connection, from 1; every later message of the game carries it
	Seat     int    `json:"seat"`     // the program's seat, from 0
	Players  int    `json:"players"`  // seats at the table
	// Seed is the seat's seed for this game: a program that draws random
	// numbers may seed its generator from it, so that the same run seed
	// plays the same games (the Monopyly host seeds Python's random).
	Seed     uint64          `json:"seed"`
	Names    []string        `json:"names"`    // the players' names, by seat
	Bot      string          `json:"bot"`      // the seat's bot name, such as "exec:python3 bot.py"
	Fallback string          `json:"fallback"` // the bot that answers when the program does not
	Strikes  int             `json:"strikes"`  // failed answers that retire the program for the game
	Budget   Budget          `json:"budget"`   // per decision and per game
	Rules    json.RawMessage `json:"rules"`    // the rules, as a rules file's keys (see monopoly/rules.yaml)
	// Board is what never changes in the game (wire.Board); with each
	// Decide's View it makes the seat's wire.Snapshot (State.Snapshot).
	Board wire.Board `json:"board"`
	// Schemas is the JSON Schema of the answer to each decision kind
	// (wire.AnswerSchemas), by kind: a decision's answer must validate
	// against Schemas[decision.kind].
	Schemas map[string]json.RawMessage `json:"schemas"`
}

// Ready is the program's answer to Start.
type Ready struct {
	Type     string `json:"type"`           // "ready"
	Protocol int    `json:"protocol"`       // the version it speaks: must be Version
	Name     string `json:"name,omitempty"` // its name, for logs
	// Omit names parts of every Decide of the game that the program does
	// not read, which are then neither built nor sent: "text",
	// "notation" (options.notation), "trade" (options.trade) and
	// "events". Other names are refused.
	Omit []string `json:"omit,omitempty"`
}

// omissions are the parts of a Decide a program goes without.
type omissions struct {
	text, events bool
	options      wire.OptionsParts
}

// parseOmit reads Ready.Omit.
func parseOmit(names []string) (omissions, error) {
	var o omissions
	for _, n := range names {
		switch n {
		case "text":
			o.text = true
		case "events":
			o.events = true
		case "notation":
			o.options |= wire.WithoutNotation
		case "trade":
			o.options |= wire.WithoutTrade
		default:
			return o, fmt.Errorf("extbot: the program asks to omit %q: it may omit text, notation, trade and events", n)
		}
	}
	return o, nil
}

// Decide asks the program for its answer. Everything in it comes from
// package wire, as the other clients get it.
type Decide struct {
	Type     string        `json:"type"`     // "decide"
	Game     int           `json:"game"`     // as in Start
	ID       int           `json:"id"`       // the decision's number in the game, from 1; the answer repeats it
	Decision wire.Decision `json:"decision"` // what is asked
	Text     string        `json:"text"`     // the same in a sentence (render.Decision)
	Options  wire.Options  `json:"options"`  // the legal answers
	// View is what changes, as the seat sees it (wire.State): with
	// Start.Board it makes the seat's wire.Snapshot.
	View wire.State `json:"view"`
	// Events are those the seat may see (wire.NewEvent) since its last
	// decision, oldest first, numbered by Seq from the game's first event
	// the seat was told of. At most MaxEvents: a gap in Seq says that
	// older ones were dropped.
	Events []wire.Event `json:"events"`
	Budget Budget       `json:"budget"` // time left for this decision and for the game
}

// appendJSON appends the message's JSON to b as encoding/json would
// write it, without reflection (the message goes out at every decision:
// see wire.State.AppendJSON), less the keys of the parts in omit.
func (m *Decide) appendJSON(b []byte, omit omissions) []byte {
	b = append(b, `{"type":"decide","game":`...)
	b = strconv.AppendInt(b, int64(m.Game), 10)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(m.ID), 10)
	b = append(b, `,"decision":`...)
	b = m.Decision.AppendJSON(b)
	if !omit.text {
		b = append(b, `,"text":`...)
		b = wire.AppendString(b, m.Text)
	}
	b = append(b, `,"options":`...)
	b = m.Options.AppendJSON(b)
	b = append(b, `,"view":`...)
	b = m.View.AppendJSON(b)
	if !omit.events {
		b = append(b, `,"events":`...)
		b = wire.AppendArray(b, m.Events, (*wire.Event).AppendJSON)
	}
	b = append(b, `,"budget":{"decision_ms":`...)
	b = strconv.AppendInt(b, m.Budget.DecisionMS, 10)
	b = append(b, `,"game_ms":`...)
	b = strconv.AppendInt(b, m.Budget.GameMS, 10)
	return append(b, "}}"...)
}

// Answer is the program's answer to a Decide: an action as wire decodes
// it (validated by Start.Schemas[kind]), with optional words.
type Answer struct {
	Type    string          `json:"type"`              // "answer"
	ID      int             `json:"id"`                // the Decide's id
	Action  json.RawMessage `json:"action"`            // such as {"kind":"buy"}
	Speech  string          `json:"speech,omitempty"`  // said at the table
	Thought string          `json:"thought,omitempty"` // private, for the research view
}

// Refusal tells the program that its answer to a decision was not taken
// and the fallback answered: refused by the rules or not an action
// (wire.NewRefusal: code, message and the options it had), or no answer
// in time (code "timeout"), or a line that is not an answer (code
// "bad_message").
type Refusal struct {
	Type        string       `json:"type"` // "refusal"
	Game        int          `json:"game"`
	ID          int          `json:"id"`           // the decision
	Refusal     wire.Refusal `json:"refusal"`      // why
	StrikesLeft int          `json:"strikes_left"` // failures before retirement
}

// Retired tells the program that it is asked nothing more this game: its
// fallback plays on. A retired program is stopped (or disconnected) and
// started again for the next game.
type Retired struct {
	Type   string `json:"type"` // "retired"
	Game   int    `json:"game"`
	Reason string `json:"reason"`
}

// End closes a game. Over is false for a game abandoned before its end
// (a run stopped); the program may then get another Start, or end of
// input.
type End struct {
	Type       string       `json:"type"` // "end"
	Game       int          `json:"game"`
	Over       bool         `json:"over"`        // the game ended (game_over was seen)
	Winner     int          `json:"winner"`      // the winner's seat; -1 for none, a tie, or an abandoned game
	RoundLimit bool         `json:"round_limit"` // it ended at the round limit
	Events     []wire.Event `json:"events"`      // the events since the last decision, as in Decide
}

// Refusal codes of the protocol, besides wire's.
const (
	CodeTimeout    = "timeout"     // no answer within the budget
	CodeBadMessage = "bad_message" // a line that is not an answer to the decision
)

// MaxSpeech and MaxThought bound an answer's words, in bytes: they go to
// every viewer, into the stored log and into language models' prompts.
// A longer answer is a bad_message.
const (
	MaxSpeech  = 1 << 10
	MaxThought = 4 << 10
)

// MaxEvents bounds the events a Decide or End carries: a program that
// was not asked for a long while (retired, or started late in a resumed
// session) gets the latest.
const MaxEvents = 2000

// Schema is the protocol's JSON Schema (draft 2020-12): every message,
// each way, under $defs by its type.
//
//go:embed protocol.schema.json
var Schema []byte
