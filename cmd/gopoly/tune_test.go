package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopoly/gopoly/arena"
)

// tuneSpec is a tuning run of a second or so.
const tuneSpec = `name: cli
bot: baseline
field: [baseline, baseline]
knobs:
  cash_reserve: [0, 1500]
  valuation_bias: [-0.5, 1]
start: {cash_reserve: 1500}
games: 30
generations: 3
population: 5
seed: 2
max_rounds: 150
`

// The command as a user runs it: the summary, in text and JSON, the
// same for any --workers; a second run resumes and plays nothing; the
// best knobs go back into sim; each generation is an experiment that
// show reads; bad input is exit 2 and changes nothing.
func TestTuneCLI(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	os.WriteFile(spec, []byte(tuneSpec), 0o644)
	one, two := filepath.Join(dir, "one"), filepath.Join(dir, "two")

	runJSON := func(out string, workers string) (map[string]json.RawMessage, string) {
		t.Helper()
		stdout, stderr, code := inProcess("tune", spec, "--out", out, "--workers", workers, "--json")
		if code != 0 {
			t.Fatalf("tune --workers %s: exit %d: %s", workers, code, stderr)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &m); err != nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		return m, stdout
	}
	a, raw := runJSON(one, "1")
	b, _ := runJSON(two, "2")
	if got := cliKeys(t, []byte(raw)); !slices.Equal(got, []string{"games_played", "out", "played", "resumed", "seconds", "shard", "shards", "summary"}) {
		t.Errorf("--json keys %v", got)
	}
	for k := range a {
		if k != "seconds" && k != "out" && !bytes.Equal(a[k], b[k]) {
			t.Errorf("--json %s differs between 1 and 2 workers:\n%s\n%s", k, a[k], b[k])
		}
	}
	var s arena.TuneSummary
	if err := json.Unmarshal(a["summary"], &s); err != nil || !s.Complete || s.Done != 3 || s.Best == nil || s.Validation == nil ||
		string(a["games_played"]) != "510" || string(a["played"]) != "4" {
		t.Fatalf("summary %+v (%v), %s games, %s experiments played", s, err, a["games_played"], a["played"])
	}
	for _, f := range []string{arena.ProgressFile, arena.BestParamsFile, "summary.json", "progress.png", "progress.svg", arena.TuneSpecFile, arena.TuneRunFile} {
		x, _ := os.ReadFile(filepath.Join(one, f))
		y, _ := os.ReadFile(filepath.Join(two, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: missing, or differs between 1 and 2 workers", f)
		}
	}

	// Again: resumed whole, in text.
	stdout, stderr, code := inProcess("tune", spec, "--out", one)
	if code != 0 || !strings.Contains(stdout, "played 0 games") || !strings.Contains(stdout, "after the 4 experiments found there") ||
		!regexp.MustCompile(`(?m)^best: generation \d, candidate \d: `).MatchString(stdout) || !strings.Contains(stdout, "validation on 30 fresh games: start ") {
		t.Fatalf("run again: exit %d, %s\n%s", code, stderr, stdout)
	}

	// The best knobs in sim: read back, no warning of knobs nobody reads.
	best := filepath.Join(one, arena.BestParamsFile)
	stdout, stderr, code = inProcess("sim", "--bots", "baseline,baseline,baseline", "--params", best, "--games", "6", "--max-rounds", "50", "--json")
	if code != 0 || stderr != "" || !strings.Contains(stdout, `"games": 6`) {
		t.Fatalf("sim --params %s: exit %d, %q\n%s", best, code, stderr, stdout)
	}
	// Each generation is an experiment.
	stdout, stderr, code = inProcess("experiment", "show", filepath.Join(one, arena.GenerationsDir, "002"), "--json")
	if code != 0 || !strings.Contains(stdout, `"name": "c4"`) {
		t.Fatalf("experiment show of a generation: exit %d, %s\n%s", code, stderr, stdout)
	}

	// Bad input: exit 2, with the place, and nothing written.
	before, _ := os.ReadFile(filepath.Join(one, arena.ProgressFile))
	os.WriteFile(spec, []byte(strings.Replace(tuneSpec, "seed: 2", "seed: 3", 1)), 0o644)
	if _, stderr, code := inProcess("tune", spec, "--out", one); code != 2 || !strings.Contains(stderr, "from another spec") {
		t.Errorf("another spec into the same --out: exit %d, %s", code, stderr)
	}
	os.WriteFile(spec, []byte(strings.Replace(tuneSpec, "games: 30", "games: 31", 1)), 0o644)
	if _, stderr, code := inProcess("tune", spec, "--out", one); code != 2 || !strings.Contains(stderr, spec+":8: games: 31 is not a multiple of the 3 seats") {
		t.Errorf("a bad spec: exit %d, %s", code, stderr)
	}
	os.WriteFile(spec, []byte(tuneSpec), 0o644)
	if _, stderr, code := inProcess("tune", spec, "--out", one, "--shard", "2/2"); code != 2 || !strings.Contains(stderr, "--shard") {
		t.Errorf("a bad --shard: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(one, arena.ProgressFile)); !bytes.Equal(before, after) {
		t.Error("refused runs changed the directory")
	}
}

// Ctrl-C stops a tuning run of the real command cleanly: exit 130, the
// generations played kept, and the same command again ends with the
// files of a run never stopped.
func TestTuneInterrupt(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(strings.Replace(tuneSpec, "games: 30", "games: 240", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stopped, ref := filepath.Join(dir, "stopped"), filepath.Join(dir, "ref")

	cmd := gopolyProcess("tune", spec, "--out", stopped)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Once the first generation is played.
	progress := filepath.Join(stopped, arena.ProgressFile)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if fi, err := os.Stat(progress); err == nil && fi.Size() > 0 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if code == 0 {
		t.Fatal("the run finished before the interrupt: the spec must take longer than its first generation")
	}
	if code != 130 || !strings.Contains(stderr.String(), "run the same command again to resume") {
		t.Fatalf("interrupted run: exit %d (%v), stderr %q", code, err, stderr.String())
	}
	if out, err := gopolyProcess("tune", spec, "--out", stopped).CombinedOutput(); err != nil || !bytes.Contains(out, []byte("found there")) {
		t.Fatalf("resume: %v: %s", err, out)
	}
	if out, err := gopolyProcess("tune", spec, "--out", ref).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v: %s", err, out)
	}
	sameFiles(t, ref, stopped, "the interrupted and resumed run differs from one never stopped",
		arena.ProgressFile, arena.BestParamsFile, "summary.json", "progress.png", "generations/001/results.jsonl", "validation/results.jsonl")
}

// The example tuning specs the README runs stay valid.
func TestExampleTuneSpecs(t *testing.T) {
	files, err := filepath.Glob("../../examples/tune/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example tuning specs: %v", err)
	}
	for _, f := range files {
		if _, err := arena.LoadTune(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
