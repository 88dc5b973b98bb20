package bench

import (
	"fmt"
	"testing"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/planning" // the planning seat
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
	"github.com/gopoly/gopoly/monopoly"
)

// TestRegretOrdersTheBots scores planning, baseline and random on the
// stored set with 32 rollouts (seed 1): every regret is at least 0, the
// mean regrets rank planning < baseline < random, and each step of the
// ranking holds with its 95% interval: the paired difference of two
// seats' regrets over the positions is above 0 at its lower bound.
func TestRegretOrdersTheBots(t *testing.T) {
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Score([]string{"planning", "baseline", "random"}, set, Options{Rollouts: 32, Horizon: 30, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for i, s := range r.Answers {
			if s.Regret < 0 {
				t.Errorf("%s at position %d: regret %g < 0", r.Seat, i, s.Regret)
			}
		}
		t.Logf("%s: %+v", r.Seat, r.Rows()[len(r.Rows())-1])
	}
	for i := 1; i < len(rs); i++ {
		m, h := Difference(rs[i-1], rs[i])
		t.Logf("%s - %s: %.4f ± %.4f", rs[i].Seat, rs[i-1].Seat, m, h)
		if !(m-h > 0) {
			t.Errorf("%s's regret less %s's: %.4f ± %.4f, want above 0 with its interval", rs[i].Seat, rs[i-1].Seat, m, h)
		}
	}
}

// firstOfEach is the first position of each kind in set.
func firstOfEach(set Set) Set {
	few := set
	few.Positions = nil
	seen := map[string]bool{}
	for _, p := range set.Positions {
		if !seen[p.Kind] {
			seen[p.Kind] = true
			few.Positions = append(few.Positions, p)
		}
	}
	return few
}

// TestReproducible: the same seed gives the same regrets, answer by
// answer; another seed, other rollouts and other figures.
func TestReproducible(t *testing.T) {
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	few := firstOfEach(set)
	run := func(seed uint64) []Scored {
		rs, err := Score([]string{"random"}, few, Options{Rollouts: 8, Horizon: 20, Seed: seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rs[0].Answers
	}
	a, b, c := run(5), run(5), run(6)
	same := true
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("position %d: %+v, then %+v with the same seed", i, a[i], b[i])
		}
		same = same && a[i].Regret == c[i].Regret
	}
	if same {
		t.Error("seeds 5 and 6 score every position alike: the seed does not reach the rollouts")
	}
}

// TestCommonRandomNumbers: an answer's value is the same each time it is
// played out (the rollouts' seeds depend on the position, not on the
// answer or on what was played before), so two seats that give the same
// answer have the same regret.
func TestCommonRandomNumbers(t *testing.T) {
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	few := firstOfEach(set)
	o := Options{Rollouts: 8, Horizon: 20, Seed: 3}
	for i, p := range few.Positions {
		g, d, err := few.Load(i)
		if err != nil {
			t.Fatal(err)
		}
		legal := 0
		for _, c := range candidates(g, d, p.Proposals) {
			v1, ok1 := value(g, d, []monopoly.Action{c}, o, i)
			v2, ok2 := value(g, d, []monopoly.Action{c}, o, i)
			if v1 != v2 || ok1 != ok2 {
				t.Fatalf("%s position %d: %v valued %g then %g", p.Kind, i, c, v1, v2)
			}
			if ok1 {
				legal++
			}
		}
		if legal < 2 {
			t.Errorf("%s position %d: %d legal candidates, the set holds positions with a choice", p.Kind, i, legal)
		}
	}
}

// TestLineReplays: a seat's line is played back in the rollouts exactly:
// the baseline's recorded line through an auction or a phase is worth
// what its first answer is worth with the baseline playing on (the same
// play), and a seat that raises once and then drops out has a line of
// its own, ending in its drop-out, worth other than the baseline's
// continuation somewhere.
func TestLineReplays(t *testing.T) {
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Rollouts: 4, Horizon: 20, Seed: 9}
	long, differs := 0, 0
	for i, p := range set.Positions {
		if p.Kind != "bid" && p.Kind != "build" && p.Kind != "mortgage" {
			continue
		}
		g, d, err := set.Load(i)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := agent.New("baseline", d.Player, 1)
		line := answerLine(b, g, d)
		whole, ok1 := value(g, d, line, o, i)
		first, ok2 := value(g, d, line[:1], o, i)
		if !ok1 || !ok2 || whole != first {
			t.Errorf("%s position %d: the baseline's line %v is worth %g, its first answer %g", p.Kind, i, line, whole, first)
		}
		if len(line) > 1 {
			long++
		}
		if p.Kind != "bid" {
			continue
		}
		line = answerLine(&onceThenOut{}, g, d)
		if last := line[len(line)-1]; len(line) > 1 && last.Kind != monopoly.ActDropOut {
			t.Errorf("bid position %d: the line %v does not end in the drop-out", i, line)
		}
		if len(line) > 1 {
			own, _ := value(g, d, line, o, i)
			cont, _ := value(g, d, line[:1], o, i)
			if own != cont {
				differs++
			}
		}
	}
	if long == 0 || differs == 0 {
		t.Errorf("%d lines of more than one answer, %d auctions where dropping out differs from the baseline's bidding on: the episodes are not the seat's", long, differs)
	}
}

