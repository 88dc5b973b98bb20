package bench

import (
	"fmt"
	"io"
	"slices"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// Options set how answers are scored.
type Options struct {
	Rollouts int    // per answer, the same dice for every answer (common random numbers)
	Horizon  int    // rounds a rollout plays after the position, at most
	Seed     uint64 // the rollouts' seeds derive from it and the position
}

// DefaultOptions are the defaults of gopoly bench decisions.
var DefaultOptions = Options{Rollouts: 64, Horizon: 30, Seed: 1}

// value is the rollout value of answer a at the position: the mean, over
// the rollouts, of the seat's share of the table's net worth after the
// horizon (1 for a win, 0 bankrupt). The i-th rollout of every answer
// forks the position with the same seed and plays with the same
// baseline players, so answers differ by their consequences only.
func value(g *monopoly.Game, d monopoly.Decision, a monopoly.Action, o Options, pos int) (float64, bool) {
	total := 0.0
	for i := range o.Rollouts {
		seed := monopoly.DeriveSeed(o.Seed, pos*1_000_003+i)
		f := g.View(d.Player).Fork(seed)
		if f.Apply(a) != nil {
			return 0, false
		}
		end := f.Round() + o.Horizon
		play(f, baselines(seed), func(f *monopoly.Game, _ monopoly.Decision) bool { return f.Round() >= end })
		total += share(f, d.Player)
	}
	return total / float64(o.Rollouts), true
}

// share is seat p's share of the net worth of the players in the game.
func share(g *monopoly.Game, p int) float64 {
	if g.Over() {
		if g.Winner() == p {
			return 1
		}
		return 0
	}
	sum := 0
	for i := range g.Players() {
		if !g.Bankrupt(i) {
			sum += max(0, g.NetWorth(i))
		}
	}
	if sum == 0 || g.Bankrupt(p) {
		return 0
	}
	return float64(max(0, g.NetWorth(p))) / float64(sum)
}

// candidates are the answers the best is taken from: the legal answers
// (at most maxCandidates), and for a bid, raises to a few levels of the
// price as well.
func candidates(g *monopoly.Game, d monopoly.Decision) []monopoly.Action {
	const maxCandidates = 8
	legal := g.LegalActions(nil)
	out := legal[:min(len(legal), maxCandidates)]
	if d.Kind == monopoly.DecisionBid {
		price := g.Rules().Squares[d.Square].Price
		for _, f := range []float64{0.5, 1, 1.5, 2} {
			amt := int(f * float64(price))
			if amt > d.Amount && amt <= g.Cash(d.Player) {
				out = append(out, monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: amt})
			}
		}
	}
	return out
}

// Scored is one seat's answer at one position.
type Scored struct {
	Position Position
	Answer   string  // the action, as the engine names it
	Regret   float64 // best value minus the answer's, in shares of net worth
	Illegal  bool    // the answer was refused: its regret is the worst candidate's
}

// Result is one seat's run over the set.
type Result struct {
	Seat    string
	Answers []Scored
	Cost    float64 // dollars its model calls cost (LLM seats), over the set
}

// Score puts every position of set to the seat named seat and scores the
// answers. The seat is made fresh for each position, at seat index of
// the decision, from seed.
func Score(seat string, set Set, o Options, progress io.Writer) (Result, error) {
	res := Result{Seat: seat}
	for i, p := range set.Positions {
		g, d, err := Load(p)
		if err != nil {
			return res, err
		}
		a, err := agent.New(seat, d.Player, monopoly.DeriveSeed(o.Seed, 7_000_000+i))
		if err != nil {
			return res, err
		}
		ans := agent.Respond(a, g.View(d.Player), d, false).Action
		if m, ok := a.(agent.Measurer); ok {
			res.Cost += m.Measures()["cost"]
		}
		best, worst := -1.0, 2.0
		for _, c := range candidates(g, d) {
			if v, ok := value(g, d, c, o, i); ok {
				best, worst = max(best, v), min(worst, v)
			}
		}
		s := Scored{Position: p, Answer: ans.Kind.String()}
		v, ok := value(g, d, ans, o, i)
		if !ok {
			s.Illegal, v = true, worst
		}
		best = max(best, v)
		s.Regret = best - v
		res.Answers = append(res.Answers, s)
		if progress != nil {
			fmt.Fprintf(progress, "\r%s: %d/%d", seat, i+1, len(set.Positions))
		}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	return res, nil
}

// Row is one seat's regret on one kind of decision (or "all").
type Row struct {
	Kind string  `json:"kind"`
	N    int     `json:"n"`
	Mean float64 `json:"mean_regret"`
	Half float64 `json:"ci95"` // the 95% interval's half-width
}

// Rows sums a result up by kind, "all" last.
func (r Result) Rows() []Row {
	by := map[string][]float64{}
	var all []float64
	for _, s := range r.Answers {
		by[s.Position.Kind] = append(by[s.Position.Kind], s.Regret)
		all = append(all, s.Regret)
	}
	var rows []Row
	for _, k := range Kinds {
		if xs := by[k]; len(xs) > 0 {
			m, h := interval(xs)
			rows = append(rows, Row{k, len(xs), m, h})
		}
	}
	m, h := interval(all)
	return append(rows, Row{"all", len(all), m, h})
}

// Leaderboard orders results by mean regret over all positions, least
// first.
func Leaderboard(rs []Result) []Result {
	out := slices.Clone(rs)
	slices.SortStableFunc(out, func(a, b Result) int {
		x, y := a.Rows(), b.Rows()
		switch mx, my := x[len(x)-1].Mean, y[len(y)-1].Mean; {
		case mx < my:
			return -1
		case mx > my:
			return 1
		}
		return 0
	})
	return out
}
