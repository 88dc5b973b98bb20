package agent_test

import (
	"context"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// Every registered bot plays whole games under the speed die, answering
// the Bus and triples (arena.Simulate fails on an illegal answer).
func TestEveryBotPlaysTheSpeedDie(t *testing.T) {
	r := monopolytest.Rules(t, "speed_die: true\nmax_rounds: 150")
	for _, name := range agent.Names() {
		t.Run(name, func(t *testing.T) {
			cfg := arena.Config{Rules: r, Players: 4, Bots: []string{name, "baseline"}, Seed: 5, Games: 2}
			res, err := arena.Simulate(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s := arena.Summarize(cfg, res); s.Games != 2 {
				t.Fatalf("%d games played, want 2", s.Games)
			}
		})
	}
}
