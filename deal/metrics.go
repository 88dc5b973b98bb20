package deal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/gopoly/gopoly/chart"
)

// WinRates are the trained agent's mean scores against both baselines in
// both start settings.
type WinRates struct {
	RandomFirst          float64 `json:"random_first"`
	RandomAlternating    float64 `json:"random_alternating"`
	RiskAwareFirst       float64 `json:"risk_aware_first"`
	RiskAwareAlternating float64 `json:"risk_aware_alternating"`
}

// Metrics is one line of a training run's metrics file.
type Metrics struct {
	Games             int                `json:"games"`
	Infosets          int                `json:"infosets"`
	MaxExpectedRegret float64            `json:"max_expected_regret"`
	EvalGames         int                `json:"eval_games"`
	WinRates          WinRates           `json:"win_rates"`
	UpdateQuantiles   [5]float64         `json:"update_count_quantiles"` // 0, 25, 50, 75, 100th percentiles
	MedianProbability map[string]float64 `json:"median_probability"`     // by abstract action, where it has mass
	WallSeconds       float64            `json:"wall_seconds"`
}

// Metrics measures the current tables: the maximum expected regret, the
// average policy's scores in evalGames games per baseline and setting
// (the same seeds every time, so curves compare like with like), update
// quantiles and median action probabilities. Workers only changes speed.
func (t *Trainer) Metrics(evalGames, workers int) Metrics {
	m := Metrics{
		Games:             t.done,
		Infosets:          len(t.tab.Visited()),
		MaxExpectedRegret: t.tab.MaxExpectedRegret(),
		EvalGames:         evalGames,
		UpdateQuantiles:   t.tab.UpdateQuantiles(),
		MedianProbability: map[string]float64{},
	}
	if evalGames > 0 {
		pol := t.Policy().Seat()
		seed := Mix(t.params.Seed ^ streamMetrics)
		rnd, _ := Baseline("random")
		risk, _ := Baseline("risk-aware")
		f, a := Evaluate(t.rules, pol, rnd, evalGames, seed, workers)
		m.WinRates.RandomFirst, m.WinRates.RandomAlternating = f.Mean, a.Mean
		f, a = Evaluate(t.rules, pol, risk, evalGames, seed, workers)
		m.WinRates.RiskAwareFirst, m.WinRates.RiskAwareAlternating = f.Mean, a.Mean
	}
	for a, p := range t.tab.MedianProbabilities() {
		if !math.IsNaN(p) {
			m.MedianProbability[Abstract(a).String()] = p
		}
	}
	return m
}

// AppendMetrics appends one JSON line to a metrics file.
func AppendMetrics(path string, m Metrics) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("deal: %w", err)
	}
	data, _ := json.Marshal(m)
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("deal: %w", err)
	}
	return nil
}

// ReadMetrics reads a metrics file written by AppendMetrics. A missing
// file reads as no metrics.
func ReadMetrics(path string) ([]Metrics, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("deal: %w", err)
	}
	defer f.Close()
	var out []Metrics
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var m Metrics
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, fmt.Errorf("deal: %s line %d: %w", path, line, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("deal: %s: %w", path, err)
	}
	return out, nil
}

// PlotMetrics draws the four training figures of the paper into dir, as
// files named metrics-<figure>.<ext> (ext "png" or "svg"), and returns
// their paths.
func PlotMetrics(dir, ext string, ms []Metrics) ([]string, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	x := make([]float64, len(ms))
	for i, m := range ms {
		x[i] = float64(m.Games)
	}
	col := func(f func(m Metrics) float64) []float64 {
		y := make([]float64, len(ms))
		for i, m := range ms {
			y[i] = f(m)
		}
		return y
	}
	path := func(name string) string { return filepath.Join(dir, "metrics-"+name+"."+ext) }
	charts := []struct {
		name string
		c    chart.LineChart
	}{
		{"regret", chart.LineChart{
			Title: "Maximum expected regret", XLabel: "training games", YLabel: "MER",
			Series: []chart.Series{{Name: "MER", X: x, Y: col(func(m Metrics) float64 { return m.MaxExpectedRegret })}},
		}},
		{"winrate", chart.LineChart{
			Title: "Win rate against baselines", XLabel: "training games", YLabel: "mean score", YMin: chart.Ptr(0.0), YMax: chart.Ptr(1.0),
			Series: []chart.Series{
				{Name: "random, agent first", X: x, Y: col(func(m Metrics) float64 { return m.WinRates.RandomFirst })},
				{Name: "random, alternating", X: x, Y: col(func(m Metrics) float64 { return m.WinRates.RandomAlternating }), Dashed: true},
				{Name: "risk-aware, agent first", X: x, Y: col(func(m Metrics) float64 { return m.WinRates.RiskAwareFirst })},
				{Name: "risk-aware, alternating", X: x, Y: col(func(m Metrics) float64 { return m.WinRates.RiskAwareAlternating }), Dashed: true},
			},
		}},
		{"updates", chart.LineChart{
			// The Y label stays short: gonum shrinks the plot to fit a
			// label longer than the axis.
			Title:  "Policy updates per information set: quantiles over the sets (zeros not shown)",
			XLabel: "training games", YLabel: "policy updates (log scale)", LogY: true,
			Series: func() []chart.Series {
				// Top to bottom in the legend as in the plot; the minimum
				// is mostly 0, which the log scale leaves out (and the
				// legend with it).
				var s []chart.Series
				for k, q := range []string{"max", "75th percentile", "median", "25th percentile", "min"} {
					i := 4 - k
					s = append(s, chart.Series{Name: q, X: x, Y: col(func(m Metrics) float64 { return m.UpdateQuantiles[i] }), Colour: chart.Colour(k)})
				}
				return s
			}(),
		}},
		{"policy", chart.LineChart{
			Title: "Median probability of each action (dashed: answers to rent)", XLabel: "training games", YLabel: "median probability",
			YMin: chart.Ptr(0.0), YMax: chart.Ptr(1.0),
			Series: func() []chart.Series {
				// Plays first, answers to rent after, each action in a
				// colour of its own whatever else is drawn.
				order := []Abstract{StartNewPropertySet, AddToPropertySet, CompletePropertySet, Cash, AttemptCollectRent, Other, Pass,
					JustSayNo, GiveOpponentCash, GiveOpponentProperty, Yield}
				var s []chart.Series
				for _, a := range order {
					name := a.String()
					y := col(func(m Metrics) float64 {
						if p, ok := m.MedianProbability[name]; ok {
							return p
						}
						return math.NaN()
					})
					if anyFinite(y) {
						s = append(s, chart.Series{Name: a.Label(), X: x, Y: y, Dashed: a.IsReply(), Colour: chart.Colour(int(a))})
					}
				}
				return s
			}(),
		}},
	}
	var out []string
	for _, c := range charts {
		p := path(c.name)
		if err := c.c.Save(p); err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

func anyFinite(y []float64) bool {
	for _, v := range y {
		if !math.IsNaN(v) {
			return true
		}
	}
	return false
}
