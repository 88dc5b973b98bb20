package arena

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// refusing is a registry that refuses "random", saying so, and counts
// the bots it is asked for.
func refusing(asked *int) Registry {
	return func(name string) (agent.Bot, error) {
		*asked++
		if name == "random" {
			return agent.Bot{}, errors.New("not seated here")
		}
		return agent.Lookup(name)
	}
}

// TestRegistryPassedIn checks that every run arena makes for a caller
// seats its bots from the caller's registry: a bot it refuses is
// refused, with its reason, by a config, a tournament, an experiment and
// the chances to win, and the same runs seat from it what it allows.
func TestRegistryPassedIn(t *testing.T) {
	asked := 0
	reg := refusing(&asked)
	r := monopoly.DefaultRules()
	refused := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "not seated here") {
			t.Errorf("%s with a refused bot: %v", what, err)
		}
	}

	c := Config{Rules: r, Players: 2, Bots: []string{"baseline", "random"}, Games: 1, Registry: reg}
	refused("Config.Validate", c.Validate())
	_, err := NewTournament(TournamentConfig{Rules: r, Bots: []string{"baseline", "random"}, Players: 2, Games: 1, Registry: reg})
	refused("NewTournament", err)
	e, err := ParseExperiment("example.yaml", []byte(exampleSpec))
	if err != nil {
		t.Fatal(err)
	}
	refused("Experiment.Seatable", e.Seatable(reg))
	_, err = e.Run(context.Background(), RunOptions{Dir: t.TempDir(), Registry: reg})
	refused("Experiment.Run", err)
	_, err = WinOdds(context.Background(), monopoly.New(r, 2, 1), -1, OddsOptions{Samples: 1, Bot: "random", Registry: reg})
	refused("WinOdds", err)

	asked = 0
	c.Bots = []string{"baseline", "shark"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RunGame(0, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := WinOdds(context.Background(), monopoly.New(r, 2, 1), -1, OddsOptions{Samples: 1, Registry: reg}); err != nil {
		t.Fatal(err)
	}
	// Validate asks for both bots, the game seats both, the odds their bot.
	if asked != 5 {
		t.Errorf("the registry was asked for %d bots, want 5", asked)
	}
}
