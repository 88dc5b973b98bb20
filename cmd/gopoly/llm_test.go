package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/llm/llmtest"
)

// llmConfig writes an LLM configuration whose four personalities play
// against srv over its three APIs, and sets the keys it names.
func llmConfig(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	t.Setenv("GOPOLY_CLI_OPENAI_KEY", "sk-cli-OPENAI-secret-91aa")
	t.Setenv("GOPOLY_CLI_GEMINI_KEY", "AIza-cli-GEMINI-secret-22bb")
	t.Setenv("GOPOLY_CLI_ANTHROPIC_KEY", "sk-ant-cli-ANTHROPIC-secret-33cc")
	doc := fmt.Sprintf(`
timeout: 2s
retries: 1
max_retry_delay: 50ms
rate_limit_wait: 10ms
spacing: 0s
providers:
  fake-openai:    {kind: openai, base_url: %[1]q, key_env: [GOPOLY_CLI_OPENAI_KEY], concurrency: 4}
  fake-gemini:    {kind: gemini, base_url: %[2]q, key_env: [GOPOLY_CLI_GEMINI_KEY], concurrency: 4}
  fake-anthropic: {kind: anthropic, base_url: %[2]q, key_env: [GOPOLY_CLI_ANTHROPIC_KEY], concurrency: 4}
personalities:
  shark:     {provider: fake-openai, model: gpt-4o, temperature: 0.7, max_tokens: 500}
  professor: {provider: fake-gemini, model: gemini-2.5-pro, temperature: 0.3, max_tokens: 500}
  hustler:   {provider: fake-anthropic, model: claude-haiku-4-5, temperature: 1.0, max_tokens: 500}
  turtle:    {provider: fake-openai, model: gpt-4o-mini, temperature: 0.2, max_tokens: 500}
summarizer: {provider: fake-openai, model: gpt-4o-mini, max_tokens: 200}
`, srv.BaseURL("openai"), srv.BaseURL("gemini"))
	path := filepath.Join(t.TempDir(), "llm.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func noCLIKeys(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, "-secret-") {
			t.Error("an API key was printed")
		}
	}
}

// TestPlayLLMSeats plays whole games of four LLM seats against the fake
// server through the command: with --bots, and with --seats as a stored
// session that replays without a call.
func TestPlayLLMSeats(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg := llmConfig(t, srv)
	seats := "llm:shark,llm:professor,llm:hustler,llm:turtle"
	usage := regexp.MustCompile(`(?m)^  Ann +llm:shark +\d+ decisions, +\d+ calls, .* \$\d+\.\d{4}; invalid 0\.0%, fallback 0\.0%`)

	out, errOut, code := cliRun(t, "play", "--bots", seats, "--seed", "4", "--max-rounds", "12", "--llm-config", cfg)
	if code != 0 || !usage.MatchString(out) || !strings.Contains(out, `Bob: "I `) {
		t.Fatalf("play --bots: exit %d\n%s\n%s", code, tail(out, 1500), errOut)
	}
	noCLIKeys(t, out, errOut)
	if os.Getenv("GOPOLY_SHOW") != "" {
		t.Log(out[:2500], tail(out, 1500))
	}

	dir := t.TempDir()
	out, errOut, code = cliRun(t, "play", "--seats", seats, "--seed", "4", "--max-rounds", "12", "--delay", "0", "--data", dir, "--llm-config", cfg)
	if code != 0 || !usage.MatchString(out) {
		t.Fatalf("play --seats: exit %d\n%s\n%s", code, tail(out, 1500), errOut)
	}
	noCLIKeys(t, out, errOut)
	id := regexp.MustCompile(`Session ([0-9a-f]{12})`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no session id in\n%s", out)
	}
	calls := len(srv.Calls())
	out, errOut, code = cliRun(t, "replay", id[1], "--data", dir)
	if code != 0 || len(srv.Calls()) != calls {
		t.Fatalf("replay: exit %d, %d calls made\n%s\n%s", code, len(srv.Calls())-calls, tail(out, 1500), errOut)
	}
	out, _, code = cliRun(t, "export", id[1], "--data", dir)
	if code != 0 || !strings.Contains(out, `"research"`) {
		t.Fatalf("export: exit %d, no research log", code)
	}
	noCLIKeys(t, out)
}

