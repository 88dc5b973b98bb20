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
		// Values the bots cannot play with: refused where they are written.
		{"all: {cash_reserve: -100}", 1, "all.cash_reserve"},
		{"all: {complete_reserve: -100}", 1, "all.complete_reserve"},
		{"all: {rich_factor: -100}", 1, "all.rich_factor"},
		{"all:\n  cash_reserve: {mean: -100, std: 0}", 2, "all.cash_reserve.mean"},
		{"all:\n  cash_reserve:\n    std: 5\n    mean: -1", 4, "all.cash_reserve.mean"},
		{"seats:\n  1: {rollouts: -5}", 2, "seats.1.rollouts"},
		{"seats:\n  1: {rollouts: 2.5}", 2, "seats.1.rollouts"},
		{"seats:\n  1: {rollouts: {mean: 2.5, std: 0}}", 2, "seats.1.rollouts.mean"},
		{"all: {buy_chance: 1.5}", 1, "all.buy_chance"},
		{"all: {cash_reserve: 2e9}", 1, "all.cash_reserve"},
		{"all: {win_weight: .nan}", 1, "all.win_weight"},
		{"all: {win_weight: .inf}", 1, "all.win_weight"},
		{"all: {win_weight: {mean: 1, std: .inf}}", 1, "all.win_weight.std"},
		{"all: {win_weight: {mean: 1, spread: 2}}", 1, "all.win_weight.spread"},
		{"all: {cash_reserve: \"12\"}", 1, "all.cash_reserve"},
		// A seat given in both forms.
		{"seats: {1: {cash_reserve: 1}}\n1: {cash_reserve: 2}", 2, "1"},
		{"0: {cash_reserve: 1}\nseats:\n  0: {cash_reserve: 2}", 3, "seats.0"},
		{"8: {cash_reserve: 1}", 1, "8"},
		{"all: {}\nall: {}", 0, ""}, // YAML itself refuses a key given twice
	} {
		_, err := agent.ParseSeatParams("p.yaml", []byte(c.doc))
		var e *strictyaml.Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v", c.doc, err)
			continue
		}
		if c.field == "" {
			continue // a YAML syntax error: where the parser says
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

// Every bot's own parameters are in the ranges overrides are held to:
// the ranges are where the bots are known to work.
func TestDefaultsInRange(t *testing.T) {
	for _, name := range agent.Names() {
		b, err := agent.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Defaults.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range agent.ParamNames() {
		if lo, hi, _, ok := agent.ParamRange(name); !ok || lo > hi {
			t.Errorf("%s: range [%v, %v], %v", name, lo, hi, ok)
		}
	}
	bad := bots.BaselineParams()
	bad.CashReserve = -1
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "cash_reserve") {
		t.Errorf("a negative reserve: %v", err)
	}
}

// Values at the ends of a range are accepted; drawn values are clamped
// into it, and drawn integers are whole.
func TestParamRangeDraws(t *testing.T) {
	if _, err := agent.ParseSeatParams("p.yaml", []byte("all: {cash_reserve: 0, buy_chance: 1, accept_margin: -1, rollouts: {mean: 2.5, std: 1}}")); err != nil {
		t.Fatalf("values in range refused: %v", err)
	}
	p, err := agent.ParseSeatParams("p.yaml", []byte("all: {accept_margin: {mean: 0, std: 100}, rollouts: {mean: 1, std: 50000}, buy_chance: {mean: 0.5, std: 10}}"))
	if err != nil {
		t.Fatal(err)
	}
	spec := p.ForSeat(0)
	var atLo, atHi int
	for seed := range uint64(200) {
		got := spec.Apply(agent.Params{}, seed)
		if got.AcceptMargin < -1 || got.AcceptMargin > 10 || got.Rollouts < 0 || got.Rollouts > 10000 || got.BuyChance < 0 || got.BuyChance > 1 {
			t.Fatalf("seed %d: drawn out of range: %+v", seed, got)
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got.AcceptMargin == -1 {
			atLo++
		}
		if got.AcceptMargin == 10 {
			atHi++
		}
	}
	// N(0, 100) falls below -1 or above 10 in nine draws out of ten.
	if atLo < 50 || atHi < 50 {
		t.Errorf("clamped to -1 %d times, to 10 %d times in 200 draws", atLo, atHi)
	}
}

// A seat's overrides read the same under seats: and standing alone, in a
// file as in an experiment spec, and seats out of a table's range are
// reported where they were written.
func TestSeatParamsForms(t *testing.T) {
	nested, err := agent.ParseSeatParams("a.yaml", []byte("all: {cash_reserve: 200}\nseats:\n  2: {rollouts: 16}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := agent.ParseSeatParams("b.yaml", []byte("2: {rollouts: 16}\nall: {cash_reserve: 200}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for s := range 4 {
		if a, b := nested.ForSeat(s).Apply(agent.Params{}, 1), bare.ForSeat(s).Apply(agent.Params{}, 1); a != b {
			t.Errorf("seat %d: %+v and %+v", s, a, b)
		}
	}
	if a, b := fmt.Sprint(nested.Written()), fmt.Sprint(bare.Written()); a != b {
		t.Errorf("written %s and %s", a, b)
	}
	if got := nested.ForSeat(2).Apply(agent.Params{}, 1); got.Rollouts != 16 || got.CashReserve != 200 {
		t.Errorf("seat 2: %+v", got)
	}
	for _, c := range []struct {
		doc   string
		line  int
		field string
	}{
		{"all: {cash_reserve: 1}\nseats:\n  1: {cash_reserve: 2}\n  7: {cash_reserve: 3}", 4, "seats.7"},
		{"all: {cash_reserve: 1}\n\n4: {cash_reserve: 3}", 3, "4"},
	} {
		p, err := agent.ParseSeatParams("p.yaml", []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Check(8); err != nil {
			t.Errorf("%q: %v at 8 seats", c.doc, err)
		}
		err = p.Check(4)
		var e *strictyaml.Error
		if !errors.As(err, &e) || e.File != "p.yaml" || e.Line != c.line || e.Field != c.field || !strings.Contains(e.Msg, "seats go from 0 to 3") {
			t.Errorf("%q: %v, want p.yaml:%d: %s", c.doc, err, c.line, c.field)
		}
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
// value in their range, plays the same games, action for action, as with its defaults.
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
				lo, hi, _, _ := agent.ParamRange(k)
				odd += fmt.Sprintf(", %s: %g", k, min(hi, lo+7)) // unusual, and in range
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

// A spec written as YAML reads back as the same spec, values and drawn
// knobs alike: sessions store seats' knobs so.
func TestParamSpecYAMLRoundTrip(t *testing.T) {
	p, err := agent.ParseSeatParams("p.yaml", []byte("all: {cash_reserve: {mean: 200.5, std: 50}, rollouts: 16, build_reserve: 0.25e3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	text := p.All.YAML()
	back, err := agent.ParseSeatParams("back.yaml", []byte("all:\n  "+strings.ReplaceAll(strings.TrimSpace(text), "\n", "\n  ")+"\n"))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !back.All.Equal(p.All) || len(back.All.Names()) != 3 {
		t.Errorf("round trip:\n%s", text)
	}
}
