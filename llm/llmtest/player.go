package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopoly/gopoly/llm"
)

// Legal returns the action JSON of every legal answer a prompt lists.
func Legal(prompt string) []string {
	var out []string
	in := false
	for line := range strings.SplitSeq(prompt, "\n") {
		switch {
		case strings.HasPrefix(line, llm.LegalHeader):
			in = true
		case in && strings.HasPrefix(line, "- {"):
			js := strings.TrimPrefix(line, "- ")
			if i := strings.LastIndex(js, "}"); i >= 0 {
				js = js[:i+1]
			}
			out = append(out, js)
		case in && strings.TrimSpace(line) == "":
			return out
		}
	}
	return out
}

// preference orders the kinds of answer Player picks: it builds and
// buys, bids only a little, and never trades, so that games end.
var preference = []string{"build", "buy", "bid", "pay_jail_fine", "roll_for_doubles", "reject_trade",
	"keep_mortgaged", "mortgage", "sell_building", "move", "continue", "drop_out"}

// Choose picks one of the legal answers a prompt lists, as Player does.
func Choose(prompt string) string {
	legal := Legal(prompt)
	if len(legal) == 0 {
		return `{"kind":"continue"}`
	}
	for _, kind := range preference {
		for _, a := range legal {
			var act struct {
				Kind   string `json:"kind"`
				Amount int    `json:"amount"`
			}
			if json.Unmarshal([]byte(a), &act) != nil || act.Kind != kind {
				continue
			}
			if kind == "bid" && act.Amount > 60 {
				continue
			}
			return a
		}
	}
	return legal[0]
}

// Player answers every call as a plain but legal player would: the
// decisions by Choose, with speech and a thought that name the action;
// a summary request with a line of summary.
func Player(c Call) Reply {
	if strings.Contains(c.Schema, `"summary"`) {
		return Reply{Answer: `{"summary":"They traded words and bought streets."}`}
	}
	a := Choose(c.User())
	var act struct {
		Kind string `json:"kind"`
	}
	json.Unmarshal([]byte(a), &act)
	return Reply{Answer: Answer(a, "I "+strings.ReplaceAll(act.Kind, "_", " ")+".", fmt.Sprintf("Call %d: %s looks right.", c.N, act.Kind))}
}

// Answer writes an answer object.
func Answer(action, speech, thought string) string {
	s, _ := json.Marshal(speech)
	t, _ := json.Marshal(thought)
	return fmt.Sprintf(`{"action":%s,"public_speech":%s,"private_thought":%s}`, action, s, t)
}
