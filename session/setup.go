// Package session is a game that waits for people: its setup (rules,
// seed, seats) and an append-only log of answers, from which the game is
// a pure function. Bot seats answer at once; the other seats (a person,
// and the LLM, MCP and external players to come) are asked through
// Pending and answer through Submit, each with a secret seat token. A
// session is kept in a Store, every answer committed before it is
// acknowledged, and can be resumed, replayed, forked, exported and
// imported.
package session

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// FormatVersion is the version of the setup and log format, stored with
// every session and written in every export.
// Version 2 added the seats' Since and the export's signature: a
// version 1 record's Since is read from its log (inferSince).
const FormatVersion = 2

// SeatKind is who plays a seat.
type SeatKind string

// Seat kinds. Every kind but SeatBot waits: its answers come through
// Submit.
const (
	SeatBot      SeatKind = "bot"      // a registered bot, in process
	SeatHuman    SeatKind = "human"    // a person: terminal, browser
	SeatLLM      SeatKind = "llm"      // a language model player
	SeatMCP      SeatKind = "mcp"      // an MCP client
	SeatExternal SeatKind = "external" // a program speaking the bot protocol
)

// Waits reports whether seats of kind k answer through Submit.
func (k SeatKind) Waits() bool { return k != SeatBot }

// Seat is one player of a session.
type Seat struct {
	Name   string   `json:"name"`
	Kind   SeatKind `json:"kind"`
	Bot    string   `json:"bot,omitempty"`    // SeatBot: the registered bot
	Params string   `json:"params,omitempty"` // SeatBot: its knobs, YAML (see agent.ParseParamSpec)
	// Since is the first log entry this player answered: a fork that
	// changed the seat sets it to the fork's point. The entries before
	// were another player's, so a replay does not ask this bot to have
	// given them; every one after, it does.
	Since int `json:"since,omitempty"`
}

// Setup is everything but the answers that decides a session's game.
type Setup struct {
	// Rules is YAML overlaid on the default rules ("" for the defaults),
	// kept as text so that the session stands alone.
	Rules string `json:"rules,omitempty"`
	Seed  uint64 `json:"seed"`
	Seats []Seat `json:"seats"`
	// Research: the creator opens the research view (every thought and
	// sealed limit) to the game's spectators. It does not change the game.
	Research bool `json:"research,omitempty"`
	// Trusted: the session, or one it was forked from, was imported with
	// Trust, its signature not checked: its setup and log are as the
	// file said (they still replay, every bot answering as logged).
	Trusted bool `json:"trusted,omitempty"`
	// Checked, when set, is Rules already compiled by the caller (a
	// front end that checked them to name its own input in errors), so
	// that they are not parsed again; it is never stored.
	Checked *monopoly.Rules `json:"-"`
}

// DefaultNames are the players' names by seat when a setup gives none:
// short, distinct and easy to follow in a long log.
var DefaultNames = [monopoly.MaxPlayers]string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}

// ParseSeats reads a seat list such as "human,shark,professor,hustler":
// "human" (or "person") is a person, "llm", "mcp" and "external" wait for
// those players, and any other name is a bot, which the manager that
// seats it looks up in its registry (Options.Players). Errors name the
// seat as people count, from 1.
func ParseSeats(list string) ([]Seat, error) {
	var seats []Seat
	for i, f := range strings.Split(list, ",") {
		s, err := ParseSeat(f)
		if err != nil {
			return nil, fmt.Errorf("session: seats %q: seat %d %w", list, i+1, err)
		}
		seats = append(seats, s)
	}
	return seats, nil
}

// ParseSeat reads one seat of a seat list (see ParseSeats); its error
// says what is wrong, for the caller to name the seat.
func ParseSeat(f string) (Seat, error) {
	var s Seat
	switch f = strings.TrimSpace(f); f {
	case "":
		return s, errors.New("is empty")
	case "human", "person":
		s.Kind = SeatHuman
	case string(SeatLLM), string(SeatMCP), string(SeatExternal):
		s.Kind = SeatKind(f)
	default:
		s.Kind, s.Bot = SeatBot, f
	}
	return s, nil
}

// compiled is a setup made ready to play: its rules, and its bots
// (looked up once, here) with their parameters, by seat.
type compiled struct {
	rules  *monopoly.Rules
	bots   []agent.Bot
	params []agent.ParamSpec
}

// SetupError is a setup the session cannot play: too few seats, a bad
// rules file, an unknown bot. Its message names the seat and field.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }

func (e *SetupError) Unwrap() error { return e.Err }

// setupError makes a *SetupError of a message.
func setupError(format string, args ...any) error {
	return &SetupError{fmt.Errorf(format, args...)}
}

