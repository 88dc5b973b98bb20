package wire_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// decisionFixture is a golden file of one decision kind.
type decisionFixture struct {
	found
	Decision wire.Decision   `json:"decision"`
	Options  wire.Options    `json:"options"`
	Schema   json.RawMessage `json:"schema"`
}

// The decision, options and schema of a real position of each kind,
// under open, sealed and counter-offer deals.
func TestGoldenDecisions(t *testing.T) {
	pending := func(k monopoly.DecisionKind, after int, extra func(v monopoly.View, o wire.Options) bool) func(*monopoly.Game, int) bool {
		return func(g *monopoly.Game, n int) bool {
			d := g.Pending()
			if d.Kind != k || n < after {
				return false
			}
			v := g.View(d.Player)
			return extra == nil || extra(v, wire.NewOptions(v))
		}
	}
	withTrade := func(v monopoly.View, o wire.Options) bool {
		return o.Trade != nil && len(o.Trade.Give.Squares) > 0 && len(o.Actions) > 2
	}
	tests := []struct {
		file    string
		variant variant
		pred    func(*monopoly.Game, int) bool
	}{
		{"none", variants[0], func(g *monopoly.Game, _ int) bool { return g.Over() }},
		{"manage", variants[0], pending(monopoly.DecisionManage, 100, withTrade)},
		{"jail", variants[0], pending(monopoly.DecisionJail, 0, nil)},
		{"buy", variants[0], pending(monopoly.DecisionBuy, 0, nil)},
		{"bid", variants[0], pending(monopoly.DecisionBid, 0, func(v monopoly.View, o wire.Options) bool { return v.Pending().Amount > 0 })},
		{"trade_response", variants[0], pending(monopoly.DecisionTradeResponse, 0, nil)},
		{"raise_cash", variants[0], pending(monopoly.DecisionRaiseCash, 0, func(v monopoly.View, o wire.Options) bool { return o.Trade != nil })},
		{"raise_cash_purchase", variants[5], pending(monopoly.DecisionRaiseCash, 0, func(v monopoly.View, o wire.Options) bool {
			return v.DebtReason() == monopoly.ReasonPurchase
		})},
		{"mortgaged_transfer", variants[0], pending(monopoly.DecisionMortgagedTransfer, 0, nil)},
		{"movement_bus", variants[4], pending(monopoly.DecisionMovement, 0, func(v monopoly.View, o wire.Options) bool { return v.Pending().Amount > 0 })},
		{"movement_triples", variants[4], pending(monopoly.DecisionMovement, 0, func(v monopoly.View, o wire.Options) bool { return v.Pending().Amount == 0 })},
		{"manage_sealed", variants[1], pending(monopoly.DecisionManage, 100, withTrade)},
		{"trade_response_sealed", variants[1], pending(monopoly.DecisionTradeResponse, 0, func(v monopoly.View, o wire.Options) bool {
			return v.Rules() != nil && o.Accept != nil
		})},
		{"trade_response_counters", variants[2], pending(monopoly.DecisionTradeResponse, 0, func(v monopoly.View, o wire.Options) bool {
			return o.Trade != nil && v.TradeRound() > 0
		})},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f := findPosition(t, tc.variant, tc.pred)
			d := f.Game.Pending()
			viewer := d.Player
			if d.Kind == monopoly.DecisionNone {
				viewer = 0
			}
			v := f.Game.View(viewer)
			golden(t, "decisions/"+tc.file+".json", decisionFixture{found: f, Decision: wire.NewDecision(v),
				Options: wire.NewOptions(v), Schema: wire.Schema(d.Kind)})
		})
	}
}

// actionFixture is a golden file of one action kind.
type actionFixture struct {
	Rules    string          `json:"rules"`
	Player   int             `json:"player"`
	JSON     json.RawMessage `json:"json"`
	Bytes    string          `json:"bytes"` // the exact encoding, which is stable
	Notation string          `json:"notation"`
}

