// Package agenttest registers players for tests of runs that go wrong:
// imported only by tests, it keeps them out of the gopoly command.
//
//   - test-idle (and test-idle-too, to seat two names in a tournament)
//     buys nothing and lets every auction go, so that without a round
//     limit a table of them plays for ever;
//   - test-faulty plays as test-idle but answers its 50th decision in
//     seat 1 of a game whose seat seed is odd with an action the rules
//     refuse, as a buggy bot would.
package agenttest

import (
	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

func init() {
	for _, name := range []string{"test-idle", "test-idle-too"} {
		agent.Register(agent.Bot{Name: name, Doc: "buys nothing: games without a round limit never end",
			Make: func(agent.Params, int, uint64) agent.Agent { return Idle{} }})
	}
	agent.Register(agent.Bot{Name: "test-faulty", Doc: "idle, then an illegal action in seat 1 of games with an odd seat seed",
		Make: func(_ agent.Params, seat int, seed uint64) agent.Agent {
			return &faulty{fail: Fails(seat, seed)}
		}})
}

// Fails reports whether test-faulty made for seat with seed plays an
// illegal action.
func Fails(seat int, seed uint64) bool { return seat == 1 && seed%2 == 1 }

// Idle answers every decision by doing nothing it can avoid.
type Idle struct{}

// idleAnswers is what Idle answers each decision with; the rest it
// continues.
var idleAnswers = map[monopoly.DecisionKind]monopoly.ActionKind{
	monopoly.DecisionJail:              monopoly.ActRollForDoubles,
	monopoly.DecisionBuy:               monopoly.ActDecline,
	monopoly.DecisionBid:               monopoly.ActDropOut,
	monopoly.DecisionTradeResponse:     monopoly.ActRejectTrade,
	monopoly.DecisionRaiseCash:         monopoly.ActDeclareBankruptcy,
	monopoly.DecisionMortgagedTransfer: monopoly.ActKeepMortgaged,
}

// Decide declines, drops out, rejects, rolls for doubles in jail, goes
// bankrupt rather than raise cash, and makes the first move the speed die
// allows.
func (Idle) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if d.Kind == monopoly.DecisionMovement {
		return v.LegalActions(nil)[0]
	}
	kind, ok := idleAnswers[d.Kind]
	if !ok {
		kind = monopoly.ActContinue
	}
	return monopoly.Action{Kind: kind, Player: d.Player}
}

type faulty struct {
	fail bool
	n    int
}

func (f *faulty) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if f.n++; f.fail && f.n == 50 {
		// GO cannot be mortgaged, let alone lifted.
		return monopoly.Action{Kind: monopoly.ActUnmortgage, Player: d.Player, Arg: 0}
	}
	return Idle{}.Decide(v, d)
}
