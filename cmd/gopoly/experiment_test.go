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

// experimentRun runs "gopoly experiment args..." in-process, on a new
// command tree; it returns stdout, stderr and the exit code main would
// give.
func experimentRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := execute(append([]string{"experiment"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

const cliSpec = `name: cli
seeds: {start: 3, count: 6}
detail: %s
rules: {max_rounds: 80}
variants:
  - name: trio
    seats: [baseline, random, baseline]
    rotate: true
  - name: pair
    seats: [baseline, baseline]
`

func writeSpec(t *testing.T, dir, detail string) string {
	t.Helper()
	path := filepath.Join(dir, "spec-"+detail+".yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(cliSpec, "%s", detail, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The seat keys `experiment show --json` prints, in order.
var showSeatKeys = []string{"seat", "bot", "wins", "win_rate", "ci95", "mean_cash", "min_cash", "properties_bought",
	"auction_bids", "auctions_won", "trades_proposed", "trades_accepted", "trades_received", "trades_accepted_when_received",
	"houses_built", "hotels_built", "first_build_round_mean", "jail_turns_served", "jail_fines_paid", "mortgages",
	"bankruptcies", "net_worth_mean"}

// orderedKeys returns the keys of a JSON object in the order written.
func orderedKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestExperimentCLI(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, "stats")
	out := filepath.Join(dir, "run")

	stdout, stderr, code := experimentRun(t, "run", spec, "--out", out, "--json")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	var run runJSON
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if run.Games != 12 || run.Done != 12 || run.Played != 12 || !run.Complete || len(run.Variants) != 2 {
		t.Fatalf("run: %+v", run)
	}

	t.Run("show-json", func(t *testing.T) {
		stdout, stderr, code := experimentRun(t, "show", out, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &top); err != nil || len(top) != 1 {
			t.Fatalf("%v: %s", err, stdout)
		}
		var variants []json.RawMessage
		if err := json.Unmarshal(top["variants"], &variants); err != nil || len(variants) != 2 {
			t.Fatalf("variants: %v, %s", err, top["variants"])
		}
		for _, v := range variants {
			if k := orderedKeys(t, v); !slices.Equal(k, []string{"name", "games", "seats"}) {
				t.Errorf("variant keys %v", k)
			}
			var vv struct {
				Name  string
				Games int
				Seats []json.RawMessage
			}
			json.Unmarshal(v, &vv)
			if vv.Games != 6 {
				t.Errorf("%s: %d games", vv.Name, vv.Games)
			}
			wins := 0
			for _, s := range vv.Seats {
				if k := orderedKeys(t, s); !slices.Equal(k, showSeatKeys) {
					t.Errorf("seat keys %v", k)
				}
				var ss map[string]any
				json.Unmarshal(s, &ss)
				wins += int(ss["wins"].(float64))
				if ss["mean_cash"] == nil || ss["net_worth_mean"] == nil {
					t.Errorf("no metrics at detail stats: %s", s)
				}
			}
			if wins > 6 || wins < 5 {
				t.Errorf("%s: %d wins in 6 games", vv.Name, wins)
			}
		}
		// The same figures as the run printed.
		again, _ := json.Marshal(run.Variants)
		if !bytes.Equal(bytes.TrimSpace(again), bytes.TrimSpace(mustCompact(t, top["variants"]))) {
			t.Error("show --json and run --json disagree")
		}
	})

	t.Run("show-text", func(t *testing.T) {
		stdout, _, code := experimentRun(t, "show", out)
		for _, want := range []string{"12 of 12 games", "== trio: 6 games, seats rotating", "== pair: 6 games", "95% CI", "per game (means)", "1    random"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("no %q in:\n%s", want, stdout)
			}
		}
		if code != 0 {
			t.Errorf("exit %d", code)
		}
		// Every column head of the behaviour table is explained in the
		// key under it.
		head, _, _ := strings.Cut(stdout[strings.Index(stdout, "per game (means)"):], "\n")
		_, key, ok := strings.Cut(stdout, "\nkey: ")
		if !ok {
			t.Fatalf("no key under the table:\n%s", stdout)
		}
		for _, col := range strings.Fields(strings.TrimPrefix(head, "per game (means)")) {
			if !regexp.MustCompile(`(?m)^  (?:.{40})?` + regexp.QuoteMeta(col) + ` +\S`).MatchString(key) {
				t.Errorf("column %q not in the key:\n%s", col, key)
			}
		}
	})

	t.Run("shards-merge", func(t *testing.T) {
		var shards []string
		for _, s := range []string{"0/2", "1/2"} {
			d := filepath.Join(dir, "shard"+s[:1])
			if _, stderr, code := experimentRun(t, "run", spec, "--out", d, "--shard", s, "--workers", "1"); code != 0 {
				t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
			}
			// Shards are dealt seeds: each plays both variants.
			stdout, _, _ := experimentRun(t, "show", d, "--json")
			var sj showJSON
			if err := json.Unmarshal([]byte(stdout), &sj); err != nil || len(sj.Variants) != 2 || sj.Variants[0].Games != 3 || sj.Variants[1].Games != 3 {
				t.Errorf("shard %s: %v, %s; want 3 games of each variant", s, err, stdout)
			}
			shards = append(shards, d)
		}
		merged := filepath.Join(dir, "merged")
		if _, stderr, code := experimentRun(t, "merge", shards[0], shards[1], "--out", merged); code != 0 {
			t.Fatalf("merge: exit %d: %s", code, stderr)
		}
		sameFiles(t, out, merged, "the merged shards differ from the single run",
			"results.jsonl", "summary.json", "variants/trio/summary.json", "winrates.svg")
		if _, stderr, code := experimentRun(t, "merge", shards[0], "--out", filepath.Join(dir, "half")); code != 2 || !strings.Contains(stderr, "missing shard 1/2") {
			t.Errorf("merging half: exit %d, %s", code, stderr)
		}
	})

	t.Run("summary-detail", func(t *testing.T) {
		d := filepath.Join(dir, "summary")
		if _, stderr, code := experimentRun(t, "run", writeSpec(t, dir, "summary"), "--out", d); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		stdout, _, _ := experimentRun(t, "show", d, "--json")
		var s showJSON
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatal(err)
		}
		for _, seat := range s.Variants[0].Seats {
			if seat.MeanCash != nil || seat.HousesBuilt != nil {
				t.Errorf("metrics at detail summary, which records none: %+v", seat)
			}
		}
	})

	t.Run("bad-input", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.yaml")
		os.WriteFile(bad, []byte("name: x\nseeds: {start: 1, count: 2}\nvariants:\n  - name: a\n    seats: [baseline, nobody]\n"), 0o644)
		other := filepath.Join(dir, "other.yaml")
		os.WriteFile(other, []byte(strings.Replace(strings.Replace(cliSpec, "count: 6", "count: 7", 1), "%s", "stats", 1)), 0o644)
		for _, c := range []struct {
			args []string
			msg  string
		}{
			{[]string{"run", bad, "--out", filepath.Join(dir, "x")}, "bad.yaml:5: variants[0].seats[1]: unknown bot"},
			{[]string{"run", filepath.Join(dir, "none.yaml")}, "no such file"},
			{[]string{"run", spec, "--shard", "2/2"}, "0 <= i < N"},
			{[]string{"run", spec, "--shard", "one"}, "want i/N"},
			{[]string{"run", other, "--out", out}, "another spec"},
			{[]string{"show", dir}, "not an experiment directory"},
		} {
			_, stderr, code := experimentRun(t, c.args...)
			if code != 2 || !strings.Contains(stderr, c.msg) {
				t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.msg)
			}
		}
	})
}