// onceThenOut raises the high bid by $1 at its first bid and drops out
// at the next.
type onceThenOut struct{ bids int }

func (o *onceThenOut) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	o.bids++
	if d.Kind == monopoly.DecisionBid && o.bids == 1 {
		return monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: d.Amount + 1}
	}
	if d.Kind == monopoly.DecisionBid {
		return monopoly.Action{Kind: monopoly.ActDropOut, Player: d.Player}
	}
	return v.LegalActions(nil)[0]
}

// TestLLMSeatAgainstTheFake scores an LLM seat on a position of each kind
// against the fake server: it answers every one, legally, and its calls
// cost money by the price table.
func TestLLMSeatAgainstTheFake(t *testing.T) {
	srv := llmtest.New(llmtest.Player)
	defer srv.Close()
	t.Setenv("GOPOLY_TEST_KEY", "sk-test-bench-4e2a")
	cfg, err := llm.ParseConfig("test.yaml", []byte(fmt.Sprintf(`
timeout: 2s
spacing: 0s
providers:
  fake: {kind: openai, base_url: %q, key_env: [GOPOLY_TEST_KEY], concurrency: 4}
personalities:
  turtle: {provider: fake, model: gpt-4o-mini, temperature: 0.2, max_tokens: 500}
summarizer: {provider: fake, model: gpt-4o-mini, max_tokens: 200}
`, srv.BaseURL("openai"))))
	if err != nil {
		t.Fatal(err)
	}
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	if err := agent.Ready("llm:turtle"); err != nil {
		t.Fatal(err)
	}
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	few := firstOfEach(set)
	rs, err := Score([]string{"llm:turtle"}, few, Options{Rollouts: 4, Horizon: 10, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if len(r.Answers) != len(few.Positions) || r.Decisions < len(few.Positions) || len(srv.Calls()) < r.Decisions {
		t.Fatalf("%d answers, %d decisions, %d calls for %d positions", len(r.Answers), r.Decisions, len(srv.Calls()), len(few.Positions))
	}
	for i, s := range r.Answers {
		if s.Illegal {
			t.Errorf("%s position %d: the fake's answer %s was refused", s.Kind, i, s.Answer)
		}
	}
	if r.Cost <= 0 {
		t.Errorf("cost %g: the calls were not priced", r.Cost)
	}
	t.Logf("%d positions, %d decisions, %d calls, $%.6f a decision", len(r.Answers), r.Decisions, len(srv.Calls()), r.Cost/float64(r.Decisions))
}
