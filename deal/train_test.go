package deal

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quickParams keeps trainer tests fast: few rollouts, small batches.
func quickParams() Params {
	p := DefaultParams()
	p.Sims = 3
	p.Batch = 4
	p.Seed = 11
	return p
}

func train(t *testing.T, cfg Config, p Params, mode Mode, workers, games int) *Trainer {
	t.Helper()
	tr, err := NewTrainer(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	tr.Mode, tr.Workers = mode, workers
	if err := tr.Run(context.Background(), games, nil); err != nil {
		t.Fatal(err)
	}
	return tr
}

func checkpointBytes(t *testing.T, tr *Trainer) []byte {
	t.Helper()
	data, err := tr.MarshalCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRegretMatchingClamps(t *testing.T) {
	tab := NewTables(2, 3)
	is := InfoSet{Player: 1, Streak: 0, Mask: 1<<StartNewPropertySet | 1<<Cash | 1<<Other | 1<<Pass}
	s := tab.Slot(is)
	if tab.Key(s) != is {
		t.Fatal("slot/key mismatch")
	}
	// All regrets negative: no policy yet.
	r := [NumAbstract]float64{StartNewPropertySet: -1, Cash: -0.5, Other: -0.1, Pass: -0.2}
	tab.Update(s, &r, 0.5)
	if tab.HasPolicy(s) || tab.Updates(s) != 0 || tab.Visits(s) != 1 || tab.Reach(s) != 0.5 {
		t.Fatal("a policy was stored without positive regret")
	}
	// Other is never played, and Pass is zero while a card play is positive.
	r = [NumAbstract]float64{StartNewPropertySet: 3, Cash: 1.5, Other: 10, Pass: 2}
	tab.Update(s, &r, 0.25)
	p := tab.Latest(s)
	wantStart := (0.99*-1 + 3) / ((0.99*-1 + 3) + (0.99*-0.5 + 1.5))
	if p[Other] != 0 || p[Pass] != 0 || math.Abs(p[StartNewPropertySet]-wantStart) > 1e-12 || math.Abs(p[StartNewPropertySet]+p[Cash]-1) > 1e-12 {
		t.Fatalf("policy %v", p)
	}
	if sum, n := tab.Regret(s, Pass); math.Abs(sum-(0.99*-0.2+2)) > 1e-12 || n != 2 {
		t.Fatalf("discounted sum %v n %d", sum, n)
	}
	// Pass alone positive: the policy passes.
	r = [NumAbstract]float64{StartNewPropertySet: -100, Cash: -100, Pass: 5}
	tab.Update(s, &r, 0)
	if p := tab.Latest(s); p[Pass] != 1 {
		t.Fatalf("policy %v", p)
	}
	// The average is the mean of the buffer; the buffer keeps the newest.
	for i := 0; i < 3; i++ {
		r = [NumAbstract]float64{Cash: 1000}
		tab.Update(s, &r, 0)
	}
	if b := tab.Buffer(s); len(b) != 3 || b[0][Cash] != 1 || tab.Average(s)[Cash] != 1 || tab.Updates(s) != 5 {
		t.Fatalf("buffer %v average %v", b, tab.Average(s))
	}
	// Unseen keys are uniform over their actions.
	u := tab.Latest(tab.Slot(InfoSet{Player: 0, Streak: 1, Mask: 1<<Cash | 1<<Pass}))
	if u[Cash] != 0.5 || u[Pass] != 0.5 || u[Other] != 0 {
		t.Fatalf("uniform %v", u)
	}
}

func TestPolicyArgmax(t *testing.T) {
	tab := NewTables(2, 10)
	pol := NewPolicy(tab, Greedy)
	rng := newRNG(3)
	// Unseen: all equal, so a random card play, never Pass.
	is := InfoSet{Mask: 1<<Cash | 1<<StartNewPropertySet | 1<<Pass}
	seen := map[Abstract]bool{}
	for i := 0; i < 200; i++ {
		seen[pol.Choose(is, rng)] = true
	}
	if seen[Pass] || !seen[Cash] || !seen[StartNewPropertySet] {
		t.Fatalf("untrained choices %v", seen)
	}
	if a := pol.Choose(InfoSet{Mask: 1 << Pass}, rng); a != Pass {
		t.Fatal("Pass alone not played")
	}
	if a := pol.Choose(InfoSet{Mask: 1<<Yield | 1<<JustSayNo}, rng); a != JustSayNo {
		t.Fatal("untrained agent yielded instead of a card play")
	}
	// Trained: the argmax, even when it is Pass.
	s := tab.Slot(is)
	tab.push(s, &[NumAbstract]float64{Cash: 0.2, StartNewPropertySet: 0.3, Pass: 0.5})
	pol = NewPolicy(tab, Greedy)
	for i := 0; i < 20; i++ {
		if a := pol.Choose(is, rng); a != Pass {
			t.Fatalf("argmax chose %s", a)
		}
	}
}

func TestBatchOrderedIndependentOfWorkers(t *testing.T) {
	for _, abs := range []Abstraction{Intent, Situation} {
		p := quickParams()
		p.Abstraction = abs
		a := checkpointBytes(t, train(t, Small(), p, BatchOrdered, 1, 12))
		b := checkpointBytes(t, train(t, Small(), p, BatchOrdered, 2, 12))
		c := checkpointBytes(t, train(t, Small(), p, BatchOrdered, 5, 12))
		if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Fatalf("%s: batch-ordered training depends on the number of workers", abs)
		}
		if !bytes.Contains(a, []byte(`"games_done": 12`)) {
			t.Fatal("games_done not recorded")
		}
	}
}

func TestSequentialIsBatchOfOne(t *testing.T) {
	p := quickParams()
	seq1 := checkpointBytes(t, train(t, Small(), p, Sequential, 1, 6))
	seq3 := checkpointBytes(t, train(t, Small(), p, Sequential, 3, 6))
	p.Batch = 1
	b1 := checkpointBytes(t, train(t, Small(), p, BatchOrdered, 2, 6))
	// The checkpoints differ only in the recorded batch size.
	b1 = bytes.Replace(b1, []byte(`"batch": 1`), []byte(`"batch": 4`), 1)
	if !bytes.Equal(seq1, seq3) || !bytes.Equal(seq1, b1) {
		t.Fatal("sequential training is not the batch-of-one training, or depends on workers")
	}
	// A batch of several games sees a staler snapshot: a different result.
	b4 := checkpointBytes(t, train(t, Small(), quickParams(), BatchOrdered, 2, 6))
	if bytes.Equal(seq1, b4) {
		t.Fatal("batching had no effect; the comparison above proves nothing")
	}
}

func TestResumeGivesTheSamePolicy(t *testing.T) {
	for _, c := range []struct {
		realHand bool
		abs      Abstraction
	}{{true, Intent}, {false, Intent}, {true, Situation}} {
		realHand := c.realHand
		p := quickParams()
		p.RealHand, p.Abstraction = realHand, c.abs
		full := checkpointBytes(t, train(t, Small(), p, BatchOrdered, 2, 16))
		half := train(t, Small(), p, BatchOrdered, 2, 8)
		ck, err := ParseCheckpoint(checkpointBytes(t, half))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Resume(ck)
		if err != nil {
			t.Fatal(err)
		}
		tr.Workers = 1
		if err := tr.Run(context.Background(), 16, nil); err != nil {
			t.Fatal(err)
		}
		if got := checkpointBytes(t, tr); !bytes.Equal(got, full) {
			t.Fatalf("real hand %v, %s: resumed training differs from the uninterrupted run", realHand, c.abs)
		}
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	for _, abs := range []Abstraction{Intent, Situation} {
		p := quickParams()
		p.Abstraction = abs
		tr := train(t, Small(), p, BatchOrdered, 2, 8)
		data := checkpointBytes(t, tr)
		ck, err := ParseCheckpoint(data)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := Resume(ck)
		if again := checkpointBytes(t, back); !bytes.Equal(again, data) {
			t.Fatalf("%s: checkpoint does not round-trip", abs)
		}
		// The decoded tables equal the originals, averages included
		// (slots may be numbered differently: keys are met in another
		// order).
		a, b := tr.Tables(), ck.Tables
		if a.Slots() != b.Slots() || len(a.Visited()) != len(b.Visited()) {
			t.Fatalf("%s: %d slots, %d after loading", abs, a.Slots(), b.Slots())
		}
		for s := 0; s < a.Slots(); s++ {
			is := a.Key(s)
			o := b.Slot(is)
			if *a.Average(s) != *b.Average(o) || *a.Latest(s) != *b.Latest(o) || a.Visits(s) != b.Visits(o) || a.Reach(s) != b.Reach(o) {
				t.Fatalf("slot %s differs after loading", is)
			}
		}
		for _, want := range []string{`"abstraction_cls": "` + abs.String() + `"`, `"resolver_cls": "GreedyActionResolver"`, `"sims_per_action": 3`, `"policy_manager"`, `"regret_manager"`, `"cf_reach_prob_counter"`, `"update_count"`} {
			if !bytes.Contains(data, []byte(want)) {
				t.Fatalf("checkpoint lacks %s", want)
			}
		}
	}
}

func TestMalformedCheckpointNamesFileAndField(t *testing.T) {
	tr := train(t, Small(), quickParams(), BatchOrdered, 2, 4)
	good := string(checkpointBytes(t, tr))
	dir := t.TempDir()
	cases := []struct{ from, to, field string }{
		{`"sims_per_action": 3`, `"sims_per_action": 0`, "training"},
		{`"format": "gopoly-deal-checkpoint/1"`, `"format": "v0"`, "format"},
		{`"resolver_cls": "GreedyActionResolver"`, `"resolver_cls": "Psychic"`, "resolver_cls"},
		{`"cf_reach_prob_counter": {`, `"cf_reach_prob_counter": {"9@IntentStateAbstraction@0:Pass": 1,`, "cf_reach_prob_counter"},
		{`"max_turns": 100,`, `"max_turns": 100, "colour": 1,`, "colour"},
		{`"buffer": {`, `"buffer": {"0@IntentStateAbstraction@0:Pass": [[0.5]],`, "policy_manager.player_buffers[0]"},
	}
	for _, c := range cases {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("pattern %q not found", c.from)
		}
		path := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadCheckpoint(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.field) {
			t.Fatalf("%s: error %v does not name the file and %s", c.to, err, c.field)
		}
	}
	if _, err := LoadCheckpoint(filepath.Join(dir, "missing.json")); err == nil {
		t.Fatal("missing file accepted")
	}
}

// JSON that does not parse, or a value of the wrong type, is placed by
// line (and column) in the checkpoint's text.
func TestCheckpointSyntaxErrorsHaveLines(t *testing.T) {
	good := string(checkpointBytes(t, train(t, Small(), quickParams(), BatchOrdered, 2, 4)))
	key := `"sims_per_action": 3`
	at := strings.Index(good, key)
	if at < 0 {
		t.Fatalf("no %s", key)
	}
	// The line of key, and the column of the byte after it.
	line, col := 1+strings.Count(good[:at], "\n"), at+len(key)-strings.LastIndexByte(good[:at], '\n')
	for _, c := range []struct {
		name, data, want string
	}{
		{"two values", strings.Replace(good, key, key+" 4", 1), fmt.Sprintf("deal: checkpoint: line %d, column %d: invalid character '4' after object key:value pair", line, col+1)},
		{"cut short", good[:at+len(key)], fmt.Sprintf("deal: checkpoint: line %d, column %d: unexpected end of JSON input", line, col-1)},
		{"a string for a number", strings.Replace(good, key, `"sims_per_action": "3"`, 1), fmt.Sprintf("deal: checkpoint field training.sims_per_action: want a number, got string (line %d)", line)},
	} {
		_, err := ParseCheckpoint([]byte(c.data))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v; want %s", c.name, err, c.want)
		}
	}
}

