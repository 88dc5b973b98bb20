package arena

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopoly/gopoly/chart"
	"github.com/gopoly/gopoly/stats"
)

// TuneSummary is a tuning run's summary.json: the search so far, the
// best knobs and, once played, the validation.
type TuneSummary struct {
	Tune              string   `json:"tune"`
	Bot               string   `json:"bot"`
	Field             []string `json:"field"`
	GamesPerCandidate int      `json:"games_per_candidate"`
	Population        int      `json:"population"`
	Generations       int      `json:"generations"`      // the budget
	Done              int      `json:"generations_done"` // played to the end
	// Converged is a search CMA-ES ended before the budget: its
	// distribution had shrunk to a point.
	Converged bool `json:"converged"`
	// Complete is a run that has nothing left to play.
	Complete      bool             `json:"complete"`
	Knobs         []TuneKnobResult `json:"knobs"`
	PerGeneration []TuneGeneration `json:"per_generation"`
	// Best is the candidate that won the largest share of its games (the
	// first such), nil before any generation. Its share is the best of
	// many noisy ones, and so likely above what it wins on other seeds:
	// the validation tells.
	Best       *TuneCandidate  `json:"best"`
	Validation *TuneValidation `json:"validation"`
}

// TuneKnobResult is one knob searched: its bounds, where the search
// started, and the best value found.
type TuneKnobResult struct {
	Name  string   `json:"name"`
	Lo    float64  `json:"lo"`
	Hi    float64  `json:"hi"`
	Start float64  `json:"start"`
	Best  *float64 `json:"best"`
}

// TuneGeneration sums up a generation: its best candidate and the mean
// win share of its candidates.
type TuneGeneration struct {
	Generation    int        `json:"generation"`
	BestCandidate int        `json:"best_candidate"`
	BestWinShare  float64    `json:"best_win_share"`
	BestCI95      [2]float64 `json:"best_ci95"`
	MeanWinShare  float64    `json:"mean_win_share"`
}

// TuneCandidate is one candidate played, a line of progress.jsonl: its
// knobs, by name, and the tuned bot's wins with their 95% Wilson
// interval.
type TuneCandidate struct {
	Generation int                `json:"generation"`
	Candidate  int                `json:"candidate"`
	Knobs      map[string]float64 `json:"knobs"`
	TuneScore
}

// TuneScore is the tuned bot's wins out of its games.
type TuneScore struct {
	Games    int        `json:"games"`
	Wins     int        `json:"wins"`
	WinShare float64    `json:"win_share"`
	CI95     [2]float64 `json:"ci95"`
}

// TuneValidation is the starting knobs and the best found played on the
// same fresh seeds.
type TuneValidation struct {
	Games int       `json:"games"`
	Start TuneScore `json:"start"`
	Best  TuneScore `json:"best"`
}

func (s score) result() TuneScore {
	out := TuneScore{Games: s.games, Wins: s.wins}
	if s.games > 0 {
		out.WinShare = float64(s.wins) / float64(s.games)
		out.CI95[0], out.CI95[1] = stats.Wilson(float64(s.wins), s.games)
	}
	return out
}

// candidate returns candidate c of generation g as progress.jsonl has it.
func (r *tuneRun) candidate(g, c int) TuneCandidate {
	gr := r.gens[g]
	return TuneCandidate{Generation: g, Candidate: c, Knobs: r.t.values(gr.knobs[c]), TuneScore: gr.scores[c].result()}
}

