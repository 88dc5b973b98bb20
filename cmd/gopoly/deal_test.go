package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/deal"
)

// dealRun runs "gopoly deal args..." in-process, on a new command tree.
func dealRun(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(append([]string{"deal"}, args...), strings.NewReader(stdin), &out, &errOut)
	return out.String(), err
}

func dealExitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return 1
	}
	return 0
}

func TestDealTrainResumeEval(t *testing.T) {
	dir := t.TempDir()
	out, err := dealRun(t, "", "train", "--preset", "small", "--games", "8", "--sims", "2", "--batch", "4",
		"--metrics-every", "4", "--eval-games", "10", "--checkpoint-every", "4", "--out", dir, "--plot-format", "svg", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var sum dealTrainSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sum.Games != 8 || sum.Final == nil || len(sum.Figures) != 4 || sum.Mode != "batch-ordered" {
		t.Fatalf("summary %+v", sum)
	}
	for _, f := range []string{"checkpoint-0000004.json", "checkpoint-0000008.json", "policy.json", "metrics.jsonl", "metrics-winrate.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	ms, _ := deal.ReadMetrics(filepath.Join(dir, "metrics.jsonl"))
	if len(ms) != 3 || ms[0].Games != 0 || ms[2].Games != 8 {
		t.Fatalf("metrics at %v", ms)
	}
	// A second fresh run into the same directory is refused.
	if _, err := dealRun(t, "", "train", "--preset", "small", "--games", "8", "--out", dir); dealExitCode(err) != 2 {
		t.Fatalf("overwrite: %v", err)
	}
	// Resuming with a different parameter is refused; a plain resume works.
	if _, err := dealRun(t, "", "train", "--resume", "--sims", "5", "--games", "12", "--out", dir); dealExitCode(err) != 2 || !strings.Contains(err.Error(), "--sims") {
		t.Fatalf("conflicting resume: %v", err)
	}
	if _, err := dealRun(t, "", "train", "--resume", "--abstraction", "situation", "--games", "12", "--out", dir); dealExitCode(err) != 2 || !strings.Contains(err.Error(), "--abstraction") {
		t.Fatalf("resume with another abstraction: %v", err)
	}
	out, err = dealRun(t, "", "train", "--resume", "--games", "12", "--out", dir, "--eval-games", "10", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Games != 12 || sum.GamesThisRun != 4 || sum.SimsPerAction != 2 {
		t.Fatalf("resumed summary %+v %v", sum, err)
	}

	out, err = dealRun(t, "", "eval", "--policy", filepath.Join(dir, "policy.json"), "--vs", "random", "--games", "50", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"win_rate_first", "win_rate_alternating", "ci95_first", "ci95_alternating", "games"} {
		if _, ok := ev[k]; !ok {
			t.Fatalf("eval JSON lacks %s:\n%s", k, out)
		}
	}
	plot := filepath.Join(dir, "eval.png")
	if out, err = dealRun(t, "", "eval", "--policy", "risk-aware", "--vs", "all", "--games", "20", "--plot", plot); err != nil || !strings.Contains(out, "risk-aware vs random") {
		t.Fatalf("eval all: %v\n%s", err, out)
	}
	if _, err := os.Stat(plot); err != nil {
		t.Fatal(err)
	}
}

func TestDealConfigFile(t *testing.T) {
	dir := t.TempDir()
	cfg := deal.Tiny()
	cfg.MaxTurns = 40
	data, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tiny.json")
	os.WriteFile(path, data, 0o644)
	out, err := dealRun(t, "", "train", "--config", path, "--games", "4", "--sims", "2", "--batch", "2", "--eval-games", "5", "--out", filepath.Join(dir, "run"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var sum dealTrainSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.GameConfigName != "tiny" || sum.MaxTurns != 40 {
		t.Fatalf("summary %+v %v", sum, err)
	}
	cfg.Colours[0].SetSize = 9
	data, _ = json.Marshal(cfg)
	os.WriteFile(path, data, 0o644)
	_, err = dealRun(t, "", "train", "--config", path, "--out", filepath.Join(dir, "run2"))
	if dealExitCode(err) != 2 || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "colours[0].set_size") {
		t.Fatalf("bad config: %v", err)
	}
}

func TestDealBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format": "gopoly-deal-checkpoint/1", "abstraction_cls": "Nope"}`), 0o644)
	for _, args := range [][]string{
		{"eval", "--policy", bad},
		{"eval", "--policy", filepath.Join(dir, "missing.json")},
		{"eval", "--policy", "random", "--vs", "nobody"},
		{"eval"},
		{"train", "--mode", "chaotic", "--out", dir},
		{"train", "--abstraction", "psychic", "--out", dir},
		{"train", "--preset", "huge", "--out", dir},
		{"train", "--resume", "--out", filepath.Join(dir, "empty")},
		{"play", "--policy", "random", "--first", "nobody"},
		{"bench", "--games", "0"},
	} {
		_, err := dealRun(t, "", args...)
		if dealExitCode(err) != 2 {
			t.Fatalf("%v: exit %d (%v), want 2", args, dealExitCode(err), err)
		}
		if args[0] == "eval" && len(args) > 2 && args[2] == bad && (!strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "abstraction_cls")) {
			t.Fatalf("error %v does not name the file and field", err)
		}
	}
}

func TestDealBenchAndPlay(t *testing.T) {
	out, err := dealRun(t, "", "bench", "--games", "2000", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var b dealBenchResult
	if err := json.Unmarshal([]byte(out), &b); err != nil || b.Games != 2000 || b.MeanTurns <= 0 {
		t.Fatalf("bench %+v %v", b, err)
	}
	// A person who asks for help once and then always takes the first
	// move plays a whole game.
	record := filepath.Join(t.TempDir(), "game.json")
	out, err = dealRun(t, "?\n"+strings.Repeat("x\n1\n", 400), "play", "--policy", "untrained", "--seed", "3", "--record", record)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Your hand:", "Agent: ", "type a number", "How to play", "Win with 2 complete property sets", "turn 1 "} {
		if !strings.Contains(out, want) {
			t.Fatalf("play output lacks %q:\n%s", want, out)
		}
	}
	checkDealTranscript(t, out)
	// The agent's hidden hand stays hidden unless --reveal asks for it.
	if strings.Contains(out, "alternatives:") {
		t.Error("play without --reveal names the agent's other moves, and so cards of its hand")
	}
	if !strings.Contains(out, "You win") && !strings.Contains(out, "agent wins") && !strings.Contains(out, "Draw") {
		t.Fatalf("game did not finish:\n%s", out[max(0, len(out)-2000):])
	}
	// The bundled agent plays through its own abstraction's keys, and
	// --reveal weighs its moves with them.
	out, err = dealRun(t, strings.Repeat("1\n", 400), "play", "--policy", "bundled", "--seed", "5", "--reveal")
	if err != nil {
		t.Fatal(err)
	}
	checkDealTranscript(t, out)
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var rec deal.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if g, err := deal.Replay(rec); err != nil || !g.Over() {
		t.Fatalf("replay of the recorded game: over %v, %v", g.Over(), err)
	}
}

// checkDealTranscript checks what a person reads of a game: turns counted
// up one at a time (a rent exchange stays in its turn), the agent's moves
// in words with their probability, and none of the learner's keys or the
// paper's names of the actions.
func checkDealTranscript(t *testing.T, out string) {
	t.Helper()
	turns := regexp.MustCompile(`(?m)(?:^|> |── )turn (\d+) `).FindAllStringSubmatch(out, -1)
	if len(turns) < 10 {
		t.Fatalf("%d turn numbers in:\n%s", len(turns), out)
	}
	prev := 0
	for _, m := range turns {
		n, _ := strconv.Atoi(m[1])
		if n != prev && n != prev+1 {
			t.Fatalf("turn %d after turn %d in:\n%s", n, prev, out)
		}
		prev = n
	}
	moves := regexp.MustCompile(`Agent: [A-Z][^\n]* — (\d+%|<1%|its only move)`).FindAllString(out, -1)
	if len(moves) < 3 {
		t.Errorf("%d agent moves with a probability in:\n%s", len(moves), out)
	}
	for _, bad := range []string{deal.AbstractionName, deal.SituationAbstractionName, "@", "StartNewPropertySet", "AttemptCollectRent", "GiveOpponentCash", "cash:", "property:", "rent:"} {
		if strings.Contains(out, bad) {
			t.Errorf("transcript shows %q:\n%s", bad, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour in output that is not a terminal")
	}
}

// Colour is added only when asked for (a terminal without NO_COLOR).
func TestDealPlayColour(t *testing.T) {
	rules := deal.MustRules(deal.Tiny())
	agent, _ := deal.Baseline("risk-aware")
	var plain, colour bytes.Buffer
	input := strings.Repeat("1\n", 200)
	if err := dealPlay(strings.NewReader(input), &plain, rules, agent, 7, 1, "", true, false); err != nil {
		t.Fatal(err)
	}
	if err := dealPlay(strings.NewReader(input), &colour, rules, agent, 7, 1, "", true, true); err != nil {
		t.Fatal(err)
	}
	checkDealTranscript(t, plain.String())
	if !strings.Contains(colour.String(), dealAgentStyle+"Agent") {
		t.Errorf("no colour:\n%s", colour.String())
	}
	stripped := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(colour.String(), "")
	if stripped != plain.String() {
		t.Error("the coloured transcript says something else than the plain one")
	}
}

// The training figures are drawn from the metrics file: one file per
// figure, and none without metrics.
func TestDealPlotMetrics(t *testing.T) {
	tr, err := deal.NewTrainer(deal.Small(), deal.Params{Sims: 2, Epsilon: 0.1, Buffer: 4, Seed: 11, Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(t.Context(), 8, nil); err != nil {
		t.Fatal(err)
	}
	ms := []deal.Metrics{tr.Metrics(10, 1), tr.Metrics(10, 1)}
	dir := t.TempDir()
	if files, err := dealPlotMetrics(dir, "svg", nil); err != nil || len(files) != 0 {
		t.Fatalf("no metrics: %v %v", files, err)
	}
	files, err := dealPlotMetrics(dir, "svg", ms)
	if err != nil || len(files) != 4 {
		t.Fatalf("plots %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(data, []byte("<svg")) {
			t.Fatalf("%s: %v, not an SVG", f, err)
		}
	}
}
