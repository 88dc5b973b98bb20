package extbot_test

import (
	"path/filepath"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// BenchmarkGoBot is the protocol's overhead per decision: the Go example
// bot, over stdio, asked one decision again and again (a manage decision
// after the first moves, with trade options: the common case). It covers
// building the message (decision, options, the seat's snapshot), the
// pipe both ways, the bot's decoding and answer, and decoding and
// checking the answer; the bot itself thinks for next to nothing.
func BenchmarkGoBot(b *testing.B) {
	a, err := agent.New("exec:log="+filepath.Join(b.TempDir(), "bot.log")+" "+goBot(b), 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer agent.CloseAll([]agent.Agent{a})
	g := monopoly.New(monopoly.DefaultRules(), 4, 3)
	bots := make([]agent.Agent, 4)
	for s := range bots {
		bots[s], _ = agent.New("baseline", s, uint64(s))
	}
	// Play on to a manage decision of seat 0 some rounds in.
	for !(g.Decider() == 0 && g.Pending().Kind == monopoly.DecisionManage && g.Round() >= 8) {
		p := g.Decider()
		if err := g.Apply(bots[p].Decide(g.View(p), g.Pending())); err != nil {
			b.Fatal(err)
		}
	}
	v, d := g.View(0), g.Pending()
	a.Decide(v, d) // starts the program
	b.ReportAllocs()
	for b.Loop() {
		if act := a.Decide(v, d); act.Kind == monopoly.ActNone {
			b.Fatal("no action")
		}
	}
}
