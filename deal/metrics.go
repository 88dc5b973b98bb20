package deal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
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
