package agent_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	_ "github.com/gopoly/gopoly/agent/personality"
	_ "github.com/gopoly/gopoly/agent/planning"
	"github.com/gopoly/gopoly/internal/strictyaml"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
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

// Overrides that change nothing for the bots seated are reported: a
// seat's own knob its bot does not read, a knob for all seats that none
// of them reads; a knob some seated bot reads is not.
func TestUnread(t *testing.T) {
	p, err := agent.ParseSeatParams("p.yaml", []byte(`
all: {rollouts: 8, cash_reserve: 100, hurdle: 0.1}
seats:
  0: {valuation_bias: 2, tight_cash: 5}
  1: {hurdle: 0.1, thin_cash: 9}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := p.Unread([]string{"baseline", "adaptive", "random"})
	want := []string{
		"all seats: hurdle is read by none of the bots seated",
		"seat 0: tight_cash is not read by baseline",
		"seat 1: hurdle is not read by adaptive",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q,\nwant %q", got, want)
	}
	got = p.Unread([]string{"shark", "planning"})
	want = []string{
		"seat 0: tight_cash is not read by shark",
		"seat 1: hurdle is not read by planning",
		"seat 1: thin_cash is not read by planning",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q,\nwant %q", got, want)
	}
}

// What a bot declares it does not read changes nothing: every registered
// bot that declares its knobs, with all the others set to an unusual
// value, plays the same games, action for action, as with its defaults.
// (A bot that read one would play differently.)
func TestUnreadKnobsChangeNothing(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 80")
	for _, name := range agent.Names() {
		b, _ := agent.Lookup(name)
		if b.Reads == nil {
			continue
		}
		base := "{}"
		if slices.Contains(b.Reads, "rollouts") {
			base = "{rollouts: 2, horizon: 5}" // cheap planners
		}
		odd := strings.TrimSuffix(base, "}")
		for _, k := range agent.ParamNames() {
			if !slices.Contains(b.Reads, k) {
				odd += ", " + k + ": 7"
			}
		}
		odd = strings.Replace(odd+"}", "{, ", "{", 1)
		for seed := range uint64(3) {
			if a, o := actions(t, r, name, base, seed), actions(t, r, name, odd, seed); a != o {
				t.Errorf("%s, game %d: knobs it does not read (%s) change its play", name, seed, odd)
			}
		}
	}
}

// actions plays a game of four bots name with overrides doc and returns
// every action taken.
func actions(t *testing.T, r *monopoly.Rules, name, doc string, seed uint64) string {
	t.Helper()
	p, err := agent.ParseSeatParams("test", []byte("all: "+doc))
	if err != nil {
		t.Fatal(err)
	}
	g := monopoly.New(r, 4, seed)
	agents := make([]agent.Agent, 4)
	for s := range agents {
		if agents[s], err = agent.NewWith(name, p.All, s, seed*4+uint64(s)); err != nil {
			t.Fatal(err)
		}
	}
	var log strings.Builder
	for !g.Over() {
		d := g.Pending()
		a := agents[d.Player].Decide(g.View(d.Player), d)
		fmt.Fprintf(&log, "%d %s %d", a.Player, a.Kind, a.Arg)
		if a.Offer != nil {
			fmt.Fprintf(&log, " %+v", *a.Offer)
		}
		log.WriteByte('\n')
		if err := g.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	return log.String()
}