func TestLatestCheckpoint(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{8, 120, 16} {
		if err := WriteFileAtomic(filepath.Join(dir, CheckpointName(n)), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	got, err := LatestCheckpoint(dir)
	if err != nil || filepath.Base(got) != CheckpointName(120) {
		t.Fatalf("latest %q %v", got, err)
	}
	if got, err := LatestCheckpoint(filepath.Join(dir, "none")); got != "" || err != nil {
		t.Fatal("missing directory")
	}
}

func TestUnorderedAppliesEveryGame(t *testing.T) {
	tr := train(t, Small(), quickParams(), Unordered, 3, 10)
	if tr.Done() != 10 {
		t.Fatalf("done %d", tr.Done())
	}
	// Every real decision made one regret update; games are long enough
	// that ten of them make many.
	var visits int64
	for _, s := range tr.Tables().Visited() {
		visits += tr.Tables().Visits(s)
	}
	if visits < 100 {
		t.Fatalf("only %d updates", visits)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	tr, _ := NewTrainer(Small(), quickParams())
	ctx, cancel := context.WithCancel(context.Background())
	err := tr.Run(ctx, 100, func(prev, done int) error {
		cancel()
		return nil
	})
	if err == nil || tr.Done() != 4 {
		t.Fatalf("err %v done %d (want a stop after the first batch of 4)", err, tr.Done())
	}
}

func TestMetrics(t *testing.T) {
	tr := train(t, Small(), quickParams(), BatchOrdered, 2, 8)
	m := tr.Metrics(20, 2)
	if m.Games != 8 || m.Infosets == 0 || m.EvalGames != 20 || m.UpdateQuantiles[4] < m.UpdateQuantiles[0] || len(m.MedianProbability) == 0 {
		t.Fatalf("metrics %+v", m)
	}
	if m2 := tr.Metrics(20, 1); m2.WinRates != m.WinRates {
		t.Fatal("metrics depend on workers")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "metrics.jsonl")
	for i := 0; i < 2; i++ {
		if err := AppendMetrics(path, m); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := ReadMetrics(path)
	if err != nil || len(ms) != 2 || ms[1].WinRates != m.WinRates {
		t.Fatalf("read back %v %v", ms, err)
	}
}

// TestTrainingLearns trains briefly on the paper's deck and checks the
// agent beats the untrained one against random play. Fixed seeds; the
// margin is far above the noise of 400 games (standard error ~0.02).
func TestTrainingLearns(t *testing.T) {
	r := MustRules(Paper())
	rnd, _ := Baseline("random")
	untrained, _ := Evaluate(r, NewPolicy(NewTables(2, 10), Greedy).Seat(), rnd, 400, 5, 0)
	p := quickParams()
	p.Sims = 5
	tr := train(t, Paper(), p, BatchOrdered, 2, 48)
	trained, _ := Evaluate(r, tr.Policy().Seat(), rnd, 400, 5, 0)
	t.Logf("vs random, agent first: untrained %.3f, trained %.3f", untrained.Mean, trained.Mean)
	if trained.Mean < 0.93 || trained.Mean < untrained.Mean+0.05 {
		t.Fatalf("training did not help: untrained %.3f, trained %.3f", untrained.Mean, trained.Mean)
	}
}
