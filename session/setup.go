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
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // the players a session can seat
	_ "github.com/gopoly/gopoly/agent/personality"
	_ "github.com/gopoly/gopoly/agent/planning"
	_ "github.com/gopoly/gopoly/extbot" // programs: exec:, tcp:, monopyly:
	"github.com/gopoly/gopoly/monopoly"
)

// FormatVersion is the version of the setup and log format, stored with
// every session and written in every export.
const FormatVersion = 1

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
}

// DefaultNames are the players' names by seat when a setup gives none:
// short, distinct and easy to follow in a long log.
var DefaultNames = [monopoly.MaxPlayers]string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}

// ParseSeats reads a seat list such as "human,shark,professor,hustler":
// "human" (or "person") is a person, "llm", "mcp" and "external" wait for
// those players, and any other name is a registered bot.
func ParseSeats(list string) ([]Seat, error) {
	var seats []Seat
	for i, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		var s Seat
		switch f {
		case "":
			return nil, fmt.Errorf("session: seats %q: seat %d is empty", list, i+1)
		case "human", "person":
			s.Kind = SeatHuman
		case string(SeatLLM), string(SeatMCP), string(SeatExternal):
			s.Kind = SeatKind(f)
		default:
			if !agent.Known(f) {
				return nil, fmt.Errorf("session: seats %q: seat %d: unknown player %q (human, or a bot: %s)", list, i+1, f, strings.Join(agent.Names(), ", "))
			}
			s.Kind, s.Bot = SeatBot, f
		}
		seats = append(seats, s)
	}
	return seats, nil
}

// compiled is a setup made ready to play: its rules and bot parameters.
type compiled struct {
	rules  *monopoly.Rules
	params []agent.ParamSpec
}

// compile checks a setup, fills in default names, and compiles its rules
// and parameters. Errors name the seat and field.
func (s *Setup) compile() (compiled, error) {
	var c compiled
	n := len(s.Seats)
	if n < 2 || n > monopoly.MaxPlayers {
		return c, fmt.Errorf("session: %d seats; the game takes 2 to %d", n, monopoly.MaxPlayers)
	}
	c.rules = monopoly.DefaultRules()
	if strings.TrimSpace(s.Rules) != "" {
		r, err := c.rules.WithOverrides("rules", []byte(s.Rules))
		if err != nil {
			return c, fmt.Errorf("session: %w", err)
		}
		c.rules = r
	}
	c.params = make([]agent.ParamSpec, n)
	names := map[string]bool{}
	for i := range s.Seats {
		seat := &s.Seats[i]
		if seat.Name == "" {
			seat.Name = DefaultNames[i]
		}
		if names[strings.ToLower(seat.Name)] {
			return c, fmt.Errorf("session: seat %d: name %q is taken by another seat", i, seat.Name)
		}
		names[strings.ToLower(seat.Name)] = true
		switch seat.Kind {
		case SeatBot:
			if !agent.Known(seat.Bot) {
				return c, fmt.Errorf("session: seat %d: unknown bot %q (known: %s)", i, seat.Bot, strings.Join(agent.Names(), ", "))
			}
			if seat.Params != "" {
				var doc yaml.Node
				if err := yaml.Unmarshal([]byte(seat.Params), &doc); err != nil {
					return c, fmt.Errorf("session: seat %d: params: %w", i, err)
				}
				node := &doc
				if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
					node = doc.Content[0]
				}
				spec, err := agent.ParseParamSpec(fmt.Sprintf("seat %d params", i), node, "")
				if err != nil {
					return c, fmt.Errorf("session: %w", err)
				}
				c.params[i] = spec
			}
		case SeatHuman, SeatLLM, SeatMCP, SeatExternal:
			if seat.Bot != "" || seat.Params != "" {
				return c, fmt.Errorf("session: seat %d: a %s seat has no bot or params", i, seat.Kind)
			}
		default:
			return c, fmt.Errorf("session: seat %d: unknown kind %q (bot, human, llm, mcp, external)", i, seat.Kind)
		}
	}
	return c, nil
}

// Names returns the players' names by seat.
func (s *Setup) Names() []string {
	names := make([]string, len(s.Seats))
	for i, seat := range s.Seats {
		names[i] = seat.Name
	}
	return names
}

// players makes the bots of a setup's bot seats (nil for waiting seats).
func (s *Setup) players(c compiled) ([]agent.Agent, error) {
	agents := make([]agent.Agent, len(s.Seats))
	for i, seat := range s.Seats {
		if seat.Kind != SeatBot {
			continue
		}
		a, err := agent.NewWith(seat.Bot, c.params[i], i, agent.SeatSeed(s.Seed, i))
		if err != nil {
			return nil, fmt.Errorf("session: seat %d: %w", i, err)
		}
		agents[i] = a
	}
	return agents, nil
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
