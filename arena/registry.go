package arena

import "github.com/gopoly/gopoly/agent"

// A Registry finds the players a run seats, by name: the registry its
// caller passes in (table.Players, session.Options.Players), which
// decides, for one, whether programs (exec:, tcp:, monopyly:) may be
// seated. Nil: agent.Lookup, every player linked into the program.
type Registry func(name string) (agent.Bot, error)

// Lookup finds the bot called name in r.
func (r Registry) Lookup(name string) (agent.Bot, error) {
	if r == nil {
		return agent.Lookup(name)
	}
	return r(name)
}
