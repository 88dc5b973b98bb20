package agent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/internal/strictyaml"
)

func TestParseSeatParams(t *testing.T) {
	p, err := agent.ParseSeatParams("p.yaml", []byte(`
all:
  cash_reserve: 200
  rich_factor: {mean: 3, std: 0}
seats:
  1: {cash_reserve: 900}
`))
	if err != nil {
		t.Fatal(err)
	}
	base := agent.Params{CashReserve: 1, RichFactor: 1, BuildReserve: 7}
	for seat, want := range map[int]agent.Params{
		0: {CashReserve: 200, RichFactor: 3, BuildReserve: 7},
		1: {CashReserve: 900, RichFactor: 3, BuildReserve: 7},
		2: {CashReserve: 200, RichFactor: 3, BuildReserve: 7},
	} {
		if got := p.ForSeat(seat).Apply(base, 1); got != want {
			t.Errorf("seat %d: %+v, want %+v", seat, got, want)
		}
	}
	// The merge must not write into the overrides for all seats.
	if got := p.ForSeat(0).Apply(base, 1); got.CashReserve != 200 {
		t.Errorf("seat 0 after merging seat 1: %+v", got)
	}
}

// Sampled knobs vary from seed to seed around their mean and never go
// below zero; the same seed draws the same value.
func TestSampledParams(t *testing.T) {
	p, err := agent.ParseSeatParams("p.yaml", []byte("all: {cash_reserve: {mean: 300, std: 100}}"))
	if err != nil {
		t.Fatal(err)
	}
	spec := p.ForSeat(0)
	if !spec.Sampled() {
		t.Fatal("a knob with a spread is not reported as sampled")
	}
	sum, distinct := 0, map[int]bool{}
	for seed := range uint64(400) {
		v := spec.Apply(agent.Params{}, seed).CashReserve
		if v < 0 {
			t.Fatalf("drawn %d", v)
		}
		if again := spec.Apply(agent.Params{}, seed).CashReserve; again != v {
			t.Fatalf("seed %d drew %d then %d", seed, v, again)
		}
		sum += v
		distinct[v] = true
	}
	// The mean of 400 draws of N(300, 100) is within 15 of 300 with
	// probability above 0.997.
	if mean := float64(sum) / 400; mean < 285 || mean > 315 || len(distinct) < 100 {
		t.Fatalf("mean %.1f over %d distinct values", mean, len(distinct))
	}
}

func TestParseSeatParamsErrors(t *testing.T) {
	for _, c := range []struct {
		doc   string
		line  int
		field string
	}{
		{"all: {cash_reservoir: 3}", 1, "all.cash_reservoir"},
		{"all:\n  cash_reserve: lots", 2, "all.cash_reserve"},
		{"seats:\n  x: {cash_reserve: 1}", 2, "seats.x"},
		{"seats:\n  1: {rollouts: {std: 2}}", 2, "seats.1.rollouts.mean"},
		{"seats:\n  1: {cash_reserve: {mean: 2, std: -1}}", 2, "seats.1.cash_reserve.std"},
		{"seats: [1, 2]", 1, "seats"},
		{"everyone: {}", 1, "everyone"},
	} {
		_, err := agent.ParseSeatParams("p.yaml", []byte(c.doc))
		var e *strictyaml.Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v", c.doc, err)
			continue
		}
		if e.File != "p.yaml" || e.Line != c.line || e.Field != c.field || !strings.HasPrefix(err.Error(), "p.yaml:") {
			t.Errorf("%q: %s:%d field %q (%v), want line %d field %q", c.doc, e.File, e.Line, e.Field, err, c.line, c.field)
		}
	}
}

// Drawn reports exactly the knobs drawn at random, with the values the
// player made from the same seed plays with.
func TestDrawnParams(t *testing.T) {
	p, err := agent.ParseSeatParams("p.yaml", []byte("all: {cash_reserve: {mean: 300, std: 100}, stretch_budget: {mean: 1.5, std: 0.2}, rich_factor: 4}"))
	if err != nil {
		t.Fatal(err)
	}
	spec := p.ForSeat(0)
	for seed := range uint64(20) {
		a, err := agent.NewWith("baseline", spec, 0, seed)
		if err != nil {
			t.Fatal(err)
		}
		got, want := spec.Drawn(seed), a.(*bots.Baseline).P
		if len(got) != 2 || got["cash_reserve"] != float64(want.CashReserve) || got["stretch_budget"] != want.StretchBudget {
			t.Fatalf("seed %d: drawn %v, the player has cash_reserve %d, stretch_budget %g", seed, got, want.CashReserve, want.StretchBudget)
		}
	}
	if fixed := (agent.SeatParams{}).ForSeat(0).Drawn(1); fixed != nil {
		t.Fatalf("nothing drawn, Drawn gives %v", fixed)
	}
}
