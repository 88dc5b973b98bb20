package main

import (
	"math"
	"path/filepath"

	"github.com/gopoly/gopoly/chart"
	"github.com/gopoly/gopoly/deal"
)

// dealPlotMetrics draws the four training figures of the paper into dir,
// as files named metrics-<figure>.<ext> (ext "png" or "svg"), and returns
// their paths. It lives beside the command, not in package deal, so that
// the game engine does not pull in the plotting library and its fonts.
func dealPlotMetrics(dir, ext string, ms []deal.Metrics) ([]string, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	x := make([]float64, len(ms))
	for i, m := range ms {
		x[i] = float64(m.Games)
	}
	col := func(f func(m deal.Metrics) float64) []float64 {
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
			Series: []chart.Series{{Name: "MER", X: x, Y: col(func(m deal.Metrics) float64 { return m.MaxExpectedRegret })}},
		}},
		{"winrate", chart.LineChart{
			Title: "Win rate against baselines", XLabel: "training games", YLabel: "mean score", YMin: chart.Ptr(0.0), YMax: chart.Ptr(1.0),
			Series: []chart.Series{
				{Name: "random, agent first", X: x, Y: col(func(m deal.Metrics) float64 { return m.WinRates.RandomFirst })},
				{Name: "random, alternating", X: x, Y: col(func(m deal.Metrics) float64 { return m.WinRates.RandomAlternating }), Dashed: true},
				{Name: "risk-aware, agent first", X: x, Y: col(func(m deal.Metrics) float64 { return m.WinRates.RiskAwareFirst })},
				{Name: "risk-aware, alternating", X: x, Y: col(func(m deal.Metrics) float64 { return m.WinRates.RiskAwareAlternating }), Dashed: true},
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
					s = append(s, chart.Series{Name: q, X: x, Y: col(func(m deal.Metrics) float64 { return m.UpdateQuantiles[i] }), Colour: chart.Colour(k)})
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
				order := []deal.Abstract{deal.StartNewPropertySet, deal.AddToPropertySet, deal.CompletePropertySet, deal.Cash, deal.AttemptCollectRent, deal.Other, deal.Pass,
					deal.JustSayNo, deal.GiveOpponentCash, deal.GiveOpponentProperty, deal.Yield}
				var s []chart.Series
				for _, a := range order {
					name := a.String()
					y := col(func(m deal.Metrics) float64 {
						if p, ok := m.MedianProbability[name]; ok {
							return p
						}
						return math.NaN()
					})
					if dealAnyFinite(y) {
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

func dealAnyFinite(y []float64) bool {
	for _, v := range y {
		if !math.IsNaN(v) {
			return true
		}
	}
	return false
}
