// Package agent is the contract between the engine and its players: an
// Agent answers the engine's pending decision given only its view of the
// game. Bots register here by name so that the CLI, the arena and the
// servers can seat them.
package agent

import (
	"fmt"
	"io"
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
	// Outside marks a bot whose answers come from outside this process
	// (a program over a pipe or a socket): they are deterministic given
	// its answers, not given the game, so a replay of a logged game
	// takes its logged answers instead of asking it again.
	Outside bool
	// Ready, if set, says whether the bot can play in this environment
	// (an LLM seat needs its API key); nil: always.
	Ready func() error
}

var (
	registry = map[string]Bot{}
	schemes  = map[string]Scheme{}
)

// Scheme resolves bot names of the form "SCHEME:ARG", such as
// "exec:python3 bot.py": players whose kind is named by the scheme and
// whose particulars by the argument, so that every command and spec that
// names bots seats them without knowing of them.
type Scheme struct {
	Doc string // one line, for help texts: "exec:CMD  a program over stdin and stdout"
	// Resolve checks arg and returns the bot it names (Name set to the
	// whole "SCHEME:ARG"); a bad arg is an error saying what is wrong.
	// It must not start anything: Make does, or the player's first
	// decision.
	Resolve func(arg string) (Bot, error)
	// Program marks a scheme whose bots run a command or connect to a
	// program (exec:, tcp:, monopyly:): a host that seats bots its
	// clients name refuses them (the registry it passes in, such as
	// table.Players).
	Program bool
}

// RegisterScheme makes bot names "name:ARG" resolve through s. It panics
// on a duplicate: registration happens at init.
func RegisterScheme(name string, s Scheme) {
	if _, dup := schemes[name]; dup || strings.ContainsAny(name, ":, ") {
		panic("agent: duplicate or malformed scheme " + name)
	}
	schemes[name] = s
}

// Schemes lists the registered schemes' docs, sorted.
func Schemes() []string {
	docs := make([]string, 0, len(schemes))
	for _, s := range schemes {
		docs = append(docs, s.Doc)
	}
	sort.Strings(docs)
	return docs
}

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

// Lookup returns the named bot: a registered one, or one a scheme
// resolves ("exec:python3 bot.py"). This is where every command, spec
// and session resolves the bots it names.
func Lookup(name string) (Bot, error) {
	if b, ok := registry[name]; ok {
		return b, nil
	}
	if scheme, arg, ok := strings.Cut(name, ":"); ok {
		if s, ok := schemes[scheme]; ok {
			b, err := s.Resolve(arg)
			if err != nil {
				return Bot{}, fmt.Errorf("agent: bot %q: %w", name, err)
			}
			b.Name = name
			return b, nil
		}
	}
	known := strings.Join(Names(), ", ")
	if len(schemes) > 0 {
		names := make([]string, 0, len(schemes))
		for n := range schemes {
			names = append(names, n+":...")
		}
		sort.Strings(names)
		known += "; or " + strings.Join(names, ", ")
	}
	return Bot{}, fmt.Errorf("agent: unknown bot %q (known: %s)", name, known)
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
	return b.New(spec, seat, seed), nil
}

// New makes b for one seat with its defaults overridden by spec, as
// NewWith does for a bot already looked up.
func (b Bot) New(spec ParamSpec, seat int, seed uint64) Agent {
	return b.Make(spec.Apply(b.Defaults, paramSeed(seed)), seat, seed)
}

// IsProgram reports whether name is resolved by a Program scheme
// (exec:, tcp:, monopyly:): seating it runs a command or connects to a
// program, which a host allows only when it says so.
func IsProgram(name string) bool {
	scheme, _, ok := strings.Cut(name, ":")
	return ok && schemes[scheme].Program
}

// Names lists the registered bots, sorted (schemes, which resolve
// names on demand, are not listed: see Schemes).
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Known reports whether a bot is registered or a scheme resolves it.
func Known(name string) bool { _, err := Lookup(name); return err == nil }

// IsOutside reports whether the named bot answers from outside this
// process (Bot.Outside).
func IsOutside(name string) bool { b, err := Lookup(name); return err == nil && b.Outside }

// Follower is a player that follows the game between its own decisions:
// a program elsewhere, which is told what its seat may see of what
// happened since it last decided, and how the game ended. Driver hands
// it the events each action records (a table that seats a follower
// records its game's events: Following), before its Applied hook sees
// them; a game that does not record tells it nothing.
type Follower interface {
	Agent
	Follow(r *monopoly.Rules, events []monopoly.Event)
}

// Measurer is a player with measures of its own beyond the game's: an
// LLM seat's calls, fallbacks, tokens and cost in the game it played.
// Tournaments and experiments record them per seat and game, and sum
// them up; a player made anew for each game measures that game.
type Measurer interface {
	Agent
	Measures() map[string]float64
}

// Numbered is a player told which game of a run it sits down to, by the
// index the run's results give it (0 for the first), before the game's
// first decision: a program's seat names the game so in what it logs,
// whichever game of its own program's it is.
type Numbered interface {
	Agent
	Number(game int)
}

// Account is how much of a seat's play in one game was not its own.
type Account struct {
	Fallbacks   int // decisions its fallback bot answered
	Retirements int // times it was retired for the rest of the game (0 or 1)
}

// Accountable is a player whose answers may come from a stand-in: a
// program, which a fallback bot answers for when it fails, and replaces
// for the rest of a game when it is retired. Tables read its Account
// after each game, and simulations, tournaments and experiments report
// it, so that a program that failed is never scored as if it had
// played.
type Accountable interface {
	Agent
	Account() Account
}

// Following reports whether any of agents is a Follower.
func Following(agents []Agent) bool {
	for _, a := range agents {
		if _, ok := a.(Follower); ok {
			return true
		}
	}
	return false
}

// CloseAll closes the agents that hold something to close (io.Closer: a
// child process, a connection), and returns the first error. Tables and
// commands call it when their games are done.
func CloseAll(agents []Agent) error {
	var first error
	for _, a := range agents {
		if c, ok := a.(io.Closer); ok {
			if err := c.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first

}

// Ready reports whether the named bot can play now, with what its
// environment must give it (an API key), so that a host can refuse a
// table before the game starts rather than fail in the middle of it.
func Ready(name string) error {
	b, err := Lookup(name)
	if err != nil {
		return err
	}
	if b.Ready != nil {
		if err := b.Ready(); err != nil {
			return fmt.Errorf("agent: bot %q: %w", name, err)
		}
	}
	return nil
}
