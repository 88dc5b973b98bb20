package personality

import (
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// thoughtOnly topics have no public line: holding back is private.
var thoughtOnly = map[topic]bool{topicHoldCash: true, topicHoldROI: true, topicHoldMood: true}

// needs lists, per topic, the placeholders of which every thought must
// quote one: the numbers (or the property) the decision is about.
var needs = map[topic][]string{
	topicBuy: {"{price}"}, topicBuyComplete: {"{price}"}, topicBuyBlock: {"{price}"},
	topicDeclineCash: {"{price}"}, topicDeclineTaste: {"{price}"}, topicDeclineMood: {"{price}"},
	topicBid: {"{amount}"}, topicDropOut: {"{high}"}, topicSitOut: {"{sq}"},
	topicJailRoll: {"{cash}"}, topicJailPay: {"{fine}"}, topicJailCard: {"{fine}", "{cash}"},
	topicBuild: {"{amount}"}, topicHotel: {"{amount}"}, topicMortgageToBuild: {"{amount}"}, topicUnmortgage: {"{amount}"},
	topicProposeComplete: {"{get}"}, topicProposeSwap: {"{get}"}, topicProposeProspect: {"{get}"}, topicProposeRail: {"{get}"},
	topicProposeSell: {"{get}"}, topicSale: {"{debt}"}, topicAccept: {"{get}", "{give}"}, topicReject: {"{get}", "{give}"}, topicRejectCash: {"{after}"},
	topicCounter: {"{get}"}, topicProposeSealed: {"{sealed}"}, topicSealedLimit: {"{sealed}"},
	topicRaiseMortgage: {"{debt}"}, topicRaiseSell: {"{debt}"}, topicBankrupt: {"{debt}"},
	topicKeepMortgaged: {"{amount}"}, topicLiftMortgaged: {"{amount}"},
	topicHoldCash: {"{amount}", "{cash}"}, topicHoldROI: {"{roi}"}, topicHoldMood: {"{amount}", "{group}"},
	topicChatter: {"{cash}", "{props}"},
}

// sayNeeds lists what every public line must quote, for the
// personalities that are not terse.
var sayNeeds = map[topic][]string{
	topicBuy: {"{price}"}, topicBuyComplete: {"{price}"}, topicBuyBlock: {"{price}"},
	topicBuild: {"{sq}"}, topicBid: {"{amount}"},
}

// pitches must describe the deal: both sides, in every voice.
var pitches = []topic{topicProposeComplete, topicProposeSwap, topicProposeProspect, topicProposeRail,
	topicProposeSell, topicSale, topicCounter, topicProposeSealed}

func containsAny(s string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// Every personality has lines on every topic, several to vary, quoting
// what the decision is about, with only placeholders the filler knows.
func TestLines(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 4, 1)
	v := g.View(0)
	for _, prof := range Profiles() {
		pl := New(prof, prof.Defaults, 0, 1)
		pl.setRules(v.Rules())
		pl.why = facts{sq: 1, group: 0, partner: 1}
		for tp := topicNone + 1; tp < numTopics; tp++ {
			set := prof.lines[tp]
			if len(set.think) < 2 {
				t.Errorf("%s, %s: %d thoughts, want at least 2", prof.Name, tp, len(set.think))
			}
			switch {
			case thoughtOnly[tp] && len(set.say) > 0:
				t.Errorf("%s, %s: holding back is private, but it has lines to say", prof.Name, tp)
			case !thoughtOnly[tp] && len(set.say) == 0:
				t.Errorf("%s, %s: nothing to say", prof.Name, tp)
			}
			need, ok := needs[tp]
			if !ok {
				t.Errorf("%s: no required placeholders listed", tp)
			}
			for _, th := range set.think {
				if !containsAny(th, need) {
					t.Errorf("%s, %s: thought %q quotes none of %v", prof.Name, tp, th, need)
				}
			}
			for _, sp := range set.say {
				if n := sayNeeds[tp]; n != nil && prof != Turtle && !containsAny(sp, n) {
					t.Errorf("%s, %s: line %q quotes none of %v", prof.Name, tp, sp, n)
				}
			}
			for _, line := range append(append([]string(nil), set.say...), set.think...) {
				if out := pl.fill(v, line); strings.ContainsAny(out, "{}") {
					t.Errorf("%s, %s: %q has an unknown placeholder: %q", prof.Name, tp, line, out)
				}
			}
		}
		for _, tp := range pitches {
			for _, sp := range prof.lines[tp].say {
				if !strings.Contains(sp, "{give}") || !strings.Contains(sp, "{get}") {
					t.Errorf("%s, %s: pitch %q does not say what each side gives", prof.Name, tp, sp)
				}
			}
		}
	}
}

// Money is written as the table says it.
func TestMoney(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "$0"}, {60, "$60"}, {999, "$999"}, {1000, "$1,000"}, {1380, "$1,380"}, {1234567, "$1,234,567"}, {-250, "-$250"}} {
		if got := money(c.n); got != c.want {
			t.Errorf("money(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// The words read as a person would say them: what was built in words,
// counts in the right number, and a sentence that opens on a placeholder
// capitalised.
func TestFillReads(t *testing.T) {
	r := monopoly.DefaultRules()
	ps := []monopoly.PlayerSetup{{Cash: 1500}, {Cash: 1500}}
	g, err := monopoly.NewFromSetup(r, monopoly.Setup{Players: ps, HouseSupply: -1, HotelSupply: -1,
		Properties: []monopoly.PropertySetup{{Square: 1, Owner: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(0)
	pl := New(Hustler, Hustler.Defaults, 0, 1)
	pl.setRules(r)
	for _, c := range []struct {
		level      int
		tmpl, want string
	}{
		{1, "Surprise! {houses} on {sq}! Didn't see THAT coming?", "Surprise! A house on Mediterranean Avenue! Didn't see THAT coming?"},
		{2, "I'll build {houses} on {sq}.", "I'll build a second house on Mediterranean Avenue."},
		{4, "Above the hurdle. {houses} on {sq}.", "Above the hurdle. A fourth house on Mediterranean Avenue."},
		{5, "{houses}. Rent? Big.", "A hotel. Rent? Big."},
		{1, "I've got {props} and {opp}. {unowned} still unowned.", "I've got 1 property and 1 opponent. 1 property still unowned."},
		{3, "Only {unowned} unowned.", "Only 3 properties unowned."},
	} {
		pl.why = facts{sq: 1, group: 0, level: c.level}
		if got := pl.fill(v, c.tmpl); got != c.want {
			t.Errorf("level %d, %q:\n got %q\nwant %q", c.level, c.tmpl, got, c.want)
		}
	}
}
