package llm

import (
	"sync"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // the fallbacks: baseline for personas
	_ "github.com/gopoly/gopoly/agent/personality"
)

var (
	currentMu sync.Mutex
	current   = DefaultConfig()
)

// Use makes cfg the configuration of the llm seats resolved from now on
// (the CLI's --llm-config; tests' fake servers).
func Use(cfg *Config) {
	currentMu.Lock()
	current = cfg
	currentMu.Unlock()
}

// Current returns the configuration llm seats are made with.
func Current() *Config {
	currentMu.Lock()
	defer currentMu.Unlock()
	return current
}

func init() {
	agent.RegisterScheme("llm", agent.Scheme{
		Doc:     "llm:PERSONA  a personality (shark, professor, hustler, turtle) or a persona file on a language model",
		Resolve: resolve,
	})
}

// resolve makes the bot of "llm:ARG": the persona of ARG on its
// configured model, with the parameters and knobs of its fallback.
func resolve(arg string) (agent.Bot, error) {
	p, err := PersonaFor(arg)
	if err != nil {
		return agent.Bot{}, err
	}
	fb, err := agent.Lookup(p.Fallback)
	if err != nil {
		return agent.Bot{}, err
	}
	cfg := Current()
	return agent.Bot{
		Doc:      p.Name + " on a language model, " + p.Fallback + " when the model fails",
		Defaults: fb.Defaults,
		Reads:    fb.Reads,
		Make: func(params agent.Params, seat int, seed uint64) agent.Agent {
			return NewSeat(cfg, p, fb.Make(params, seat, seed), seat)
		},
		Ready: func() error { return cfg.Ready(p.Key) },
	}, nil
}
