package bench

import (
	"fmt"
	"io"
	"math"
	"math/bits"
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

// value is the rollout value of line, the seat's answers at the
// position through its episode: the mean, over the rollouts, of the
// seat's share of the table's net worth after the horizon (1 for a win,
// 0 bankrupt). The i-th rollout of every line forks the position with
// the same seed and plays with the same baseline players, so lines
// differ by their consequences only. A line whose first answer is
// refused has no value.
func value(g *monopoly.Game, d monopoly.Decision, line []monopoly.Action, o Options, pos int) (float64, bool) {
	total := 0.0
	for i := range o.Rollouts {
		seed := monopoly.DeriveSeed(o.Seed, pos*1_000_003+i)
		f := g.View(knower(g, d)).Fork(seed)
		if f.Apply(line[0]) != nil {
			return 0, false
		}
		players := baselines(seed)
		players[d.Player] = &scripted{line: line[1:], fallback: players[d.Player]}
		end := f.Round() + o.Horizon
		play(f, players, func(f *monopoly.Game, _ monopoly.Decision, _ monopoly.Action) bool { return f.Round() >= end })
		total += share(f, d.Player)
	}
	return total / float64(o.Rollouts), true
}

// knower is the seat whose view the rollouts fork: the decider's, but
// at a sealed offer the proposer's, since a fork from any other view
// sets the proposer's hidden limit to 0, and the benchmark scores the
// answer against the offer as made.
func knower(g *monopoly.Game, d monopoly.Decision) int {
	if d.Kind == monopoly.DecisionTradeResponse {
		return int(g.PendingOffer().From)
	}
	return d.Player
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
// (at most maxCandidates); for a bid, raises to a few levels of the
// price as well; at a trade_proposal, the proposals the source game made;
// under sealed deals, acceptances with limits from paying the printed
// prices of what moves to taking them.
func candidates(g *monopoly.Game, d monopoly.Decision, proposals []monopoly.Action) []monopoly.Action {
	const maxCandidates = 12
	legal := g.LegalActions(nil)
	out := append(legal[:min(len(legal), maxCandidates):min(len(legal), maxCandidates)], proposals...)
	switch {
	case d.Kind == monopoly.DecisionBid:
		price := g.Rules().Squares[d.Square].Price
		for _, f := range []float64{0.5, 1, 1.5, 2} {
			amt := int(f * float64(price))
			if amt > d.Amount && amt <= g.Cash(d.Player) {
				out = append(out, monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: amt})
			}
		}
	case d.Kind == monopoly.DecisionTradeResponse && g.Rules().DealProtocol == monopoly.DealsSealed:
		o := g.PendingOffer()
		moved := 0
		for m := o.GiveSquares | o.GetSquares; m != 0; m &= m - 1 {
			moved += g.Rules().Squares[bits.TrailingZeros64(m)].Price
		}
		for _, f := range []float64{-1, -0.5, 0, 0.5, 1} {
			out = append(out, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: d.Player, Arg: int(f * float64(moved))})
		}
	}
	return out
}

// Scored is one seat's answer at one position.
type Scored struct {
	Kind    string  // the position's kind of decision
	Answer  string  // the first action, as the engine names it
	Line    int     // the seat's answers through the decision's episode
	Regret  float64 // best value minus the answer's, in shares of net worth
	Illegal bool    // the answer was refused: its regret is the worst candidate's
}

// Result is one seat's run over the set.
type Result struct {
	Seat    string
	Answers []Scored
	Cost    float64 // dollars its model calls cost (LLM seats), over the set
	// Decisions are the answers the seat gave, its episodes' lines
	// included: the denominator of its cost per decision.
	Decisions int
}

// Score puts every position of set to each seat of seats and scores the
// answers, a result per seat in the order given. A seat is made fresh
// for each position, at the seat index of the decision, from o's seed;
// the candidates are played out once a position for all seats.
func Score(seats []string, set Set, o Options, progress io.Writer) ([]Result, error) {
	res := make([]Result, len(seats))
	for j, seat := range seats {
		res[j].Seat = seat
	}
	for i, p := range set.Positions {
		g, d, err := set.Load(i)
		if err != nil {
			return res, err
		}
		best, worst := bounds(g, d, p.Proposals, o, i)
		for j, seat := range seats {
			a, err := agent.New(seat, d.Player, monopoly.DeriveSeed(o.Seed, 7_000_000+i))
			if err != nil {
				return res, err
			}
			line := answerLine(a, g, d)
			res[j].Decisions += len(line)
			if m, ok := a.(agent.Measurer); ok {
				res[j].Cost += m.Measures()["cost"]
			}
			s := Scored{Kind: p.Kind, Answer: line[0].Kind.String(), Line: len(line)}
			v, ok := value(g, d, line, o, i)
			if !ok {
				s.Illegal, v = true, worst
			}
			s.Regret = max(best, v) - v
			res[j].Answers = append(res[j].Answers, s)
		}
		if progress != nil {
			fmt.Fprintf(progress, "\rpositions: %d/%d", i+1, len(set.Positions))
		}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	return res, nil
}

// bounds are the values of the best and the worst candidate answer at
// position pos (-Inf and +Inf when none is legal).
func bounds(g *monopoly.Game, d monopoly.Decision, proposals []monopoly.Action, o Options, pos int) (best, worst float64) {
	best, worst = math.Inf(-1), math.Inf(1)
	for _, c := range candidates(g, d, proposals) {
		if v, ok := value(g, d, []monopoly.Action{c}, o, pos); ok {
			best, worst = max(best, v), min(worst, v)
		}
	}
	return best, worst
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
		by[s.Kind] = append(by[s.Kind], s.Regret)
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

// Difference is the mean over the positions of b's regret less a's, with
// its 95% half-width. Both seats answered the same positions, scored
// with the same rollouts, so the paired differences are free of how hard
// each position is, and their interval is narrower than the two means'
// intervals side by side: a positive interval says b answers worse than
// a on this set.
func Difference(a, b Result) (mean, half float64) {
	n := min(len(a.Answers), len(b.Answers))
	d := make([]float64, n)
	for i := range d {
		d[i] = b.Answers[i].Regret - a.Answers[i].Regret
	}
	return interval(d)
}
