package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

var ctx = context.Background()

// TestGameReplays plays a whole game of the four LLM seats against the
// fake server, over the three APIs, as a stored session; opening it
// again in another manager replays it from its log without a single
// call, and its export imports to the same game.
func TestGameReplays(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg, logs := fakeConfig(t, srv, "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())

	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seats, err := session.ParseSeats("llm:shark,llm:professor,llm:hustler,llm:turtle")
	if err != nil {
		t.Fatal(err)
	}
	m := session.NewManager(st, session.Options{Research: true})
	s, err := m.Create(ctx, session.Setup{Rules: "max_rounds: 20", Seed: 11, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Advance(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Over {
		t.Fatalf("the game did not finish: %+v", p)
	}
	calls := len(srv.Calls())
	apis := map[string]int{}
	for _, c := range srv.Calls() {
		apis[c.API]++
	}
	if apis["openai"] == 0 || apis["gemini"] == 0 || apis["anthropic"] == 0 {
		t.Errorf("calls by API: %v, want all three", apis)
	}
	// Every answer holds its research record; the model answered them all.
	log, err := s.Log(s.Tokens().Research, 0)
	if err != nil {
		t.Fatal(err)
	}
	spoke, summaries := 0, 0
	for i, e := range log {
		var rec llm.Record
		if err := json.Unmarshal(e.Research, &rec); err != nil {
			t.Fatalf("entry %d: research %q: %v", i, e.Research, err)
		}
		if rec.Fallback != "" || len(rec.Calls) == 0 || rec.Calls[len(rec.Calls)-1].Raw == "" {
			t.Fatalf("entry %d: %+v", i, rec)
		}
		if e.Speech != "" {
			spoke++
		}
		summaries += len(rec.Summaries)
	}
	if summaries == 0 {
		t.Error("no older turns were summarised")
	}
	if spoke != len(log) {
		t.Errorf("%d of %d answers with speech", spoke, len(log))
	}
	t.Logf("%d answers, %d calls (%v), %d summaries", len(log), calls, apis, summaries)
	public, err := s.Log("", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range public {
		if e.Research != nil || e.Thought != "" {
			t.Fatalf("a spectator sees entry %d's research or thought", i)
		}
	}

	// Replay: another manager opens it from the store; any call fails.
	srv.SetScript(func(c llmtest.Call) llmtest.Reply {
		t.Errorf("replay called the model (%s)", c.API)
		return llmtest.Reply{Status: 500}
	})
	m2 := session.NewManager(st, session.Options{Research: true})
	s2, err := m2.Open(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if a, b := s.Status().Digest, s2.Status().Digest; a != b {
		t.Fatalf("replayed digest %s, played %s", b, a)
	}
	data, err := s2.Export()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"research"`) || !strings.Contains(string(data), "[PERSONALITY]") {
		t.Error("the export holds no research log")
	}
	st2, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	s3, err := session.NewManager(st2, session.Options{}).Import(ctx, data, session.Trust())
	if err != nil {
		t.Fatal(err)
	}
	if s3.Status().Digest != s.Status().Digest {
		t.Fatal("the import replays differently")
	}
	noKeys(t, "the export", string(data))
	noKeys(t, "the logs", logs.String())
}
