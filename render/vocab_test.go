package render_test

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
	"github.com/gopoly/gopoly/wire/wiretest"
)

// engineWords finds what a person should never read: a code word with
// an underscore, a phase name, a package prefix, a seat counted from 0.
var engineWords = regexp.MustCompile(`\w_\w|\bphase\b|\b(?:wire|notation|agent|session|monopoly|table):|\bplayer \d|\b[Ss]eat 0\b|\b(?:before_roll|after_roll|resolve)\b`)

// Walking seeded random games under every variant, each decision kind
// (and manage in jail) is put to its seat, and no label, question,
// waiting line, board header or refusal shown to a person has an engine
// word: for its own options, for answers the rules refuse, for another
// seat's answer, and for notation that does not parse.
func TestPeopleVocabulary(t *testing.T) {
	names := []string{"Ann", "Bob", "Cat", "Dan"}
	seen := map[string]int{}
	check := func(at, what, s string) {
		t.Helper()
		if s == "" {
			t.Errorf("%s: empty %s", at, what)
		}
		if m := engineWords.FindString(s); m != "" {
			t.Errorf("%s: %s %q has the engine word %q", at, what, s, m)
		}
	}
	for _, vr := range wiretest.Variants {
		r := wiretest.RulesOf(t, vr)
		rng := rand.New(rand.NewPCG(7, 7))
		wiretest.Positions(t, r, 6, func(g *monopoly.Game, seed uint64, n int) bool {
			d := g.Pending()
			if d.Kind == monopoly.DecisionNone {
				return true
			}
			kind := d.Kind.String()
			if d.Kind == monopoly.DecisionManage && g.InJail(d.Player) && g.Phase() == monopoly.PhaseBeforeRoll {
				kind = "manage in jail"
			}
			if seen[kind] >= 40 { // enough of a kind: the walk stays quick
				return true
			}
			seen[kind]++
			at := vr.Name + " " + kind
			v := g.View(d.Player)
			snap := wire.NewSnapshot(g, d.Player, names)
			o := wire.NewOptions(v)
			labels := render.Labels(r, snap, o)
			if len(labels) != len(o.Actions) {
				t.Fatalf("%s: %d labels for %d actions", at, len(labels), len(o.Actions))
			}
			for i, l := range labels {
				check(at, "label", l)
				if slices.Contains(labels[:i], l) {
					t.Errorf("%s: two options read %q: %q", at, l, labels)
				}
			}
			q := render.DecisionIn(snap, names)
			check(at, "question", q)
			if of := render.DecisionOf(v, names); of != q {
				t.Errorf("%s: from the view the question reads %q, from the snapshot %q", at, of, q)
			}
			if kind == "manage in jail" && strings.HasPrefix(q, "Roll the dice") {
				t.Errorf("%s: in jail the question opens %q", at, q)
			}
			check(at, "waiting line", render.Waiting(snap.Decision, names))
			header, _, _ := strings.Cut(render.Text(snap), "\n\n")
			check(at, "board header", header)
			for _, a := range wiretest.Candidates(v, rng) {
				if err := g.Check(a); err != nil {
					check(at, "refusal", render.Refusal(wire.NewRefusal(err, v), snap.Decision, names))
				}
			}
			other := (d.Player + 1) % g.Players()
			if err := g.Check(monopoly.Action{Kind: monopoly.ActContinue, Player: other}); err != nil {
				check(at, "refusal of another seat", render.Refusal(wire.NewRefusal(err, g.View(other)), snap.Decision, names))
			}
			for _, typed := range []string{"asdfgh", "build", "bid lots", `buy "Boardwalk`, "accept_trade 10 20"} {
				_, err := wire.Notation{Rules: r, Names: names}.Parse(d.Player, typed)
				if err == nil {
					continue
				}
				check(at, "reply to "+typed, render.InputError(err))
				var de *wire.DecodeError
				if errors.As(err, &de) {
					check(at, "bad action refusal", render.Refusal(wire.NewRefusal(err, v), snap.Decision, names))
				}
			}
			return true
		})
	}
	for _, k := range []string{"manage", "manage in jail", "jail", "buy", "bid", "trade_response", "raise_cash", "mortgaged_transfer", "movement"} {
		if seen[k] == 0 {
			t.Errorf("no %s decision walked", k)
		}
	}
}

// The labels say what an option does and costs, in the rules' figures.
func TestLabels(t *testing.T) {
	r := monopoly.DefaultRules()
	names := []string{"Ann", "Bob"}
	g := monopoly.New(r, 2, 1)
	snap := wire.NewSnapshot(g, 0, names)
	snap.Decision = wire.Decision{Kind: monopoly.DecisionBuy, Player: 0, Square: 5, SquareName: "Reading Railroad", Amount: 200}
	for _, tc := range []struct {
		a    monopoly.Action
		want string
	}{
		{monopoly.Action{Kind: monopoly.ActPayJailFine}, "Pay the $50 fine"},
		{monopoly.Action{Kind: monopoly.ActSellBuilding, Arg: 37}, "Sell a house on Park Place (+$100)"},
		{monopoly.Action{Kind: monopoly.ActMortgage, Arg: 1}, "Mortgage Mediterranean Avenue (+$30)"},
		{monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: 1}, "Use your Get Out of Jail Free card (Community Chest)"},
		{monopoly.Action{Kind: monopoly.ActBuy}, "Buy Reading Railroad for $200"},
		{monopoly.Action{Kind: monopoly.ActContinue}, "Roll the dice"},
		{monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{To: 1, GiveCash: 50, GetSquares: 1 << 39}}, "Propose a trade to Bob: give $50 for Boardwalk"},
	} {
		if got := render.Label(r, snap, tc.a); got != tc.want {
			t.Errorf("Label(%v) = %q, want %q", tc.a.Kind, got, tc.want)
		}
	}
	sealed, err := r.WithOverrides("sealed", []byte("deal_protocol: sealed"))
	if err != nil {
		t.Fatal(err)
	}
	offer := monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{To: 1, GiveCash: 50, GiveSquares: 1 << 1, GetSquares: 1 << 39}}
	if got, want := render.Label(sealed, snap, offer), "Propose a trade to Bob: give Mediterranean Avenue for Boardwalk, paying at most $50 (sealed)"; got != want {
		t.Errorf("a sealed offer's label %q, want %q", got, want)
	}
	snap.Decision = wire.Decision{Kind: monopoly.DecisionManage, Player: 1, Phase: monopoly.PhaseAfterRoll}
	if got, want := render.Waiting(snap.Decision, names), "Waiting for Bob to decide whether to build or trade before ending the turn"; got != want {
		t.Errorf("Waiting = %q, want %q", got, want)
	}
	// The engine's particulars count seats from 0; people read names.
	ref := wire.Refusal{Code: "not_an_answer", Message: "not an answer to the pending decision (player 1 decides manage)"}
	if got, want := render.Refusal(ref, snap.Decision, names), "That is not an answer now. Waiting for Bob to decide whether to build or trade before ending the turn."; got != want {
		t.Errorf("Refusal = %q, want %q", got, want)
	}
	ref = wire.Refusal{Code: "no_counter_offer", Message: "no counter-offer: the rules allow none, or no more in this negotiation (counter_offers)"}
	if got, want := render.Refusal(ref, snap.Decision, names), "No counter-offer: the rules allow none, or no more in this negotiation"; got != want {
		t.Errorf("Refusal = %q, want %q", got, want)
	}
}
