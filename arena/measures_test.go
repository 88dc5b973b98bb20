package arena

import (
	"context"
	"maps"
	"path/filepath"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

// measuring plays as the baseline and measures each game it plays: one
// "call" per decision at a cost of 0.5 each.
type measuring struct {
	*bots.Baseline
	decisions int
}

func (m *measuring) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	m.decisions++
	return m.Baseline.Decide(v, d)
}

func (m *measuring) Measures() map[string]float64 {
	return map[string]float64{"calls": float64(m.decisions), "cost": 0.5 * float64(m.decisions)}
}

func init() {
	agent.Register(agent.Bot{Name: "test-measuring", Doc: "the baseline, measuring its decisions (a player made anew each game)",
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent {
			return &measuring{Baseline: bots.NewBaseline(bots.BaselineParams())}
		}})
}

// A player's own measures reach the experiment's results and summary and
// the tournament's standings, per game, with the cost per win; bots
// measure nothing.
func TestMeasures(t *testing.T) {
	e, err := ParseExperiment("m.yaml", []byte("name: m\nseeds: {start: 1, count: 20, step: 1}\nrules: {max_rounds: 100}\nvariants:\n  - {name: a, seats: [test-measuring, baseline]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	rep, err := e.Run(context.Background(), RunOptions{Dir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	seats := rep.Summary.Variants[0].Seats
	m := seats[0].Measures
	if m == nil || m["calls"] <= 0 || m["cost"] != 0.5*m["calls"] || seats[1].Measures != nil {
		t.Fatalf("summary measures %v and %v", m, seats[1].Measures)
	}
	if seats[0].Wins > 0 && m["cost_per_win"] != m["cost"]*20/float64(seats[0].Wins) {
		t.Fatalf("cost per win %v with %d wins of 20 games at %v a game", m["cost_per_win"], seats[0].Wins, m["cost"])
	}
	// Read back from results.jsonl, the summary is the same.
	again, err := SummarizeResults(dir, e, rep.Info)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(again.Variants[0].Seats[0].Measures, m) {
		t.Fatalf("read back: %v, played: %v", again.Variants[0].Seats[0].Measures, m)
	}

	tour, err := NewTournament(TournamentConfig{Bots: []string{"test-measuring", "baseline"}, Players: 2, Games: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tally := tour.NewTally()
	if err := tour.Play(context.Background(), tally.Add); err != nil {
		t.Fatal(err)
	}
	for _, b := range tally.Summary(100).Standings().Bots {
		if measured := b.Measures != nil; measured != (b.Name == "test-measuring") || measured && b.Measures["calls"] <= 0 {
			t.Fatalf("%s: measures %v", b.Name, b.Measures)
		}
	}
}