// compile checks a setup, fills in default names, compiles its rules
// (unless Checked) and parameters, and looks its bots up, once.
// Errors are *SetupError, and name the seat (from 1) and field.
func (s *Setup) compile(lookup func(string) (agent.Bot, error)) (compiled, error) {
	var c compiled
	n := len(s.Seats)
	if n < 2 || n > monopoly.MaxPlayers {
		return c, setupError("session: %d seats; the game takes 2 to %d", n, monopoly.MaxPlayers)
	}
	c.rules = s.Checked
	if c.rules == nil {
		r, err := ParseRules("rules", s.Rules)
		if err != nil {
			return c, &SetupError{fmt.Errorf("session: %w", err)}
		}
		c.rules = r
	}
	c.bots = make([]agent.Bot, n)
	c.params = make([]agent.ParamSpec, n)
	names := map[string]bool{}
	for i := range s.Seats {
		seat := &s.Seats[i]
		if seat.Name == "" {
			seat.Name = DefaultNames[i]
		}
		if names[strings.ToLower(seat.Name)] {
			return c, setupError("session: seat %d: name %q is taken by another seat", i+1, seat.Name)
		}
		names[strings.ToLower(seat.Name)] = true
		switch seat.Kind {
		case SeatBot:
			b, err := lookup(seat.Bot)
			switch {
			case err != nil && agent.IsProgram(seat.Bot):
				return c, setupError("session: seat %d: %w", i+1, err) // refused, or a bad program spec
			case err != nil:
				return c, setupError("session: seat %d: unknown player %q (human, or a bot: %s)", i+1, seat.Bot, strings.Join(agent.Names(), ", "))
			}
			c.bots[i] = b
			if seat.Params != "" {
				var doc yaml.Node
				if err := yaml.Unmarshal([]byte(seat.Params), &doc); err != nil {
					return c, setupError("session: seat %d: params: %w", i+1, err)
				}
				node := &doc
				if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
					node = doc.Content[0]
				}
				spec, err := agent.ParseParamSpec(fmt.Sprintf("seat %d params", i+1), node, "")
				if err != nil {
					return c, &SetupError{fmt.Errorf("session: %w", err)}
				}
				c.params[i] = spec
			}
		case SeatHuman, SeatLLM, SeatMCP, SeatExternal:
			if seat.Bot != "" || seat.Params != "" {
				return c, setupError("session: seat %d: a %s seat has no bot or params", i+1, seat.Kind)
			}
		default:
			return c, setupError("session: seat %d: unknown kind %q (bot, human, llm, mcp, external)", i+1, seat.Kind)
		}
	}
	return c, nil
}

// ParseRules compiles rules text, YAML overlaid on the default rules
// ("" or blank: the defaults), with name in its errors (a file's name).
// Every front end and the session check rules through it.
func ParseRules(name, text string) (*monopoly.Rules, error) {
	if strings.TrimSpace(text) == "" {
		return monopoly.DefaultRules(), nil
	}
	return monopoly.DefaultRules().WithOverrides(name, []byte(text))
}

// Names returns the players' names by seat.
func (s *Setup) Names() []string {
	names := make([]string, len(s.Seats))
	for i, seat := range s.Seats {
		names[i] = seat.Name
	}
	return names
}

// players makes the bots of a setup's bot seats (nil for waiting
// seats), from the bots compile looked up.
func (s *Setup) players(c compiled) []agent.Agent {
	agents := make([]agent.Agent, len(s.Seats))
	for i, seat := range s.Seats {
		if seat.Kind == SeatBot {
			agents[i] = c.bots[i].New(c.params[i], i, agent.SeatSeed(s.Seed, i))
		}
	}
	return agents
}

// inferSince sets each seat's Since from a version 1 log, which had
// none: the entry after the last one another player answered, as the
// entries' By tell (version 1 forks kept the old player's By).
func (s *Setup) inferSince(log []Entry) {
	for i, e := range log {
		if e.Seat >= 0 && e.Seat < len(s.Seats) && e.By != s.Seats[e.Seat].by() {
			s.Seats[e.Seat].Since = i + 1
		}
	}
}

// by names who answers for a seat in log entries.
func (seat Seat) by() string {
	if seat.Kind == SeatBot {
		return "bot:" + seat.Bot
	}
	return string(seat.Kind)
}

// Describe names a seat for people: "Ann (human)", "Bob (shark)".
func (seat Seat) Describe() string {
	if seat.Kind == SeatBot {
		return seat.Name + " (" + seat.Bot + ")"
	}
	return seat.Name + " (" + string(seat.Kind) + ")"
}
