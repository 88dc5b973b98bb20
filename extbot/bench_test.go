package extbot_test

import (
	"path/filepath"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// BenchmarkGoBot is the protocol's cost per decision: the Go example
// bot, over stdio, asked one decision again and again (a manage decision
// some rounds in, with trade options: the common case). It covers
// building the message (decision, options, the seat's state), the pipe
// both ways with the wake-ups of both processes, the bot's reading and
// answer, and decoding and checking the answer; the bot itself thinks
// for next to nothing. BenchmarkDecide is gopoly's share alone.
func BenchmarkGoBot(b *testing.B) { benchmarkProgram(b, goBot(b)) }

func benchmarkProgram(b *testing.B, command string) {
	a, err := agent.New("exec:log="+filepath.Join(b.TempDir(), "bot.log")+" "+command, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer agent.CloseAll([]agent.Agent{a})
	v, d := managePosition(b)
	a.Decide(v, d) // starts the program
	b.ReportAllocs()
	for b.Loop() {
		if act := a.Decide(v, d); act.Kind != monopoly.ActContinue && act.Kind != monopoly.ActMortgage {
			b.Fatalf("answered %v", act)
		}
	}
}

// managePosition plays baselines on to a manage decision of seat 0 some
// rounds in.
func managePosition(b *testing.B) (monopoly.View, monopoly.Decision) {
	g := monopoly.New(monopoly.DefaultRules(), 4, 3)
	bots := make([]agent.Agent, 4)
	for s := range bots {
		bots[s], _ = agent.New("baseline", s, uint64(s))
	}
	for !(g.Decider() == 0 && g.Pending().Kind == monopoly.DecisionManage && g.Round() >= 8) {
		p := g.Decider()
		if err := g.Apply(bots[p].Decide(g.View(p), g.Pending())); err != nil {
			b.Fatal(err)
		}
	}
	return g.View(0), g.Pending()
}
