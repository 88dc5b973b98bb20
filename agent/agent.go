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

// Factory makes an agent for one seat of one game. seed is derived from
// the game's seed and the seat, so a bot that draws random numbers is
// deterministic given the game.
type Factory func(seat int, seed uint64) Agent

var registry = map[string]Factory{}

// Register makes a bot available by name. It panics on a duplicate name:
// registration happens at init.
func Register(name string, f Factory) {
	if _, dup := registry[name]; dup {
		panic("agent: duplicate bot " + name)
	}
	registry[name] = f
}

// New makes the named bot.
func New(name string, seat int, seed uint64) (Agent, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("agent: unknown bot %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(seat, seed), nil
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
func Known(name string) bool { return slices.Contains(Names(), name) }