func mustCompact(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Ctrl-C stops a run of the real command cleanly: exit code 130, the
// games finished so far kept, and the same command again completes the
// run to the files of a run never stopped.
func TestExperimentInterrupt(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	os.WriteFile(spec, []byte("name: stop\nseeds: {start: 1, count: 1000}\nrules: {max_rounds: 100}\nvariants:\n"+
		"  - {name: a, seats: [baseline, baseline, baseline, baseline]}\n  - {name: b, seats: [baseline, baseline, baseline]}\n"), 0o644)
	stopped, ref := filepath.Join(dir, "stopped"), filepath.Join(dir, "ref")

	cmd := gopolyProcess("experiment", "run", spec, "--out", stopped)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(stopped, "results.jsonl")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if fi, err := os.Stat(results); err == nil && fi.Size() > 0 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	kept, _ := os.ReadFile(results)
	n := bytes.Count(kept, []byte("\n"))
	if code == 0 {
		t.Skipf("the run finished (%d games) before the interrupt", n)
	}
	if code != 130 || !strings.Contains(stderr.String(), "run the same command again to resume") || n == 0 || n == 2000 {
		t.Fatalf("interrupted run: exit %d (%v), %d games kept, stderr %q", code, err, n, stderr.String())
	}
	if out, err := gopolyProcess("experiment", "run", spec, "--out", stopped).CombinedOutput(); err != nil || !bytes.Contains(out, []byte("found there")) {
		t.Fatalf("resume: %v: %s", err, out)
	}
	if out, err := gopolyProcess("experiment", "run", spec, "--out", ref).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v: %s", err, out)
	}
	sameFiles(t, ref, stopped, "the interrupted and resumed run differs from one never stopped",
		"results.jsonl", "summary.json", "variants/b/summary.json", "winrates.png")
	t.Logf("interrupted after %d of 2000 games", n)
}

// The example specs the README runs stay valid.
func TestExampleSpecs(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	for _, f := range files {
		if _, err := arena.LoadExperiment(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// sameFiles checks that the files of directories a and b exist and hold
// the same bytes.
func sameFiles(t *testing.T, a, b, what string, files ...string) {
	t.Helper()
	for _, f := range files {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: %s", f, what)
		}
	}
}