// An example of each action kind: its JSON and its notation, which read
// back as the action.
func TestGoldenActions(t *testing.T) {
	open := monopoly.DefaultRules()
	sealedV := variant{Name: "sealed", YAML: "deal_protocol: sealed"}
	sealed := rulesOf(t, sealedV)
	chance, _ := open.JailCardBit(0)
	offer := &monopoly.TradeOffer{From: 1, To: 2, GiveSquares: 1<<37 | 1<<39, GiveCash: 100, GiveCards: chance, GetSquares: 1<<1 | 1<<3}
	counter := &monopoly.TradeOffer{From: 1, To: 0, GiveSquares: 1 << 5, GetCash: 75}
	tests := []struct {
		file string
		r    *monopoly.Rules
		a    monopoly.Action
	}{
		{"continue", open, monopoly.Action{Kind: monopoly.ActContinue}},
		{"build", open, monopoly.Action{Kind: monopoly.ActBuild, Arg: 39}},
		{"sell_building", open, monopoly.Action{Kind: monopoly.ActSellBuilding, Arg: 37}},
		{"mortgage", open, monopoly.Action{Kind: monopoly.ActMortgage, Arg: 11}},
		{"unmortgage", open, monopoly.Action{Kind: monopoly.ActUnmortgage, Arg: 5}},
		{"propose_trade", open, monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: offer}},
		{"propose_trade_sealed", sealed, monopoly.Action{Kind: monopoly.ActProposeTrade, Offer: &monopoly.TradeOffer{From: 1, To: 3, GetSquares: 1 << 39, GiveCash: 450}}},
		{"pay_jail_fine", open, monopoly.Action{Kind: monopoly.ActPayJailFine}},
		{"use_jail_card", open, monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: 0}},
		{"use_jail_card_any", open, monopoly.Action{Kind: monopoly.ActUseJailCard, Arg: -1}},
		{"roll_for_doubles", open, monopoly.Action{Kind: monopoly.ActRollForDoubles}},
		{"buy", open, monopoly.Action{Kind: monopoly.ActBuy}},
		{"decline", open, monopoly.Action{Kind: monopoly.ActDecline}},
		{"bid", open, monopoly.Action{Kind: monopoly.ActBid, Arg: 120}},
		{"drop_out", open, monopoly.Action{Kind: monopoly.ActDropOut}},
		{"accept_trade", open, monopoly.Action{Kind: monopoly.ActAcceptTrade}},
		{"accept_trade_sealed", sealed, monopoly.Action{Kind: monopoly.ActAcceptTrade, Arg: -50}},
		{"reject_trade", open, monopoly.Action{Kind: monopoly.ActRejectTrade}},
		{"declare_bankruptcy", open, monopoly.Action{Kind: monopoly.ActDeclareBankruptcy}},
		{"keep_mortgaged", open, monopoly.Action{Kind: monopoly.ActKeepMortgaged}},
		{"lift_mortgage", open, monopoly.Action{Kind: monopoly.ActLiftMortgage}},
		{"counter_trade", open, monopoly.Action{Kind: monopoly.ActCounterTrade, Offer: counter}},
		{"move", open, monopoly.Action{Kind: monopoly.ActMove, Arg: 24}},
	}
	covered := map[monopoly.ActionKind]bool{}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tc.a.Player = 1
			covered[tc.a.Kind] = true
			data, err := wire.EncodeAction(tc.r, tc.a)
			if err != nil {
				t.Fatal(err)
			}
			n := wire.Notation{Rules: tc.r, Names: names}
			rules := ""
			if tc.r == sealed {
				rules = sealedV.YAML
			}
			golden(t, "actions/"+tc.file+".json", actionFixture{Rules: rules, Player: 1, JSON: data, Bytes: string(data), Notation: n.Format(tc.a)})
			back, err := wire.DecodeAction(tc.r, 1, data)
			if err != nil || !sameAction(back, tc.a) {
				t.Errorf("%s reads back as %+v, %v", data, back, err)
			}
			parsed, err := n.Parse(1, n.Format(tc.a))
			if err != nil || !sameAction(parsed, tc.a) {
				t.Errorf("%q reads back as %+v, %v", n.Format(tc.a), parsed, err)
			}
		})
	}
	for k := monopoly.ActContinue; k <= monopoly.ActCounterTrade; k++ {
		if !covered[k] {
			t.Errorf("no golden action of kind %s", k)
		}
	}
}

// eventFixture is a golden file of one event kind, as each viewer sees it.
type eventFixture struct {
	Variant   string          `json:"variant"`
	Seed      uint64          `json:"seed"`
	Index     int             `json:"index"`  // among the game's events
	Engine    json.RawMessage `json:"engine"` // monopoly.Event's own JSON, for comparison
	Research  wire.Event      `json:"research"`
	Player    wire.Event      `json:"player"`    // as its own player sees it
	Other     wire.Event      `json:"other"`     // as another seat sees it
	Spectator wire.Event      `json:"spectator"` // as a spectator sees it
}