// TestPlayLLMMissingKey: a seat whose key is missing is refused before
// the game starts, naming the variable.
func TestPlayLLMMissingKey(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg := llmConfig(t, srv)
	t.Setenv("GOPOLY_CLI_GEMINI_KEY", "")
	for _, args := range [][]string{
		{"play", "--bots", "llm:shark,llm:professor", "--players", "2", "--llm-config", cfg},
		{"play", "--seats", "human,llm:professor", "--data", t.TempDir(), "--llm-config", cfg},
		{"tournament", "--bots", "llm:professor,baseline", "--games", "2", "--llm-config", cfg},
		{"experiment", "run", llmSpec(t), "--out", filepath.Join(t.TempDir(), "run"), "--llm-config", cfg},
	} {
		out, errOut, code := cliRun(t, args...)
		if code != 2 || !strings.Contains(errOut, "set GOPOLY_CLI_GEMINI_KEY") || out != "" {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("%d calls made", n)
	}
	_, errOut, code := cliRun(t, "play", "--bots", "llm:nobody", "--llm-config", cfg)
	if code != 2 || !strings.Contains(errOut, "not a personality") {
		t.Errorf("llm:nobody: exit %d: %s", code, errOut)
	}
}

// TestTournamentLLMConcurrency: a tournament with LLM seats gives the
// same results whatever the providers' concurrency limit.
func TestTournamentLLMConcurrency(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	cfg := llmConfig(t, srv)
	var outs []string
	for _, limit := range []string{"1", "4"} {
		data, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "llm.yaml")
		os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "concurrency: 4", "concurrency: "+limit)), 0o600)
		out, errOut, code := cliRun(t, "tournament", "--bots", "llm:shark,llm:professor,baseline,llm:hustler", "--games", "4",
			"--max-rounds", "6", "--workers", "2", "--json", "--llm-config", path)
		if code != 0 {
			t.Fatalf("concurrency %s: exit %d\n%s", limit, code, errOut)
		}
		outs = append(outs, out)
	}
	// The seats' measures (latency, and the tokens of summaries shared by
	// whichever seat asked first) are measurements, not results.
	timing := regexp.MustCompile(`(?s)"measures": \{[^}]*\},?`)
	if strings.Count(outs[0], `"measures"`) != 3 || !strings.Contains(outs[0], `"cost"`) {
		t.Errorf("the three LLM seats' measures (cost, calls ...) are not in the standings:\n%s", outs[0])
	}
	if a, b := timing.ReplaceAllString(outs[0], ""), timing.ReplaceAllString(outs[1], ""); a != b {
		t.Errorf("results differ with the concurrency limit:\n%s\n%s", a, b)
	}
	if len(srv.Calls()) == 0 {
		t.Error("no model was called")
	}
}

// llmSpec writes an experiment spec that seats the Professor on a model.
func llmSpec(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	spec := "name: k\nseeds: {start: 1, count: 2, step: 1}\nvariants:\n  - {name: a, seats: [baseline, llm:professor]}\n"
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExperimentShowConsistency: experiment show counts an LLM seat's
// words against its actions over the games, and quotes examples with
// the value that judged them: here a model that buys while saying no.
func TestExperimentShowConsistency(t *testing.T) {
	srv := llmtest.New(func(c llmtest.Call) llmtest.Reply {
		for _, a := range llmtest.Legal(c.User()) {
			if strings.Contains(a, `"buy"`) {
				return llmtest.Reply{Answer: llmtest.Answer(a, "No, too expensive.", "I will buy it anyway.")}
			}
		}
		return llmtest.Player(c)
	})
	defer srv.Close()
	cfg := llmConfig(t, srv)
	spec := filepath.Join(t.TempDir(), "spec.yaml")
	doc := "name: words\nseeds: {start: 1, count: 2, step: 1}\nrules: {max_rounds: 15}\nvariants:\n  - {name: a, seats: [baseline, llm:professor]}\n"
	if err := os.WriteFile(spec, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if _, errOut, code := cliRun(t, "experiment", "run", spec, "--out", dir, "--llm-config", cfg); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	out, errOut, code := cliRun(t, "experiment", "show", dir)
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	counted := regexp.MustCompile(`speech_vs_action +([1-9]\d*) of +(\d+) choices`).FindStringSubmatch(out)
	if counted == nil || !strings.Contains(out, "a, seat 1 llm:professor: words against values over 2 games") ||
		!strings.Contains(out, `buy (the speech refuses): said "No, too expensive."`) || !strings.Contains(out, "thought_vs_action    0 of") {
		t.Fatalf("no counts with examples in:\n%s", out)
	}
	if os.Getenv("GOPOLY_SHOW") != "" {
		t.Log(out)
	}
	noCLIKeys(t, out, errOut)
	out, _, code = cliRun(t, "experiment", "show", dir, "--json")
	var got struct {
		Tallies map[string][]struct {
			Seat     int                 `json:"seat"`
			Games    int                 `json:"games"`
			Totals   map[string]float64  `json:"totals"`
			Examples map[string][]string `json:"examples"`
		} `json:"tallies"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("show --json: exit %d, %v", code, err)
	}
	if a := got.Tallies["a"]; len(a) != 1 || a[0].Seat != 1 || a[0].Games != 2 || a[0].Totals["speech_vs_action"] < 1 || len(a[0].Examples["speech_vs_action"]) != 3 {
		t.Errorf("show --json tallies: %+v", got.Tallies)
	}
}
