package llm_test

import (
	"testing"

	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
)

// BenchmarkDecision is the overhead of one LLM decision without the
// model's time: the fallback's answer, the prompt's six sections, the
// SDK's request and its reading, the loopback round trip to a fake that
// answers at once, and the answer decoded and checked. One benchmark per
// API.
func BenchmarkDecision(b *testing.B) {
	for _, persona := range []string{"shark", "professor", "hustler"} {
		b.Run(map[string]string{"shark": "openai", "professor": "gemini", "hustler": "anthropic"}[persona], func(b *testing.B) {
			srv := llmtest.New(func(c llmtest.Call) llmtest.Reply {
				return llmtest.Reply{Answer: llmtest.Answer(`{"kind":"buy"}`, "Mine.", "Cheap.")}
			})
			defer srv.Close()
			cfg, _ := fakeConfig(b, srv, "")
			cfg.Logger = nil
			llm.Use(cfg)
			defer llm.Use(llm.DefaultConfig())
			_, v, d := buyPositionTB(b)
			s := seatForTB(b, persona, d.Player)
			b.ReportAllocs()
			for b.Loop() {
				if ans := s.Answer(v, d); len(ans.Research) == 0 {
					b.Fatal("no research record")
				}
			}
		})
	}
}