// The first event of each kind in seeded random games, from every
// viewpoint; trade events also under sealed deals.
func TestGoldenEvents(t *testing.T) {
	type first struct {
		seed  uint64
		index int
		e     monopoly.Event
	}
	firsts := func(vr variant) map[monopoly.EventKind]first {
		r := rulesOf(t, vr)
		out := map[monopoly.EventKind]first{}
		for seed := uint64(1); seed <= 10 && len(out) < int(monopoly.EvSpeech); seed++ {
			gm := newGame(r, 3, seed, true)
			for gm.Step(t) {
			}
			for i, e := range gm.G.Events() {
				if _, ok := out[e.Kind]; !ok {
					out[e.Kind] = first{seed, i, e}
				}
			}
		}
		return out
	}
	write := func(file string, vr variant, f first) {
		r := rulesOf(t, vr)
		engine, err := json.Marshal(f.e)
		if err != nil {
			t.Fatal(err)
		}
		p := int(f.e.Player)
		other := (max(p, 0) + 1) % 3
		golden(t, "events/"+file+".json", eventFixture{Variant: vr.Name, Seed: f.seed, Index: f.index, Engine: engine,
			Research: wire.NewEvent(r, f.e, wire.Research, f.index), Player: wire.NewEvent(r, f.e, p, f.index),
			Other: wire.NewEvent(r, f.e, other, f.index), Spectator: wire.NewEvent(r, f.e, -1, f.index)})
	}
	open := firsts(variants[0])
	sealed := firsts(variants[1])
	speed := firsts(variants[4])
	for k := monopoly.EvNone + 1; k <= monopoly.EvSpeech; k++ {
		f, ok := open[k]
		if !ok {
			t.Errorf("no %s event in the seeded games", k)
			continue
		}
		write(k.String(), variants[0], f)
	}
	for _, k := range []monopoly.EventKind{monopoly.EvTradeProposed, monopoly.EvTradeAccepted, monopoly.EvTradeRejected} {
		write(k.String()+"_sealed", variants[1], sealed[k])
	}
	if f, ok := speed[monopoly.EvSpeedDie]; ok {
		write(monopoly.EvSpeedDie.String(), variants[4], f)
	} else {
		t.Errorf("no %s event in the seeded games under the speed die", monopoly.EvSpeedDie)
	}
}

// refusalFixture is one refusal with what caused it.
type refusalFixture struct {
	Case    string       `json:"case"`
	Refusal wire.Refusal `json:"refusal"`
}

// Refusals of each origin: broken rules, the game's end, missing dice,
// input that is not an action, anything else.
func TestGoldenRefusals(t *testing.T) {
	f := findPosition(t, variants[0], func(g *monopoly.Game, n int) bool {
		return n > 50 && g.Pending().Kind == monopoly.DecisionBid && g.Pending().Amount > 0
	})
	g := f.Game
	d := g.Pending()
	v := g.View(d.Player)
	r := g.Rules()
	over := findPosition(t, variants[0], func(g *monopoly.Game, _ int) bool { return g.Over() }).Game
	scripted := monopoly.New(r, 2, 1)
	scripted.ScriptDice(nil)
	var cases []refusalFixture
	add := func(name string, err error, v monopoly.View) {
		cases = append(cases, refusalFixture{name, wire.NewRefusal(err, v)})
	}
	add("bid too low", g.Check(monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: d.Amount}), v)
	add("bid above cash", g.Check(monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: g.Cash(d.Player) + 1}), v)
	add("not an answer", g.Check(monopoly.Action{Kind: monopoly.ActBuild, Player: d.Player, Arg: 39}), v)
	other := (d.Player + 1) % g.Players()
	add("not your decision", g.Check(monopoly.Action{Kind: monopoly.ActDropOut, Player: other}), g.View(other))
	add("game over", over.Check(monopoly.Action{Kind: monopoly.ActContinue}), over.View(0))
	add("no dice", scripted.Check(monopoly.Action{Kind: monopoly.ActContinue}), scripted.View(0))
	_, err := wire.DecodeAction(r, d.Player, []byte(`{"kind":"bid","amount":"lots"}`))
	add("bad action json", err, v)
	_, err = wire.Notation{Rules: r}.Parse(d.Player, "bid lots")
	add("bad action notation", err, v)
	add("other error", fmt.Errorf("seat %d: %w", d.Player, errors.New("the player timed out")), v)
	golden(t, "refusals.json", cases)
	want := []string{"bid_too_low", "bid_above_cash", "not_an_answer", "not_your_decision", "game_over", "no_dice", "bad_action", "bad_action", "error"}
	for i, c := range cases {
		if c.Refusal.Code != want[i] {
			t.Errorf("%s: code %q, want %q", c.Case, c.Refusal.Code, want[i])
		}
		if (c.Refusal.Options != nil) != (i < 3 || i >= 6) {
			t.Errorf("%s: options %v", c.Case, c.Refusal.Options != nil)
		}
	}
}
