package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/internal/strictyaml"
)

// The example form, with bots of this branch.
const exampleSpec = `name: personalities
seeds: {start: 1, count: 1000, step: 1}
detail: stats                  # summary | stats | full
rules: {}                      # overrides of the default rules
variants:
  - name: all-four
    seats: [baseline, random, baseline, random]
    params: {}                 # optional: seat index -> parameter overrides
`

func TestParseExperimentExample(t *testing.T) {
	e, err := ParseExperiment("example.yaml", []byte(exampleSpec))
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "personalities" || e.Seeds != (SeedRange{Start: 1, Count: 1000, Step: 1}) || e.Detail != DetailStats ||
		len(e.Variants) != 1 || e.Games() != 1000 {
		t.Fatalf("parsed %+v", e)
	}
	v := e.Variants[0]
	if v.Name != "all-four" || len(v.Seats) != 4 || v.Seats[1].Bot != "random" || v.Rotate {
		t.Fatalf("variant %+v", v)
	}
	if v.Rules.MaxRounds != DefaultExperimentRounds {
		t.Errorf("round limit %d, want the experiments' default %d", v.Rules.MaxRounds, DefaultExperimentRounds)
	}
}

// More keys: rotation, variant rules over the experiment's, parameters
// (fixed and drawn).
func TestParseExperimentKeys(t *testing.T) {
	src := `name: knobs
description: anything
seeds: {start: 0, count: 10, step: 7}
detail: full
rules: {max_rounds: 120, jail_fine: 60}
variants:
  - name: a
    seats: [baseline, baseline, random]
    rotate: true
    params:
      all: {rich_factor: 3}
      0: {cash_reserve: 400, rich_factor: 5}
      2: {cash_reserve: {mean: 200, std: 50}}
  - name: b
    seats: [baseline, baseline]
    rules: {max_rounds: 0, auctions: false}
`
	e, err := ParseExperiment("knobs.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if e.Detail != DetailFull || e.Seeds.Seed(3) != 21 {
		t.Errorf("detail %v, seed of game 3 %d", e.Detail, e.Seeds.Seed(3))
	}
	a, b := e.Variants[0], e.Variants[1]
	if !a.Rotate || !a.Seats[2].Params.Sampled() || a.Seats[1].Params.Sampled() || !b.Seats[0].Params.Empty() {
		t.Errorf("variant a: %+v", a)
	}
	// A seat's own overrides go on top of those for all.
	for seat, want := range []agent.Params{{CashReserve: 400, RichFactor: 5}, {RichFactor: 3}} {
		if got := a.Seats[seat].Params.Apply(agent.Params{}, 1); got != want {
			t.Errorf("seat %d plays with %+v, want %+v", seat, got, want)
		}
	}
	if got := a.Seats[2].Params.Apply(agent.Params{}, 1); got.RichFactor != 3 || got.CashReserve == 0 {
		t.Errorf("seat 2 plays with %+v", got)
	}
	if a.Rules.MaxRounds != 120 || a.Rules.JailFine != 60 || !a.Rules.Auctions {
		t.Errorf("variant a rules: max_rounds %d, jail_fine %d, auctions %v", a.Rules.MaxRounds, a.Rules.JailFine, a.Rules.Auctions)
	}
	if b.Rules.MaxRounds != 0 || b.Rules.JailFine != 60 || b.Rules.Auctions {
		t.Errorf("variant b rules: max_rounds %d, jail_fine %d, auctions %v", b.Rules.MaxRounds, b.Rules.JailFine, b.Rules.Auctions)
	}
	if got := fmt.Sprint(a.Seating(0), a.Seating(1), a.Seating(5)); got != "[0 1 2] [1 2 0] [2 0 1]" {
		t.Errorf("seatings %s", got)
	}
	// What counts for the fingerprint: not comments, layout or the
	// description; the seeds, the seats, the rules and the parameters do.
	same := strings.NewReplacer("description: anything", "# a comment", "{max_rounds: 120, jail_fine: 60}", "\n  jail_fine: 60\n  max_rounds: 120")
	e2, err := ParseExperiment("other.yaml", []byte(same.Replace(src)))
	if err != nil {
		t.Fatal(err)
	}
	if e2.Fingerprint() != e.Fingerprint() {
		t.Error("a comment and another layout changed the fingerprint")
	}
	// Seats under seats:, as a --params file may give them, are the same
	// overrides as seats standing alone.
	nested := strings.NewReplacer("      0: {cash", "      seats:\n        0: {cash", "      2: {cash", "        2: {cash").Replace(src)
	e4, err := ParseExperiment("nested.yaml", []byte(nested))
	if err != nil {
		t.Fatalf("%v:\n%s", err, nested)
	}
	if e4.Fingerprint() != e.Fingerprint() {
		t.Error("params under seats: changed the fingerprint")
	}
	for s := range e.Variants[0].Seats {
		if !e4.Variants[0].Seats[s].Params.Equal(e.Variants[0].Seats[s].Params) {
			t.Errorf("seat %d: other overrides under seats:", s)
		}
	}
	for _, change := range [][2]string{{"step: 7", "step: 8"}, {"jail_fine: 60", "jail_fine: 61"}, {"mean: 200", "mean: 201"},
		{"rotate: true", "rotate: false"}, {"[baseline, baseline]", "[baseline, random]"}, {"detail: full", "detail: stats"}} {
		e3, err := ParseExperiment("x.yaml", []byte(strings.Replace(src, change[0], change[1], 1)))
		if err != nil {
			t.Fatal(err)
		}
		if e3.Fingerprint() == e.Fingerprint() {
			t.Errorf("%s -> %s kept the fingerprint", change[0], change[1])
		}
	}
}

