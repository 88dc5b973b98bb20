package llm_test

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
	"github.com/gopoly/gopoly/monopoly"
)

// buyPosition is a game at a buy decision: seat 0 on an unowned street.
func buyPosition(t *testing.T) (*monopoly.Game, monopoly.View, monopoly.Decision) {
	return buyPositionTB(t)
}

func buyPositionTB(t testing.TB) (*monopoly.Game, monopoly.View, monopoly.Decision) {
	t.Helper()
	g := monopoly.New(monopoly.DefaultRules(), 4, 3)
	g.Record(true)
	for range 200 {
		d := g.Pending()
		if d.Kind == monopoly.DecisionBuy {
			return g, g.View(d.Player), d
		}
		if err := g.Apply(monopoly.Action{Kind: monopoly.ActContinue, Player: d.Player}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no buy decision")
	return nil, monopoly.View{}, monopoly.Decision{}
}

// seatFor makes the LLM seat of a personality for seat p.
func seatFor(t *testing.T, persona string, p int) *llm.Seat { return seatForTB(t, persona, p) }

func seatForTB(t testing.TB, persona string, p int) *llm.Seat {
	t.Helper()
	a, err := agent.New("llm:"+persona, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	return a.(*llm.Seat)
}

func record(t *testing.T, ans agent.Answer) llm.Record {
	t.Helper()
	var r llm.Record
	if err := json.Unmarshal(ans.Research, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFaults answers one buy decision through each API under each kind
// of fault the issue names, and checks what the seat makes of it: the
// model's answer when it recovers, the rule-based personality's, tagged,
// when it does not.
func TestFaults(t *testing.T) {
	good := func(c llmtest.Call) llmtest.Reply {
		return llmtest.Reply{Answer: llmtest.Answer(`{"kind":"buy"}`, "Mine.", "Cheap enough.")}
	}
	legalButWrong := llmtest.Answer(`{"kind":"build","square":39}`, "Hotels!", "Build on Boardwalk.")
	cases := []struct {
		name     string
		script   func(n int) llmtest.Reply // by the call's number in this case
		fallback string                    // the start of the fallback's reason; "" for the model's answer
		invalid  int
		minWait  time.Duration
	}{
		{name: "good", script: func(int) llmtest.Reply { return good(llmtest.Call{}) }},
		{name: "malformed then good", invalid: 1, script: func(n int) llmtest.Reply {
			if n == 0 {
				return llmtest.Reply{Answer: `{"action": {"kind": "buy"`}
			}
			return good(llmtest.Call{})
		}},
		{name: "illegal twice", invalid: 2, fallback: "answer refused twice", script: func(int) llmtest.Reply {
			return llmtest.Reply{Answer: legalButWrong}
		}},
		{name: "unknown action", invalid: 2, fallback: "answer refused twice", script: func(int) llmtest.Reply {
			return llmtest.Reply{Answer: llmtest.Answer(`{"kind":"fly"}`, "", "")}
		}},
		{name: "429 with Retry-After", minWait: 30 * time.Millisecond, script: func(n int) llmtest.Reply {
			if n == 0 {
				return llmtest.Reply{Status: 429, RetryAfter: "0.03"}
			}
			return good(llmtest.Call{})
		}},
		{name: "429 without Retry-After", minWait: 15 * time.Millisecond, script: func(n int) llmtest.Reply {
			if n == 0 {
				return llmtest.Reply{Status: 429}
			}
			return good(llmtest.Call{})
		}},
		{name: "500 then good", script: func(n int) llmtest.Reply {
			if n == 0 {
				return llmtest.Reply{Status: 500}
			}
			return good(llmtest.Call{})
		}},
		{name: "500 always", fallback: "model call failed", script: func(int) llmtest.Reply { return llmtest.Reply{Status: 500} }},
		{name: "timeout", fallback: "model call failed", script: func(int) llmtest.Reply {
			return llmtest.Reply{Delay: 1500 * time.Millisecond, Answer: "{}"}
		}},
		{name: "empty", fallback: "model call failed", script: func(int) llmtest.Reply { return llmtest.Reply{Empty: true} }},
		{name: "refusal", fallback: "model call failed", script: func(int) llmtest.Reply { return llmtest.Reply{Refusal: "I cannot help with that."} }},
		{name: "garbage body", fallback: "model call failed", script: func(int) llmtest.Reply { return llmtest.Reply{Body: "<html>oops"} }},
	}
	for _, persona := range []string{"shark", "professor", "hustler", "turtle"} {
		for _, tc := range cases {
			t.Run(persona+"/"+tc.name, func(t *testing.T) {
				if tc.name == "timeout" && testing.Short() {
					t.Skip("slow")
				}
				var n atomic.Int32
				srv := llmtest.New(func(c llmtest.Call) llmtest.Reply { return tc.script(int(n.Add(1) - 1)) })
				defer srv.Close()
				cfg, logs := fakeConfig(t, srv, "")
				llm.Use(cfg)
				defer llm.Use(llm.DefaultConfig())
				_, v, d := buyPosition(t)
				s := seatFor(t, persona, d.Player)
				start := time.Now()
				ans := s.Answer(v, d)
				took := time.Since(start)
				if err := v.Check(ans.Action); err != nil {
					t.Fatalf("the seat answered an illegal action: %v", err)
				}
				rec := record(t, ans)
				if rec.Invalid != tc.invalid {
					t.Errorf("invalid answers %d, want %d", rec.Invalid, tc.invalid)
				}
				if took < tc.minWait {
					t.Errorf("answered in %v: the 429's wait of %v was not honoured", took, tc.minWait)
				}
				if tc.fallback == "" {
					if rec.Fallback != "" || ans.Action.Kind != monopoly.ActBuy || ans.Speech != "Mine." {
						t.Fatalf("want the model's answer, got %+v (fallback %q)", ans, rec.Fallback)
					}
					return
				}
				if !strings.HasPrefix(rec.Fallback, tc.fallback) {
					t.Fatalf("fallback %q, want %q...", rec.Fallback, tc.fallback)
				}
				if !strings.HasSuffix(ans.Speech, "is thinking…") || !strings.HasPrefix(ans.Thought, "[fallback: ") {
					t.Errorf("fallback words: %q / %q", ans.Speech, ans.Thought)
				}
				if !strings.Contains(logs.String(), "llm: fallback") {
					t.Error("the fallback was not logged")
				}
				if tc.invalid == 2 {
					// The corrective retry quotes the refusal and the options.
					calls := srv.Calls()
					last := calls[len(calls)-1]
					if len(last.Messages) != 3 || !strings.Contains(last.User(), "refused") || !strings.Contains(last.User(), llm.LegalHeader) {
						t.Errorf("the correction: %q", last.Messages)
					}
				}
				noKeys(t, "the answer", ans.Thought, string(ans.Research))
				noKeys(t, "the logs", logs.String())
			})
		}
	}
}

// TestKeyNeverShown: a server that echoes the key it was sent in its
// error (as OpenAI's "Incorrect API key provided" does) must not get it
// into an error, a log line or a research record.
func TestKeyNeverShown(t *testing.T) {
	srv := llmtest.New(nil)
	defer srv.Close()
	srv.SetScript(func(c llmtest.Call) llmtest.Reply {
		return llmtest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: ` + c.Key + `","type":"invalid_request_error"}}`}
	})
	cfg, logs := fakeConfig(t, srv, "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	_, v, d := buyPosition(t)
	for _, persona := range []string{"shark", "professor", "hustler", "turtle"} {
		ans := seatFor(t, persona, d.Player).Answer(v, d)
		rec := record(t, ans)
		if rec.Fallback == "" {
			t.Fatalf("%s: no fallback on a 401", persona)
		}
		noKeys(t, persona+"'s answer", ans.Thought, string(ans.Research))
	}
	noKeys(t, "the logs", logs.String())
	if !strings.Contains(logs.String(), "[redacted]") {
		t.Error("the server's echo of the key was not in the logs at all: the test tests nothing")
	}
}

// A provider that names no key sends none, not the environment's
// GEMINI_API_KEY, which belongs to another server.
func TestKeyStaysWithItsServer(t *testing.T) {
	srv := llmtest.New(func(llmtest.Call) llmtest.Reply {
		return llmtest.Reply{Status: 401, Body: `{"error":{"message":"no"}}`}
	})
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "")
	const stray = "AIza-stray-environment-key-7f3c"
	t.Setenv("GEMINI_API_KEY", stray)
	t.Setenv("GOOGLE_API_KEY", stray)
	p := cfg.Providers["fake-gemini"]
	p.KeyEnv = []string{}
	cfg.Providers["fake-gemini"] = p
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	_, v, d := buyPosition(t)
	seatFor(t, "professor", d.Player).Answer(v, d)
	calls := srv.Calls()
	if len(calls) == 0 {
		t.Fatal("the Gemini seat called nothing: the test tests nothing")
	}
	for _, c := range calls {
		if c.Key == stray {
			t.Errorf("%s was sent the environment's key", c.API)
		}
	}
}

// TestMissingKey: a seat whose provider has no key says which variable
// to set before the game starts, and plays its fallback if asked anyway.
func TestMissingKey(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "")
	t.Setenv("GOPOLY_TEST_GEMINI_KEY", "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	err := agent.Ready("llm:professor")
	if err == nil || !strings.Contains(err.Error(), "GOPOLY_TEST_GEMINI_KEY") {
		t.Fatalf("Ready: %v, want the variable named", err)
	}
	if err := agent.Ready("llm:shark"); err != nil {
		t.Fatal(err)
	}
	_, v, d := buyPosition(t)
	ans := seatFor(t, "professor", d.Player).Answer(v, d)
	if r := record(t, ans); !strings.Contains(r.Fallback, "GOPOLY_TEST_GEMINI_KEY") {
		t.Errorf("fallback %q", r.Fallback)
	}
	if len(srv.Calls()) != 0 {
		t.Error("a call went out without a key")
	}
}

// TestMaxCost: past its budget, a seat plays its fallback.
func TestMaxCost(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call) llmtest.Reply {
		r := llmtest.Player(c)
		r.Prompt, r.Completion = 100_000, 10_000 // $0.35 a call on gpt-4o
		return r
	})
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "max_cost: 1.0\n")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	_, v, d := buyPosition(t)
	s := seatFor(t, "shark", d.Player)
	var reasons []string
	for range 5 {
		reasons = append(reasons, record(t, s.Answer(v, d)).Fallback)
	}
	if reasons[2] != "" || !strings.HasPrefix(reasons[3], "max cost") || len(srv.Calls()) != 3 {
		t.Fatalf("fallbacks %q after %d calls; want the model for 3 ($1.05) and then the fallback", reasons, len(srv.Calls()))
	}
	if c := s.Stats().Cost; c < 1.04 || c > 1.06 {
		t.Errorf("cost $%.4f, want $1.05", c)
	}
}
