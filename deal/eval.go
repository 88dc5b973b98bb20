package deal

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/gopoly/gopoly/stats"
)

// Score is one evaluation setting's outcome for the evaluated agent:
// wins score 1, losses 0 and draws 0.5.
type Score struct {
	Games  int        `json:"games"`
	Wins   int        `json:"wins"`
	Losses int        `json:"losses"`
	Draws  int        `json:"draws"`
	Mean   float64    `json:"mean"`
	CI95   [2]float64 `json:"ci95"`
}

func newScore(w, l, d int) Score {
	s := Score{Games: w + l + d, Wins: w, Losses: l, Draws: d}
	if s.Games > 0 {
		pts := float64(w) + 0.5*float64(d)
		s.Mean = pts / float64(s.Games)
		s.CI95[0], s.CI95[1] = stats.Wilson(pts, s.Games)
	}
	return s
}

// Evaluation is an agent's record against one opponent in both start
// settings: always first, and alternating who starts.
type Evaluation struct {
	Opponent    string `json:"opponent"`
	Games       int    `json:"games"`
	Seed        uint64 `json:"seed"`
	First       Score  `json:"first"`
	Alternating Score  `json:"alternating"`
}

// Baseline returns a named baseline seat ("random" or "risk-aware"),
// playing through the paper's greedy resolver.
func Baseline(name string) (Seat, error) {
	switch name {
	case "random":
		return Seat{Agent: Random{}, Resolver: Greedy}, nil
	case "risk-aware", "riskaware":
		return Seat{Agent: DefaultRiskAware(), Resolver: Greedy}, nil
	}
	return Seat{}, fmt.Errorf("deal: unknown baseline %q (want random or risk-aware)", name)
}

const streamEval = 0x6a09e667f3bcc909

// Evaluate plays agent (seat 0) against opponent (seat 1) for games games
// in each setting. Game i uses seed+i; in the alternating setting game i
// is started by player i mod 2. The result does not depend on workers.
func Evaluate(r *Rules, agent, opponent Seat, games int, seed uint64, workers int) (first, alternating Score) {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	type tally struct{ w, l, d [2]int }
	tallies := make([]tally, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			seats := [2]Seat{agent, opponent}
			var g Game
			var rng rand.PCG
			t := &tallies[w]
			for i := w; i < games; i += workers {
				s := seed + uint64(i)
				for setting := 0; setting < 2; setting++ {
					starter := 0
					if setting == 1 {
						starter = i & 1
					}
					g.Reset(r, s, starter)
					rng.Seed(s, streamEval)
					res := PlayOut(&g, &seats, &rng)
					switch res.Utility(0) {
					case 1:
						t.w[setting]++
					case -1:
						t.l[setting]++
					default:
						t.d[setting]++
					}
				}
			}
		}(w)
	}
	wg.Wait()
	var sum tally
	for _, t := range tallies {
		for s := 0; s < 2; s++ {
			sum.w[s] += t.w[s]
			sum.l[s] += t.l[s]
			sum.d[s] += t.d[s]
		}
	}
	return newScore(sum.w[0], sum.l[0], sum.d[0]), newScore(sum.w[1], sum.l[1], sum.d[1])
}

// EvaluateAgainst runs Evaluate against a named baseline.
func EvaluateAgainst(r *Rules, agent Seat, baseline string, games int, seed uint64, workers int) (Evaluation, error) {
	opp, err := Baseline(baseline)
	if err != nil {
		return Evaluation{}, err
	}
	f, a := Evaluate(r, agent, opp, games, seed, workers)
	return Evaluation{Opponent: baseline, Games: games, Seed: seed, First: f, Alternating: a}, nil
}
