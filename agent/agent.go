// Package agent is the contract between the engine and its players: an
// Agent answers the engine's pending decision given only its view of the
// game. Bots register here by name so that the CLI, the arena and the
// servers can seat them.
package agent

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
)

// Agent answers decisions. Decide is called only for decisions of the
// agent's own seat and must return an action for that decision; an agent
// may keep state between calls within one game.
type Agent interface {
	Decide(v monopoly.View, d monopoly.Decision) monopoly.Action
}

// Resetter is an agent that can start another game in place, becoming
// the agent its Factory makes for that seat and seed: long simulations
// then make no new players for each game.
type Resetter interface {
	Reset(seat int, seed uint64)
}

// Bot is a registered kind of player.
type Bot struct {
	Name     string
	Doc      string // one line, for help texts
	Defaults Params // its parameters unless a seat overrides them
	// Reads names, by YAML name (ParamNames), the knobs its players read:
	// overriding another changes nothing (Unread). Nil: not declared.
	Reads []string
	// Make makes the bot for one seat of one game with parameters p. seed
	// is derived from the game's seed and the seat, so a bot that draws
	// random numbers is deterministic given the game.
	Make func(p Params, seat int, seed uint64) Agent
}

var registry = map[string]Bot{}

// Register makes a bot available by name. It panics on a duplicate name
// or an unknown knob in Reads: registration happens at init.
func Register(b Bot) {
	if _, dup := registry[b.Name]; dup {
		panic("agent: duplicate bot " + b.Name)
	}
	for _, k := range b.Reads {
		if !slices.Contains(ParamNames(), k) {
			panic("agent: bot " + b.Name + " reads unknown parameter " + k)
		}
	}
	registry[b.Name] = b
}

// Unread returns the knobs s sets that b does not read, by YAML name;
// none when b does not declare what it reads.
func (b Bot) Unread(s ParamSpec) []string {
	var names []string
	for _, n := range s.Names() {
		if !b.reads(n) && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

func (b Bot) reads(knob string) bool { return b.Reads == nil || slices.Contains(b.Reads, knob) }

// SeatSeed derives the seed the bot in a seat of a game receives, so that
// every table that seats it (a simulation, a session) plays it the same.
func SeatSeed(game uint64, seat int) uint64 { return monopoly.DeriveSeed(game, 1000+seat) }

// Lookup returns the named bot.
func Lookup(name string) (Bot, error) {
	b, ok := registry[name]
	if !ok {
		return Bot{}, fmt.Errorf("agent: unknown bot %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return b, nil
}

// New makes the named bot with its default parameters.
func New(name string, seat int, seed uint64) (Agent, error) {
	return NewWith(name, ParamSpec{}, seat, seed)
}

// NewWith makes the named bot with its defaults overridden by spec; knobs
// drawn at random are drawn from seed.
func NewWith(name string, spec ParamSpec, seat int, seed uint64) (Agent, error) {
	b, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return b.Make(spec.Apply(b.Defaults, paramSeed(seed)), seat, seed), nil
}

// Names lists the registered bots, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Known reports whether a bot is registered.
func Known(name string) bool { _, ok := registry[name]; return ok }
