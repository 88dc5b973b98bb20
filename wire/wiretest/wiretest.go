// Package wiretest plays the seeded random games the tests of wire and of
// the packages beside it (render) check their output on: players that
// reach every decision and event kind, under variants of the rules.
package wiretest

import (
	"math/rand/v2"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// Variant is a rule set the tests play under: a name and its overrides
// of the default rules.
type Variant struct {
	Name string
	YAML string
}

// Variants cover both deal protocols, counter-offers, the jackpot, the
// speed die, buying beyond the cash (raise_to_buy) and a
// round limit (so that random games end and game_over at the limit
// shows).
var Variants = []Variant{
	{"default", "max_rounds: 150"},
	{"sealed", "deal_protocol: sealed\nmax_rounds: 150"},
	{"counters", "counter_offers: 3\nmax_rounds: 150"},
	{"jackpot", "free_parking_jackpot: true\nincome_tax: lesser\nmax_rounds: 60"},
	{"speed_die", "speed_die: true\nmax_rounds: 150"},
	{"raise_to_buy", "raise_to_buy: true\nmax_rounds: 150"},
}

// RulesOf returns the rules of v.
func RulesOf(tb testing.TB, v Variant) *monopoly.Rules {
	tb.Helper()
	r, err := monopoly.DefaultRules().WithOverrides("test "+v.Name, []byte(v.YAML))
	if err != nil {
		tb.Fatalf("rules %s: %v", v.Name, err)
	}
	return r
}

// Player plays uniformly among the legal answers, with trades,
// bids and sealed limits drawn from the wire's options, so that games
// reach every decision and event kind. Now and then it talks.
type Player struct {
	rng  *rand.Rand
	talk bool
}

// NewPlayer returns the player of seed, talking now and then if talk.
func NewPlayer(seed uint64, talk bool) *Player {
	return &Player{rng: rand.New(rand.NewPCG(seed, seed^0xdecafbad)), talk: talk}
}

// Decide returns the answer of v's seat to d, and words to say with it.
func (p *Player) Decide(v monopoly.View, d monopoly.Decision) (a monopoly.Action, speech, thought string) {
	legal := v.LegalActions(nil)
	if p.talk && p.rng.IntN(40) == 0 {
		speech, thought = "Your move.", "I am bluffing."
		if p.rng.IntN(3) == 0 {
			speech = ""
		}
	}
	if a, ok := p.parametric(v, d); ok {
		return a, speech, thought
	}
	if d.Kind == monopoly.DecisionManage && p.rng.IntN(3) != 0 {
		for _, a := range legal {
			if a.Kind == monopoly.ActContinue {
				return a, speech, thought
			}
		}
	}
	return legal[p.rng.IntN(len(legal))], speech, thought
}

// parametric draws an answer the listed actions do not hold: a trade, a
// bid above the lowest, a sealed limit. It reports false when it draws
// none or the engine refuses the one drawn.
func (p *Player) parametric(v monopoly.View, d monopoly.Decision) (monopoly.Action, bool) {
	me := d.Player
	var a monopoly.Action
	switch {
	case d.Kind == monopoly.DecisionBid && p.rng.IntN(2) == 0:
		o := wire.NewOptions(v)
		if o.Bid == nil {
			return a, false
		}
		span := max(1, (o.Bid.Max-o.Bid.Min)/4)
		a = monopoly.Action{Kind: monopoly.ActBid, Player: me, Arg: o.Bid.Min + p.rng.IntN(span)}
	case d.Kind == monopoly.DecisionTradeResponse && v.Rules().DealProtocol == monopoly.DealsSealed && p.rng.IntN(2) == 0:
		a = monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: me, Arg: p.rng.IntN(400) - 200}
	case (d.Kind == monopoly.DecisionManage || d.Kind == monopoly.DecisionRaiseCash || d.Kind == monopoly.DecisionTradeResponse) && p.rng.IntN(6) == 0:
		o := wire.NewOptions(v)
		if o.Trade == nil {
			return a, false
		}
		a = monopoly.Action{Kind: o.Trade.Kind, Player: me, Offer: p.offer(o.Trade, me)}
	default:
		return a, false
	}
	return a, v.Check(a) == nil
}

// offer draws a trade from the options: a partner, a few squares each
// way, some cash and now and then a jail card.
func (p *Player) offer(t *wire.TradeOptions, me int) *monopoly.TradeOffer {
	partner := t.Partners[p.rng.IntN(len(t.Partners))]
	o := &monopoly.TradeOffer{From: int8(me), To: int8(partner.Seat)}
	pick := func(squares []int) uint64 {
		var m uint64
		for range p.rng.IntN(3) {
			if len(squares) > 0 {
				m |= 1 << squares[p.rng.IntN(len(squares))]
			}
		}
		return m
	}
	o.GiveSquares = pick(t.Give.Squares)
	o.GetSquares = pick(partner.Get.Squares) &^ o.GiveSquares
	cash := func(limit int) int64 {
		if limit <= 0 || p.rng.IntN(2) == 0 {
			return 0
		}
		return int64(1 + p.rng.IntN(min(limit, 300)))
	}
	if p.rng.IntN(2) == 0 {
		o.GiveCash = cash(t.Give.MaxCash)
	} else {
		o.GetCash = cash(partner.Get.MaxCash)
	}
	if len(t.Give.JailCards) > 0 && p.rng.IntN(4) == 0 {
		d := DeckOf(t.Give.JailCards[0])
		o.GiveCards = jailBit(d)
	}
	return o
}