// summary sums up the run so far.
func (r *tuneRun) summary() TuneSummary {
	t := r.t
	s := TuneSummary{Tune: t.Name, Bot: t.Bot, Field: t.Field, GamesPerCandidate: t.Games, Population: t.Population,
		Generations: t.Generations, Done: len(r.gens), Converged: r.converged, PerGeneration: []TuneGeneration{}}
	s.Complete = (r.converged || len(r.gens) == t.Generations) && (t.ValidationGames == 0 || r.validation != nil)
	for g, gr := range r.gens {
		tg := TuneGeneration{Generation: g}
		sum := 0.0
		for c, sc := range gr.scores {
			share := sc.result().WinShare
			sum += share
			if c == 0 || share > tg.BestWinShare {
				best := sc.result()
				tg.BestCandidate, tg.BestWinShare, tg.BestCI95 = c, best.WinShare, best.CI95
			}
		}
		tg.MeanWinShare = sum / float64(len(gr.scores))
		s.PerGeneration = append(s.PerGeneration, tg)
	}
	at, _, ok := r.best()
	if ok {
		b := r.candidate(at.gen, at.cand)
		s.Best = &b
	}
	for i, k := range t.Knobs {
		kr := TuneKnobResult{Name: k.Name, Lo: k.Lo, Hi: k.Hi, Start: k.Start}
		if ok {
			kr.Best = new(r.gens[at.gen].knobs[at.cand][i])
		}
		s.Knobs = append(s.Knobs, kr)
	}
	if r.validation != nil {
		s.Validation = &TuneValidation{Games: t.ValidationGames, Start: r.validation[0].result(), Best: r.validation[1].result()}
	}
	return s
}

// plotEvery bounds how often a run under way redraws its progress: a
// figure takes far longer to draw than a generation of fast bots to play.
const plotEvery = 10 * time.Second

// write rewrites the outputs from the generations played so far, the
// figures only when final (the run ends or stops) or plotEvery after
// they were last drawn.
func (r *tuneRun) write(final bool) error {
	dir := r.o.Dir
	var progress bytes.Buffer
	for g, gr := range r.gens {
		for c := range gr.scores {
			line, err := json.Marshal(r.candidate(g, c))
			if err != nil {
				return fmt.Errorf("arena: %w", err)
			}
			progress.Write(append(line, '\n'))
		}
	}
	if err := writeFileAtomic(filepath.Join(dir, ProgressFile), progress.Bytes()); err != nil {
		return err
	}
	s := r.summary()
	if err := writeJSONFile(filepath.Join(dir, SummaryFile), s); err != nil {
		return err
	}
	if s.Best == nil {
		return nil
	}
	if err := writeFileAtomic(filepath.Join(dir, BestParamsFile), r.t.paramsFile(s.Best)); err != nil {
		return err
	}
	if !final && time.Since(r.plotted) < plotEvery {
		return nil
	}
	r.plotted = time.Now()
	return savePlots(filepath.Join(dir, "progress"), r.t.progressChart(s))
}

// paramsFile writes the knobs of c as a --params file giving them to
// seat 0, where the tuned bot sat in the run's tables.
func (t *Tune) paramsFile(c *TuneCandidate) []byte {
	var b strings.Builder
	seats := strings.Join(t.Seats(), ",")
	fmt.Fprintf(&b, "# gopoly tune %s: the knobs of %s that won the largest share of games,\n", t.Name, t.Bot)
	fmt.Fprintf(&b, "# %.1f%% of %d [95%% CI %.1f%%, %.1f%%] (generation %d, candidate %d),\n",
		100*c.WinShare, c.Games, 100*c.CI95[0], 100*c.CI95[1], c.Generation, c.Candidate)
	fmt.Fprintf(&b, "# for %s in seat 0: gopoly sim --bots %s --params %s\n", t.Bot, seats, BestParamsFile)
	b.WriteString("# (write all: for 0: to give every seat these knobs)\n0:\n")
	for _, k := range t.Knobs {
		fmt.Fprintf(&b, "  %s: %s\n", k.Name, formatKnob(c.Knobs[k.Name]))
	}
	return []byte(b.String())
}

// progressChart draws the best and the mean win share of each generation
// against the share of an equal player.
func (t *Tune) progressChart(s TuneSummary) chart.LineChart {
	n := len(s.PerGeneration)
	x, best, mean, even := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, g := range s.PerGeneration {
		x[i], best[i], mean[i], even[i] = float64(g.Generation), g.BestWinShare, g.MeanWinShare, 1/float64(len(t.Field)+1)
	}
	return chart.LineChart{
		Title:  fmt.Sprintf("%s: %s's win share per generation (%d candidates, %d games each)", t.Name, t.Bot, t.Population, t.Games),
		XLabel: "generation", YLabel: "win share", YMin: chart.Ptr(0),
		Series: []chart.Series{
			{Name: "best candidate", X: x, Y: best},
			{Name: "mean of the candidates", X: x, Y: mean},
			{Name: "an equal share", X: x, Y: even, Dashed: true},
		},
	}
}
