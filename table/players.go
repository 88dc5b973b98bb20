package table

import (
	"fmt"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // the players a table seats
	_ "github.com/gopoly/gopoly/agent/personality"
	_ "github.com/gopoly/gopoly/agent/planning"
	_ "github.com/gopoly/gopoly/extbot" // programs: exec:, tcp:, monopyly:, allowed per host
)

// Players is the registry a host's sessions seat bots from
// (session.Options.Players): every bot gopoly has, and programs (exec:,
// tcp:, monopyly:), which run a command on this machine or connect to
// one, only when programs is true; refused, their error ends with why
// (how to allow them).
func Players(programs bool, why string) func(name string) (agent.Bot, error) {
	return func(name string) (agent.Bot, error) {
		if !programs && agent.IsProgram(name) {
			return agent.Bot{}, fmt.Errorf("agent: bot %q runs a program, which this server does not seat: %s", name, why)
		}
		return agent.Lookup(name)
	}
}
