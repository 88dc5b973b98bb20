package llm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
)

// TestSummariesReachThePrompt plays a 40-round game at a table of four
// LLM seats with the default budgets and windows: once the first summary
// is made, every later decision prompt holds the "Earlier in the game"
// block, and every summary the summariser was asked for is in a later
// prompt (none is made to be cut).
func TestSummariesReachThePrompt(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call) llmtest.Reply {
		if strings.Contains(c.Schema, `"summary"`) {
			return llmtest.Reply{Answer: fmt.Sprintf(`{"summary":"Summary number %d of the talk."}`, c.N)}
		}
		// Long speech, different at every call, as models talk: ten
		// turns of it overflow the public history's budget.
		a := llmtest.Choose(c.User())
		return llmtest.Reply{Answer: llmtest.Answer(a, fmt.Sprintf("Call %d. %s", c.N, strings.Repeat("I have weighed the board and the bank, and here is my move. ", 3)), "fine")}
	})
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "")
	def := llm.DefaultConfig()
	if cfg.Budgets != def.Budgets || cfg.Recent != def.Recent || cfg.SummaryBatch != def.SummaryBatch {
		t.Fatal("the test is meant for the default budgets and windows")
	}
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	playLLMGame(t, 3, "max_rounds: 40", func(agent.Answer) {})

	var summaries []string // the summaries made, in order, not yet seen in a prompt
	made, late, without := 0, 0, 0
	for _, c := range srv.Calls() {
		if strings.Contains(c.Schema, `"summary"`) {
			summaries = append(summaries, fmt.Sprintf("Summary number %d of the talk.", c.N))
			made++
			continue
		}
		if made == 0 {
			continue
		}
		late++
		if !strings.Contains(c.User(), "Earlier in the game:") {
			without++
		}
		for len(summaries) > 0 && strings.Contains(c.User(), summaries[0]) {
			summaries = summaries[1:]
		}
	}
	if late == 0 {
		t.Fatal("no summary was made: the game is too short to test")
	}
	if without > 0 {
		t.Errorf("%d of %d prompts after the first summary have no summary block", without, late)
	}
	if len(summaries) > 0 {
		t.Errorf("%d summaries made never reached a prompt, the first: %q", len(summaries), summaries[0])
	}
	t.Logf("%d summaries made, %d prompts after the first", made, late)
}