// Bad specs are errors naming the file, the line and the field.
func TestParseExperimentErrors(t *testing.T) {
	const head = "name: x\nseeds: {start: 1, count: 10}\n"
	const two = "variants:\n  - name: a\n    seats: [baseline, baseline]\n"
	for _, c := range []struct {
		name, src string
		line      int
		field     string
		msg       string
	}{
		{"unknown top key", head + "colour: red\n" + two, 3, "colour", "unknown key"},
		{"unknown variant key", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    rotat: true\n", 6, "variants[0].rotat", "unknown key"},
		{"unknown seeds key", "name: x\nseeds: {start: 1, count: 10, stride: 2}\n" + two, 2, "seeds.stride", "unknown key"},
		{"count not a number", "name: x\nseeds: {start: 1, count: ten}\n" + two, 2, "seeds.count", "want an integer"},
		{"negative start", "name: x\nseeds: {start: -1, count: 3}\n" + two, 2, "seeds.start", "non-negative"},
		{"zero count", "name: x\nseeds: {start: 1, count: 0}\n" + two, 2, "seeds.count", "at least 1"},
		{"zero step", "name: x\nseeds: {start: 1, count: 3, step: 0}\n" + two, 2, "seeds.step", "at least 1"},
		{"seeds wrap", "name: x\nseeds: {start: 5, count: 4, step: 9223372036854775808}\n" + two, 2, "seeds", "wrap around 2^64"},
		{"seeds wrap by one", "name: x\nseeds:\n  start: 18446744073709551615\n  count: 2\n" + two, 3, "seeds", "wrap around 2^64"},
		{"no seeds", "name: x\n" + two, 1, "seeds", "required"},
		{"no count", "name: x\nseeds:\n  start: 4\n" + two, 3, "seeds.count", "required"},
		{"no name", "seeds: {start: 1, count: 10}\n" + two, 1, "name", "required"},
		{"no name after comments", "# a spec\n\nseeds: {start: 1, count: 10}\n" + two, 3, "name", "required"},
		{"no variant name", head + "variants:\n  - seats: [baseline, baseline]\n", 4, "variants[0].name", "required"},
		{"name with a slash", "name: a/b\nseeds: {start: 1, count: 10}\n" + two, 1, "name", "names a directory"},
		{"bad detail", head + "detail: verbose\n" + two, 3, "detail", "unknown detail"},
		{"rotate not a boolean", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    rotate: often\n", 6, "variants[0].rotate", "true or false"},
		{"no variants", head, 1, "variants", "at least one"},
		{"seats not a list", head + "variants:\n  - name: a\n    seats: baseline\n", 5, "variants[0].seats", "want a list"},
		{"one seat", head + "variants:\n  - name: a\n    seats: [baseline]\n", 5, "variants[0].seats", "2 to 8 seats"},
		{"unknown bot", head + "variants:\n  - name: a\n    seats:\n      - baseline\n      - nobody\n", 7, "variants[0].seats[1]", `unknown bot "nobody"`},
		{"twice the same variant", head + two + "  - name: a\n    seats: [baseline, baseline]\n", 6, "variants[1].name", "names two variants"},
		{"unknown rules key", head + "rules:\n  auctions: true\n  max_roundz: 3\n" + two, 5, "rules.max_roundz", "unknown key"},
		{"bad rules value", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    rules:\n      jail_fine: -5\n", 7, "variants[0].rules.jail_fine", "between"},
		{"rules not a mapping", head + "rules: [1, 2]\n" + two, 3, "rules", "mapping"},
		{"rules of the wrong type", head + "rules: {auctions: maybe}\n" + two, 3, "rules.auctions", "true or false"},
		{"unknown parameter", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      1:\n        cash_reserv: 3\n", 8, "variants[0].params.1.cash_reserv", "unknown parameter"},
		{"parameter not a number", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params: {0: {cash_reserve: lots}}\n", 6, "variants[0].params.0.cash_reserve", "want a number"},
		{"negative spread", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      0: {cash_reserve: {mean: 3, std: -1}}\n", 7, "variants[0].params.0.cash_reserve.std", "negative"},
		{"seat out of range", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params: {2: {cash_reserve: 3}}\n", 6, "variants[0].params.2", "seats go from 0 to 1"},
		{"seat under seats out of range", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      seats:\n        3: {cash_reserve: 3}\n", 8, "variants[0].params.seats.3", "seats go from 0 to 1"},
		{"seat in both forms", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      seats: {1: {cash_reserve: 3}}\n      1: {cash_reserve: 4}\n", 8, "variants[0].params.1", "given twice"},
		{"negative reserve", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      all: {cash_reserve: -100}\n", 7, "variants[0].params.all.cash_reserve", "out of range"},
		{"negative drawn mean", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      0:\n        rich_factor: {mean: -100, std: 0}\n", 8, "variants[0].params.0.rich_factor.mean", "out of range"},
		{"fractional rollouts", head + "variants:\n  - name: a\n    seats: [planning, baseline]\n    params: {0: {rollouts: 2.5}}\n", 6, "variants[0].params.0.rollouts", "whole numbers"},
		{"seat twice", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      1: {cash_reserve: 3}\n      01: {cash_reserve: 4}\n", 8, "variants[0].params.01", "given twice"},
		{"bad parameter for all", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      all: {rollout: 3}\n", 7, "variants[0].params.all.rollout", "unknown parameter"},
		{"seat by name", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params: {baseline: {cash_reserve: 3}}\n", 6, "variants[0].params.baseline", "seat index"},
		{"params a list", head + "variants:\n  - name: a\n    seats: [baseline, baseline]\n    params: [1]\n", 6, "variants[0].params", "mapping"},
		{"syntax", head + "variants: [\n", 4, "", "invalid YAML"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseExperiment("spec.yaml", []byte(c.src))
			var se *strictyaml.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *strictyaml.Error", err, err)
			}
			if se.File != "spec.yaml" || se.Line != c.line || se.Field != c.field || !strings.Contains(se.Msg, c.msg) {
				t.Fatalf("got %q (line %d, field %q); want line %d, field %q, a message with %q", err, se.Line, se.Field, c.line, c.field, c.msg)
			}
		})
	}
}

// smallSpec is a quick experiment: two variants of 2-3 players, one
// rotating with a drawn parameter, short games.
func smallSpec(detail string, count int) string {
	return fmt.Sprintf(`name: small
seeds: {start: 11, count: %d, step: 3}
detail: %s
rules: {max_rounds: 60}
variants:
  - name: mixed
    seats: [baseline, random, baseline]
    rotate: true
    params: {2: {cash_reserve: {mean: 250, std: 100}}}
  - name: duel
    seats: [baseline, baseline]
    rules: {auctions: false}
`, count, detail)
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func mustParse(t *testing.T, src string) *Experiment {
	t.Helper()
	e, err := ParseExperiment("small.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func mustRun(t *testing.T, e *Experiment, o RunOptions) RunReport {
	t.Helper()
	rep, err := e.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete {
		t.Fatalf("run %+v incomplete", rep)
	}
	return rep
}

// readTree returns every file under dir by relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameTree fails unless two directories hold the same files, byte for
// byte.
func sameTree(t *testing.T, what, a, b string) {
	t.Helper()
	fa, fb := readTree(t, a), readTree(t, b)
	for name, da := range fa {
		db, ok := fb[name]
		if !ok {
			t.Errorf("%s: %s only in %s", what, name, a)
		} else if !bytes.Equal(da, db) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: %s only in %s", what, name, b)
		}
	}
}

// Experiment results are identical for the same seed whatever the
// worker count or sharding: one run on one worker, one on two, and
// three shards merged give the same files (results, traces, summaries,
// plots).
func TestExperimentWorkersAndShards(t *testing.T) {
	e := mustParse(t, smallSpec("full", 7))
	root := t.TempDir()
	one, two, merged := filepath.Join(root, "one"), filepath.Join(root, "two"), filepath.Join(root, "merged")
	mustRun(t, e, RunOptions{Dir: one, Workers: 1})
	mustRun(t, e, RunOptions{Dir: two, Workers: 2})
	sameTree(t, "1 vs 2 workers", one, two)
	var shards []string
	for i := range 3 {
		d := filepath.Join(root, fmt.Sprintf("shard%d", i))
		rep := mustRun(t, e, RunOptions{Dir: d, Shard: i, Shards: 3, Workers: 2})
		// Seeds 0, 3 and 6; 1 and 4; 2 and 5: each with both variants.
		if want := []int{6, 4, 4}[i]; rep.Info.Games != want || e.ShardGames(i, 3) != want || rep.Played != want {
			t.Fatalf("shard %d: %+v", i, rep)
		}
		shards = append(shards, d)
	}
	// Given in any order.
	if _, _, err := MergeExperiment([]string{shards[2], shards[0], shards[1]}, merged); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "3 shards merged vs 1 run", one, merged)
	files := readTree(t, one)
	for _, want := range []string{SpecFile, RunFile, ResultsFile, SummaryFile, "winrates.png", "winrates.svg",
		"variants/mixed/summary.json", "variants/mixed/traces.jsonl", "variants/duel/cash.svg", "variants/duel/winrates.png"} {
		if len(files[want]) == 0 {
			t.Errorf("no %s", want)
		}
	}
	if n := bytes.Count(files[ResultsFile], []byte("\n")); n != 14 {
		t.Errorf("%d results, want 14", n)
	}
	// Merging again into the same directory is allowed and changes
	// nothing.
	if _, _, err := MergeExperiment(shards, merged); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "merged twice", one, merged)
}

// Shards are dealt seeds, not games: with two variants and two shards
// each shard plays both variants on its own seeds (the old layout gave
// each shard one variant), keeps a seed's pair of games together, and
// the merge is byte for byte the single run.
func TestExperimentShardsPairSeeds(t *testing.T) {
	e := mustParse(t, smallSpec("full", 5))
	root := t.TempDir()
	one, merged := filepath.Join(root, "one"), filepath.Join(root, "merged")
	mustRun(t, e, RunOptions{Dir: one, Workers: 1})
	var shards []string
	for i := range 2 {
		d := filepath.Join(root, fmt.Sprintf("shard%d", i))
		mustRun(t, e, RunOptions{Dir: d, Shard: i, Shards: 2, Workers: 2})
		shards = append(shards, d)
		data, err := os.ReadFile(filepath.Join(d, ResultsFile))
		if err != nil {
			t.Fatal(err)
		}
		seeds := map[string][]int{} // variant -> its games in the shard
		for _, line := range bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			var rec GameRecord
			if err := json.Unmarshal(line, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Game%2 != i {
				t.Errorf("shard %d/2 plays game %d of %s: seed number %d is shard %d's", i, rec.Game, rec.Variant, rec.Game, rec.Game%2)
			}
			seeds[rec.Variant] = append(seeds[rec.Variant], rec.Game)
		}
		if len(seeds["mixed"]) == 0 || !slices.Equal(seeds["mixed"], seeds["duel"]) {
			t.Errorf("shard %d/2: games %v of mixed, %v of duel; want the same seeds under both", i, seeds["mixed"], seeds["duel"])
		}
	}
	if _, _, err := MergeExperiment([]string{shards[1], shards[0]}, merged); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "2 shards merged vs 1 run", one, merged)

	// Merged into the directory that holds them, as on a cluster:
	// OUT/shards/i into OUT.
	nest := filepath.Join(root, "nest")
	var inner []string
	for i, d := range shards {
		in := filepath.Join(nest, "shards", fmt.Sprint(i))
		if err := os.CopyFS(in, os.DirFS(d)); err != nil {
			t.Fatal(err)
		}
		inner = append(inner, in)
	}
	for range 2 { // and again, over the first merge
		if _, _, err := MergeExperiment(inner, nest); err != nil {
			t.Fatal(err)
		}
	}
	want, got := readTree(t, one), readTree(t, nest)
	for name, data := range got {
		if strings.HasPrefix(name, "shards"+string(filepath.Separator)) {
			continue
		}
		if !bytes.Equal(data, want[name]) {
			t.Errorf("merged into the shards' parent: %s differs or is extra", name)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("merged into the shards' parent: no %s", name)
	}

	// More shards than seeds: the last plays nothing, and still merges.
	var many []string
	for i := range 6 {
		d := filepath.Join(root, fmt.Sprintf("of6-%d", i))
		if rep := mustRun(t, e, RunOptions{Dir: d, Shard: i, Shards: 6, Workers: 1}); rep.Info.Games != 2*min(1, 5-i) {
			t.Errorf("shard %d/6: %d games", i, rep.Info.Games)
		}
		many = append(many, d)
	}
	merged6 := filepath.Join(root, "merged6")
	if _, _, err := MergeExperiment(many, merged6); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "6 shards merged vs 1 run", one, merged6)
}

// Directories of the old layout (no shard_layout in run.json, or 1) are
// refused by resume, merge and show: their games are in another order.
func TestExperimentOldShardLayout(t *testing.T) {
	e := mustParse(t, smallSpec("stats", 3))
	root := t.TempDir()
	var shards []string
	for i := range 2 {
		d := filepath.Join(root, fmt.Sprintf("shard%d", i))
		mustRun(t, e, RunOptions{Dir: d, Shard: i, Shards: 2})
		shards = append(shards, d)
	}
	runPath := filepath.Join(shards[1], RunFile)
	good, _ := os.ReadFile(runPath)
	const msg = "made by an older gopoly with another shard layout: run it again"
	for _, c := range []struct{ name, to string }{
		{"no layout", ""},
		{"layout 1", `,
  "shard_layout": 1`},
	} {
		old := bytes.Replace(good, []byte(`,
  "shard_layout": 2`), []byte(c.to), 1)
		if bytes.Equal(old, good) {
			t.Fatalf("run.json holds no shard_layout 2:\n%s", good)
		}
		os.WriteFile(runPath, old, 0o644)
		if _, err := e.Run(context.Background(), RunOptions{Dir: shards[1], Shard: 1, Shards: 2}); !errors.Is(err, ErrBadDir) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: resume: %v", c.name, err)
		}
		if _, _, err := MergeExperiment(shards, filepath.Join(root, "merged")); !errors.Is(err, ErrBadDir) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: merge: %v", c.name, err)
		}
		if _, _, err := OpenExperimentDir(shards[1]); !errors.Is(err, ErrBadDir) || !strings.Contains(err.Error(), shards[1]+": "+msg) {
			t.Errorf("%s: open: %v", c.name, err)
		}
	}
}

// A run stopped part way keeps a prefix of the games, and resuming it
// ends with the files of a run never stopped; so does a run whose files
// a crash cut in the middle of a line.
func TestExperimentStopAndResume(t *testing.T) {
	e := mustParse(t, smallSpec("full", 30))
	root := t.TempDir()
	ref := filepath.Join(root, "ref")
	mustRun(t, e, RunOptions{Dir: ref, Workers: 2})
	refResults, _ := os.ReadFile(filepath.Join(ref, ResultsFile))

	stopped := filepath.Join(root, "stopped")
	ctx, cancel := context.WithCancel(context.Background())
	rep, err := e.Run(ctx, RunOptions{Dir: stopped, Workers: 2, Progress: func(done, total int) {
		if done == 17 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || rep.Complete || rep.Played < 17 || rep.Played >= 60 {
		t.Fatalf("stopped run: %+v, %v", rep, err)
	}
	kept, _ := os.ReadFile(filepath.Join(stopped, ResultsFile))
	if !bytes.HasPrefix(refResults, kept) || bytes.Count(kept, []byte("\n")) != rep.Played {
		t.Fatalf("the stopped run kept %d lines, not a prefix of %d games", bytes.Count(kept, []byte("\n")), rep.Played)
	}
	// Its summaries hold the games it kept.
	s, err := SummarizeResults(stopped, e, rep.Info)
	if err != nil {
		t.Fatal(err)
	}
	if s.Variants[0].Games+s.Variants[1].Games != rep.Played {
		t.Errorf("summaries of a stopped run count %d+%d games, kept %d", s.Variants[0].Games, s.Variants[1].Games, rep.Played)
	}
	rep2 := mustRun(t, e, RunOptions{Dir: stopped, Workers: 1})
	if rep2.Resumed != rep.Played || rep2.Played != 60-rep.Played {
		t.Fatalf("resumed run: %+v", rep2)
	}
	sameTree(t, "stopped and resumed vs one run", ref, stopped)

	// A crash: the results cut in the middle of a line, the traces
	// holding games beyond the results, one cut short.
	crashed := filepath.Join(root, "crashed")
	if err := os.CopyFS(crashed, os.DirFS(ref)); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(crashed, ResultsFile)
	lines := bytes.SplitAfter(refResults, []byte("\n"))
	cut := len(bytes.Join(lines[:20], nil)) + len(lines[20])/2
	if err := os.Truncate(res, int64(cut)); err != nil {
		t.Fatal(err)
	}
	// The summary a killed run leaves behind is stale: not used.
	if s, stale, err := LoadSummary(crashed, e, rep.Info); err != nil || s.Variants[0].Games+s.Variants[1].Games != 20 || !strings.Contains(stale, "has changed") {
		t.Errorf("summary of a cut directory: %d+%d games (%v, %q), want 20 and a stale summary.json", s.Variants[0].Games, s.Variants[1].Games, err, stale)
	}
	if s, stale, err := LoadSummary(ref, e, rep.Info); err != nil || s.Variants[0].Games != 30 || stale != "" {
		t.Errorf("summary of a whole run: %v, %q, %v", s, stale, err)
	} else if fresh, _ := SummarizeResults(ref, e, rep.Info); jsonOf(t, s) != jsonOf(t, fresh) {
		t.Error("summary.json differs from a summary made afresh")
	}
	tr := filepath.Join(crashed, VariantsDir, "duel", TracesFile)
	fi, _ := os.Stat(tr)
	if err := os.Truncate(tr, fi.Size()-10); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	rep3, err := e.Run(context.Background(), RunOptions{Dir: crashed, Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatal(err)
	}
	// One warning: the cut trace was of a game past the results, dropped
	// as a whole.
	if rep3.Resumed != 20 || len(warnings) != 1 {
		t.Fatalf("after a crash: %+v, warnings %q", rep3, warnings)
	}
	sameTree(t, "crashed and resumed vs one run", ref, crashed)
}

// A directory holds one run: another spec or shard is refused, as are
// results out of order; merges refuse shards missing, given twice,
// unfinished or of another experiment.
func TestExperimentDirChecks(t *testing.T) {
	e := mustParse(t, smallSpec("stats", 4))
	other := mustParse(t, smallSpec("stats", 5))
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	mustRun(t, e, RunOptions{Dir: dir})
	if _, err := other.Run(context.Background(), RunOptions{Dir: dir}); !errors.Is(err, ErrBadDir) {
		t.Errorf("another spec in the same directory: %v", err)
	}
	if _, err := e.Run(context.Background(), RunOptions{Dir: dir, Shard: 1, Shards: 2}); !errors.Is(err, ErrBadDir) {
		t.Errorf("another shard in the same directory: %v", err)
	}
	// Results swapped: not this run's order.
	res := filepath.Join(dir, ResultsFile)
	data, _ := os.ReadFile(res)
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[0], lines[1] = lines[1], lines[0]
	os.WriteFile(res, bytes.Join(lines, nil), 0o644)
	if _, err := e.Run(context.Background(), RunOptions{Dir: dir}); !errors.Is(err, ErrBadDir) || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("results out of order: %v", err)
	}

	shard := func(ex *Experiment, i, n int, games int) string {
		d := filepath.Join(root, fmt.Sprintf("%s-%d-%d-%d", ex.Fingerprint()[:6], i, n, games))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := ex.Run(ctx, RunOptions{Dir: d, Shard: i, Shards: n, Workers: 1, Progress: func(done, _ int) {
			if done == games {
				cancel()
			}
		}})
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		return d
	}
	s0, s1, s2 := shard(e, 0, 3, 99), shard(e, 1, 3, 99), shard(e, 2, 3, 99)
	out := filepath.Join(root, "merged")
	for _, c := range []struct {
		name string
		dirs []string
		msg  string
	}{
		{"missing", []string{s0, s2}, "missing shard 1/3"},
		{"twice", []string{s0, s1, s1, s2}, "shard 1/3 given twice"},
		{"unfinished", []string{s0, shard(e, 1, 3, 1), s2}, "has 1 of its 2 games"},
		{"another experiment", []string{s0, shard(other, 1, 3, 99), s2}, "another experiment"},
		{"another split", []string{s0, shard(e, 1, 2, 99), s2}, "different splits"},
		{"output is a shard", []string{s0, s1, s2, out}, "not an experiment directory"},
	} {
		_, _, err := MergeExperiment(c.dirs, out)
		if !errors.Is(err, ErrBadDir) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, _, err := MergeExperiment([]string{s0, s1, s2}, s1); !errors.Is(err, ErrBadDir) {
		t.Errorf("merging into a shard: %v", err)
	}
	otherDir := filepath.Join(root, "other")
	mustRun(t, other, RunOptions{Dir: otherDir})
	if _, _, err := MergeExperiment([]string{s0, s1, s2}, otherDir); !errors.Is(err, ErrBadDir) {
		t.Errorf("merging over another experiment's directory: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(root, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "notes", "a.txt"), []byte("mine"), 0o644)
	if _, _, err := MergeExperiment([]string{s0, s1, s2}, filepath.Join(root, "notes")); !errors.Is(err, ErrBadDir) {
		t.Errorf("merging into a directory of other files: %v", err)
	}
	if _, _, err := MergeExperiment([]string{s0, s1, s2}, out); err != nil {
		t.Errorf("merging the shards: %v", err)
	}
}

// The summaries add up: wins and ties make the games, every seat's
// means are the means of the per-game records, rotation seats everyone
// everywhere, and variants with the same seats play the same games on
// the same seeds (common random numbers).
func TestExperimentSummaryAddsUp(t *testing.T) {
	src := `name: sums
seeds: {start: 5, count: 24}
detail: stats
rules: {max_rounds: 80}
variants:
  - name: turn
    seats: [random, baseline, baseline]
    rotate: true
  - name: twin-a
    seats: [baseline, baseline, random]
  - name: twin-b
    seats: [baseline, baseline, random]
`
	e := mustParse(t, src)
	dir := t.TempDir()
	mustRun(t, e, RunOptions{Dir: dir})
	var recs []GameRecord
	if err := eachRecord(filepath.Join(dir, ResultsFile), func(_ int, r *GameRecord) error { recs = append(recs, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	var s ExperimentSummary
	data, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	for vi, vs := range s.Variants {
		var mine []GameRecord
		for _, r := range recs {
			if r.Variant == vs.Name {
				mine = append(mine, r)
			}
		}
		if vs.Games != 24 || len(mine) != 24 {
			t.Fatalf("%s: %d games in the summary, %d records", vs.Name, vs.Games, len(mine))
		}
		wins, capped := vs.Ties, 0
		for _, ss := range vs.Seats {
			wins += ss.Wins
		}
		positions := make([][3]int, 3) // seat -> count per playing position
		// Every per-game metric summed by seat, by its JSON name.
		sums := make([]map[string]float64, 3)
		for i := range sums {
			sums[i] = map[string]float64{}
		}
		firsts, built := make([]float64, 3), make([]int, 3)
		for _, r := range mine {
			if r.Capped {
				capped++
			}
			// The winner is the one player standing, or the richest.
			if w := slices.IndexFunc(r.Players, func(p PlayerRecord) bool { return p.Seat == r.Winner }); w >= 0 {
				for _, pl := range r.Players {
					standing := pl.Bankrupt == 0 && !r.Capped
					if pl.Seat != r.Winner && (standing || pl.NetWorth >= r.Players[w].NetWorth) {
						t.Fatalf("%s game %d: seat %d won, but seat %d ended with %+v", vs.Name, r.Game, r.Winner, pl.Seat, *pl.SeatMetrics)
					}
				}
			}
			for p, pl := range r.Players {
				positions[pl.Seat][p]++
				var m map[string]float64
				if err := json.Unmarshal([]byte(jsonOf(t, pl.SeatMetrics)), &m); err != nil {
					t.Fatal(err)
				}
				for k, x := range m {
					sums[pl.Seat][k] += x
				}
				if pl.FirstBuildRound > 0 {
					firsts[pl.Seat] += float64(pl.FirstBuildRound)
					built[pl.Seat]++
				}
				if want := e.Variants[vi].Seats[pl.Seat].Bot; pl.Bot != want {
					t.Fatalf("%s game %d: seat %d is %s, want %s", vs.Name, r.Game, pl.Seat, pl.Bot, want)
				}
			}
		}
		if wins != vs.Games || vs.Finished+vs.Capped != vs.Games || capped != vs.Capped {
			t.Errorf("%s: wins+ties %d, finished %d + capped %d (%d in the records), games %d", vs.Name, wins, vs.Finished, vs.Capped, capped, vs.Games)
		}
		for seat, ss := range vs.Seats {
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9*max(1, math.Abs(b)) }
			var raw map[string]any
			if err := json.Unmarshal([]byte(jsonOf(t, ss.Behaviour)), &raw); err != nil {
				t.Fatal(err)
			}
			means := map[string]float64{}
			for k, v := range raw {
				if x, ok := v.(float64); ok {
					means[k] = x
				}
			}
			checked := 0
			for k, sum := range sums[seat] {
				name := map[string]string{"bankrupt": "bankruptcies", "net_worth": "net_worth_mean", "first_build_round": ""}[k]
				if name == "" && k != "first_build_round" {
					name = k
				}
				if name == "" {
					continue // a mean over the games it built in: below
				}
				got, ok := means[name]
				if !ok {
					t.Errorf("%s seat %d: no %s in the summary", vs.Name, seat, name)
				} else if !near(got, sum/24) {
					t.Errorf("%s seat %d: %s %v, records %v", vs.Name, seat, name, got, sum/24)
				}
				checked++
			}
			if checked != len(sums[seat])-1 || ss.GamesBuilt != built[seat] {
				t.Errorf("%s seat %d: %d metrics checked; built in %d games, records %d", vs.Name, seat, checked, ss.GamesBuilt, built[seat])
			}
			if built[seat] > 0 && !near(*ss.FirstBuildRoundMean, firsts[seat]/float64(built[seat])) {
				t.Errorf("%s seat %d: first build round %v, records %v", vs.Name, seat, *ss.FirstBuildRoundMean, firsts[seat]/float64(built[seat]))
			}
			if lo, hi := ss.CI95[0], ss.CI95[1]; lo > ss.WinRate || hi < ss.WinRate || ss.WinRate != float64(ss.Wins)/24 {
				t.Errorf("%s seat %d: rate %v, CI %v", vs.Name, seat, ss.WinRate, ss.CI95)
			}
			for p := range 3 {
				want := 24
				if e.Variants[vi].Rotate {
					want = 8
				} else if p != seat {
					want = 0
				}
				if positions[seat][p] != want {
					t.Errorf("%s: seat %d played position %d in %d games, want %d", vs.Name, seat, p, positions[seat][p], want)
				}
			}
		}
	}
	// twin-a and twin-b are the same variant by another name.
	same := 0
	for j := range 24 {
		a, b := recs[3*j+1], recs[3*j+2]
		if a.Variant != "twin-a" || b.Variant != "twin-b" || a.Game != j || b.Game != j {
			t.Fatalf("records out of order: %s %d, %s %d", a.Variant, a.Game, b.Variant, b.Game)
		}
		ja, _ := json.Marshal(a.Players)
		jb, _ := json.Marshal(b.Players)
		if a.Seed == b.Seed && a.Rounds == b.Rounds && a.Winner == b.Winner && bytes.Equal(ja, jb) {
			same++
		}
	}
	if same != 24 {
		t.Errorf("only %d of 24 games the same in two variants of the same seats", same)
	}
}

// The knobs drawn from {mean, std} are recorded with every game, for the
// seat that drew them only.
func TestExperimentRecordsDrawnParams(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, mustParse(t, smallSpec("summary", 8)), RunOptions{Dir: dir})
	distinct := map[float64]bool{}
	err := eachRecord(filepath.Join(dir, ResultsFile), func(_ int, r *GameRecord) error {
		for _, p := range r.Players {
			x, ok := p.Params["cash_reserve"]
			switch {
			case r.Variant == "mixed" && p.Seat == 2:
				if len(p.Params) != 1 || !ok || x < 0 || x != float64(int(x)) {
					return fmt.Errorf("game %d: seat 2 drew %v", r.Game, p.Params)
				}
				distinct[x] = true
			case p.Params != nil:
				return fmt.Errorf("%s game %d: seat %d, which draws nothing, records %v", r.Variant, r.Game, p.Seat, p.Params)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(distinct) < 4 {
		t.Fatalf("8 games drew %d distinct reserves", len(distinct))
	}
}
