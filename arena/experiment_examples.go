package arena

import (
	"path/filepath"
	"slices"
)

// maxSeatExamples is how many examples of a measure a seat's tally
// keeps, the first in game order.
const maxSeatExamples = 3

// SeatTally is one seat of a variant over its recorded games: its own
// measures summed (counts over all the games, not per-game means) and
// the first examples of each measure.
type SeatTally struct {
	Seat     int                 `json:"seat"`
	Bot      string              `json:"bot"`
	Games    int                 `json:"games"` // the games that measured it
	Totals   map[string]float64  `json:"totals"`
	Examples map[string][]string `json:"examples"`
}

// TallyResults reads a directory's results, checked as SummarizeResults
// checks them, and tallies each variant's seats that measure themselves
// (LLM seats): by variant name, by seat; seats without measures are
// left out.
func TallyResults(dir string, e *Experiment, info RunInfo) (map[string][]SeatTally, error) {
	out := map[string][]SeatTally{}
	path := filepath.Join(dir, ResultsFile)
	err := eachLine(path, func(m int, line []byte) error {
		var rec GameRecord
		if le := checkLine(line, e, info, m, &rec); le != nil {
			return le.at(path, m+1)
		}
		for _, p := range rec.Players {
			if p.Measures == nil {
				continue
			}
			ts := out[rec.Variant]
			i := 0
			for i < len(ts) && ts[i].Seat != p.Seat {
				i++
			}
			if i == len(ts) {
				ts = append(ts, SeatTally{Seat: p.Seat, Bot: p.Bot, Totals: map[string]float64{}, Examples: map[string][]string{}})
			}
			t := &ts[i]
			t.Games++
			for k, v := range p.Measures {
				t.Totals[k] += v
			}
			for k, ex := range p.Examples {
				t.Examples[k] = append(t.Examples[k], ex[:min(len(ex), maxSeatExamples-len(t.Examples[k]))]...)
			}
			out[rec.Variant] = ts
		}
		return nil
	})
	for _, ts := range out {
		slices.SortFunc(ts, func(a, b SeatTally) int { return a.Seat - b.Seat })
	}
	return out, err
}