// DeckOf and jailBit map the default decks' names to their card bits.
func DeckOf(name string) int {
	d, ok := monopoly.DefaultRules().DeckIndex(name)
	if !ok {
		return -1
	}
	return d
}

func jailBit(d int) uint8 {
	b, _ := monopoly.DefaultRules().JailCardBit(d)
	return b
}

// Game is one seeded game under a variant, played by random players.
type Game struct {
	G       *monopoly.Game
	Players []*Player
	N       int // decisions played
}

// NewGame starts the game of seed under r, recording its events, with
// a random player in each seat.
func NewGame(r *monopoly.Rules, players int, seed uint64, talk bool) *Game {
	gm := &Game{G: monopoly.New(r, players, seed)}
	gm.G.Record(true)
	for s := range players {
		gm.Players = append(gm.Players, NewPlayer(seed*31+uint64(s), talk))
	}
	return gm
}

// Step plays one decision; it reports false once the game is over.
func (gm *Game) Step(tb testing.TB) bool {
	tb.Helper()
	if gm.G.Over() {
		return false
	}
	d := gm.G.Pending()
	a, speech, thought := gm.Players[d.Player].Decide(gm.G.View(d.Player), d)
	gm.G.Say(d.Player, speech, thought)
	if err := gm.G.Apply(a); err != nil {
		tb.Fatalf("decision %d: %v", gm.N, err)
	}
	gm.N++
	return true
}

// Positions plays seeded random games under r and calls visit at every
// decision until visit returns false or the games run out.
func Positions(tb testing.TB, r *monopoly.Rules, games int, visit func(g *monopoly.Game, seed uint64, n int) bool) {
	tb.Helper()
	for seed := uint64(1); seed <= uint64(games); seed++ {
		gm := NewGame(r, 2+int(seed%3), seed, true)
		for !gm.G.Over() {
			if !visit(gm.G, seed, gm.N) {
				return
			}
			gm.Step(tb)
		}
		if !visit(gm.G, seed, gm.N) {
			return
		}
	}
}

// Candidates are answers to try in a position: the listed legal ones,
// and drawn parametric ones, legal or not.
func Candidates(v monopoly.View, rng *rand.Rand) []monopoly.Action {
	d := v.Pending()
	if d.Kind == monopoly.DecisionNone {
		return nil
	}
	acts := v.LegalActions(nil)
	p := &Player{rng: rng}
	o := wire.NewOptions(v)
	if o.Trade != nil {
		for range 3 {
			acts = append(acts, monopoly.Action{Kind: o.Trade.Kind, Player: d.Player, Offer: p.offer(o.Trade, d.Player)})
		}
	}
	if o.Bid != nil {
		acts = append(acts, monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: o.Bid.Max})
	}
	if o.Accept != nil {
		acts = append(acts, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: d.Player, Arg: o.Accept.Min},
			monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: d.Player, Arg: -17})
	}
	return acts
}

// Found is a position reached by seeded random play, with what makes
// it again (the fixtures written from it show these).
type Found struct {
	Variant   string         `json:"variant"`
	Rules     string         `json:"rules"` // the overrides of the default rules
	Seed      uint64         `json:"seed"`
	Decisions int            `json:"decisions"` // decisions played before it
	Game      *monopoly.Game `json:"-"`
}

// FindPosition plays the seeded random games of a variant until pred
// holds, and returns that position.
func FindPosition(t testing.TB, vr Variant, pred func(g *monopoly.Game, n int) bool) Found {
	t.Helper()
	var f Found
	Positions(t, RulesOf(t, vr), 30, func(g *monopoly.Game, seed uint64, n int) bool {
		if pred(g, n) {
			f = Found{Variant: vr.Name, Rules: vr.YAML, Seed: seed, Decisions: n, Game: g.Clone()}
			return false
		}
		return true
	})
	if f.Game == nil {
		t.Fatalf("%s: no position found", vr.Name)
	}
	return f
}

// TradePosition is a manage decision in mid-game whose seat may trade:
// the richest options there are, for benchmarks.
func TradePosition(tb testing.TB) *monopoly.Game {
	tb.Helper()
	return FindPosition(tb, Variants[0], func(g *monopoly.Game, n int) bool {
		d := g.Pending()
		if d.Kind != monopoly.DecisionManage || n < 100 {
			return false
		}
		o := wire.NewOptions(g.View(d.Player))
		return o.Trade != nil && len(o.Trade.Give.Squares) > 2 && len(o.Actions) > 3
	}).Game
}
