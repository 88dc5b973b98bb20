package llm_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
	"github.com/gopoly/gopoly/monopoly"
)

// TestInjectedFaults plays games of four LLM seats while the server
// injects faults into a third of the calls, until GOPOLY_LLM_FAULTS
// faults (default 80; the full run is 1000) have been injected:
// every game must finish, and every fallback must be logged, in the
// research record and in the log.
func TestInjectedFaults(t *testing.T) {
	want := 80
	if s := os.Getenv("GOPOLY_LLM_FAULTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("GOPOLY_LLM_FAULTS=%q: want a positive count", s)
		}
		want = n
	}
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2))
	injected := 0
	illegal := llmtest.Answer(`{"kind":"build","square":39}`, "x", "y")
	faults := []func() llmtest.Reply{
		func() llmtest.Reply { return llmtest.Reply{Answer: `{"action":`} },
		func() llmtest.Reply { return llmtest.Reply{Answer: illegal} },
		func() llmtest.Reply { return llmtest.Reply{Status: 429, RetryAfter: "0.005"} },
		func() llmtest.Reply { return llmtest.Reply{Status: 429} },
		func() llmtest.Reply { return llmtest.Reply{Status: 500, RetryAfter: "0.005"} },
		func() llmtest.Reply { return llmtest.Reply{Status: 503, RetryAfter: "0.005"} },
		func() llmtest.Reply { return llmtest.Reply{Empty: true} },
		func() llmtest.Reply { return llmtest.Reply{Refusal: "no"} },
		func() llmtest.Reply { return llmtest.Reply{Body: "{not json"} },
	}
	srv := llmtest.New(func(c llmtest.Call) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		if injected < want && rng.IntN(3) == 0 {
			injected++
			return faults[rng.IntN(len(faults))]()
		}
		return llmtest.Player(c)
	})
	defer srv.Close()
	cfg, logs := fakeConfig(t, srv, "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())

	games, fallbacks := 0, 0
	for seed := uint64(1); ; seed++ {
		mu.Lock()
		done := injected >= want
		mu.Unlock()
		if done {
			break
		}
		playLLMGame(t, seed, "max_rounds: 12", func(ans agent.Answer) {
			var rec llm.Record
			if err := json.Unmarshal(ans.Research, &rec); err != nil {
				t.Fatalf("research: %v", err)
			}
			if rec.Fallback != "" {
				fallbacks++
				if !strings.HasPrefix(ans.Thought, "[fallback: ") {
					t.Errorf("a fallback's thought is not tagged: %q", ans.Thought)
				}
			}
		})
		games++
	}
	logged := strings.Count(logs.String(), "llm: fallback")
	if logged != fallbacks || fallbacks == 0 {
		t.Errorf("%d fallbacks in the answers, %d logged", fallbacks, logged)
	}
	t.Logf("%d faults injected over %d games: %d fallbacks", injected, games, fallbacks)
	noKeys(t, "the logs", logs.String())
}

// playLLMGame plays a game of the four LLM personalities to its end
// under the rules' overrides, telling applied each answer.
func playLLMGame(t *testing.T, seed uint64, rules string, applied func(agent.Answer)) {
	t.Helper()
	r, err := monopoly.DefaultRules().WithOverrides("test", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	g := monopoly.New(r, 4, seed)
	g.Record(true)
	var agents []agent.Agent
	for i, p := range []string{"shark", "professor", "hustler", "turtle"} {
		a, err := agent.New("llm:"+p, i, agent.SeatSeed(seed, i))
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	d := agent.Driver{Agents: agents, Words: true, Max: 20000, Applied: func(g *monopoly.Game, _ int, ans agent.Answer) error {
		applied(ans)
		g.TakeEvents()
		return nil
	}}
	if _, stop, err := d.Run(ctx, g); err != nil || stop != agent.StopOver || !g.Over() {
		t.Fatalf("game %d did not finish: %v, %v", seed, stop, err)
	}
}
