package wire_test

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// variant is a rule set the tests play under.
type variant struct {
	name string
	yaml string
}

// variants cover both deal protocols, counter-offers, the jackpot and a
// round limit (so that random games end and game_over at the limit
// shows).
var variants = []variant{
	{"default", "max_rounds: 150"},
	{"sealed", "deal_protocol: sealed\nmax_rounds: 150"},
	{"counters", "counter_offers: 3\nmax_rounds: 150"},
	{"jackpot", "free_parking_jackpot: true\nincome_tax: lesser\nmax_rounds: 60"},
	{"speed_die", "speed_die: true\nmax_rounds: 150"},
}

func rulesOf(tb testing.TB, v variant) *monopoly.Rules {
	tb.Helper()
	r, err := monopoly.DefaultRules().WithOverrides("test "+v.name, []byte(v.yaml))
	if err != nil {
		tb.Fatalf("rules %s: %v", v.name, err)
	}
	return r
}

// randomPlayer plays uniformly among the legal answers, with trades,
// bids and sealed limits drawn from the wire's options, so that games
// reach every decision and event kind. Now and then it talks.
type randomPlayer struct {
	rng  *rand.Rand
	talk bool
}

func newRandomPlayer(seed uint64, talk bool) *randomPlayer {
	return &randomPlayer{rng: rand.New(rand.NewPCG(seed, seed^0xdecafbad)), talk: talk}
}

// decide returns the answer of v's seat to d, and words to say with it.
func (p *randomPlayer) decide(v monopoly.View, d monopoly.Decision) (a monopoly.Action, speech, thought string) {
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
func (p *randomPlayer) parametric(v monopoly.View, d monopoly.Decision) (monopoly.Action, bool) {
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
func (p *randomPlayer) offer(t *wire.TradeOptions, me int) *monopoly.TradeOffer {
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
		d := deckOf(t.Give.JailCards[0])
		o.GiveCards = jailBit(d)
	}
	return o
}

// deckOf and jailBit map the default decks' names to their card bits.
func deckOf(name string) int {
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

// game is one seeded game under a variant, played by random players.
type game struct {
	g       *monopoly.Game
	players []*randomPlayer
	n       int // decisions played
}

func newGame(r *monopoly.Rules, players int, seed uint64, talk bool) *game {
	gm := &game{g: monopoly.New(r, players, seed)}
	gm.g.Record(true)
	for s := range players {
		gm.players = append(gm.players, newRandomPlayer(seed*31+uint64(s), talk))
	}
	return gm
}

// step plays one decision; it reports false once the game is over.
func (gm *game) step(tb testing.TB) bool {
	tb.Helper()
	if gm.g.Over() {
		return false
	}
	d := gm.g.Pending()
	a, speech, thought := gm.players[d.Player].decide(gm.g.View(d.Player), d)
	gm.g.Say(d.Player, speech, thought)
	if err := gm.g.Apply(a); err != nil {
		tb.Fatalf("decision %d: %v", gm.n, err)
	}
	gm.n++
	return true
}

// positions plays seeded random games under r and calls visit at every
// decision until visit returns false or the games run out.
func positions(tb testing.TB, r *monopoly.Rules, games int, visit func(g *monopoly.Game, seed uint64, n int) bool) {
	tb.Helper()
	for seed := uint64(1); seed <= uint64(games); seed++ {
		gm := newGame(r, 2+int(seed%3), seed, true)
		for !gm.g.Over() {
			if !visit(gm.g, seed, gm.n) {
				return
			}
			gm.step(tb)
		}
		if !visit(gm.g, seed, gm.n) {
			return
		}
	}
}

// candidates are answers to try in a position: the listed legal ones,
// and drawn parametric ones, legal or not.
func candidates(v monopoly.View, rng *rand.Rand) []monopoly.Action {
	d := v.Pending()
	if d.Kind == monopoly.DecisionNone {
		return nil
	}
	acts := v.LegalActions(nil)
	p := &randomPlayer{rng: rng}
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

// sameAction compares actions by value, offers by what they hold.
func sameAction(a, b monopoly.Action) bool {
	if (a.Offer == nil) != (b.Offer == nil) {
		return false
	}
	if a.Offer != nil && *a.Offer != *b.Offer {
		return false
	}
	a.Offer, b.Offer = nil, nil
	return a == b
}

// golden compares got, as indented JSON, with testdata/name, or writes
// it there under -update.
func golden(t *testing.T, name string, got any) {
	t.Helper()
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./wire -update to write it)", err)
	}
	if string(want) != string(data) {
		t.Errorf("%s differs from the golden file; if the change is meant, run go test ./wire -update and review the diff\ngot:\n%s", path, data)
	}
}
