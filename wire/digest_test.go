package wire_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // registers baseline
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// perft pins whole games: a seeded game played to its end by the
// baseline bot or by the tests' random player, with the number of
// decisions, of events and the digest of every event. Any change to the
// engine's rules, its event fields, the bots or the digest shows here; a
// deliberate one is recorded by pasting the line the failure prints.
var perft = []struct {
	variant   string
	players   int
	seed      uint64
	bot       string // "baseline" or "random"
	decisions int
	events    int
	digest    string
}{
	{"default", 4, 1, "baseline", 1099, 2323, "d48b85f0b1d433a8d30605250890fb962a1ceed96f28adb61fda40bdc53304e7"},
	{"default", 4, 2, "baseline", 872, 1903, "0d4c93473061693ba188240172768ecce5ad43287d4e11c274f70e1544256e4a"},
	{"default", 2, 3, "baseline", 510, 1033, "42b0002ce96872caf5b72e9a6d2e6e9cbc6729b39b6ca6a243b22d4c6ad7fd58"},
	{"sealed", 4, 4, "baseline", 876, 1950, "499d43592aa4d4a7a9bbe9a92a7dcbc8b8fcfb727329d77b0bcb518df9d8e020"},
	{"counters", 3, 5, "baseline", 684, 1299, "a505c60a7b08a9ad052d2dc5b87547631948d6bbe9b402164aabea4ce7007ffa"},
	{"jackpot", 4, 6, "baseline", 668, 1496, "4470c92da579d2b454f9393917a9cb15c1d3e3f8ea76866b93269f145e0fca52"},
	{"default", 3, 1, "random", 735, 1282, "3e341550b457d12f1a940dff5994886d0887bee47336a2ec6a17b126c3fe0492"},
	{"sealed", 4, 2, "random", 2611, 4826, "ceb645d61e31a7c97634066e4d03fcd2f2f3f27ae38709caaf5182260babd626"},
	{"counters", 2, 3, "random", 814, 1440, "5fa6d2eab7011a364920646f4e3b56fd5d0f6174da24098c7709dcaa79be1b39"},
	{"jackpot", 4, 4, "random", 1246, 2211, "134d8fca0493c0960f42cd6b80b5deefbd391d4cc09074d4d80a9126938b53cb"},
}

// playPerft plays one perft game and returns its counts and digest.
func playPerft(t *testing.T, variant string, players int, seed uint64, bot string) (int, int, string) {
	t.Helper()
	r := rulesOf(t, variantNamed(variant))
	g := monopoly.New(r, players, seed)
	g.Record(true)
	var bots []agent.Agent
	var randoms []*randomPlayer
	for s := range players {
		if bot == "random" {
			randoms = append(randoms, newRandomPlayer(seed*31+uint64(s), true))
			continue
		}
		a, err := agent.New(bot, s, seed*31+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, a)
	}
	d := wire.NewDigest()
	decisions, events := 0, 0
	for !g.Over() && decisions < 200000 {
		p := g.Pending()
		var a monopoly.Action
		if bot == "random" {
			var speech, thought string
			a, speech, thought = randoms[p.Player].Decide(g.View(p.Player), p)
			g.Say(p.Player, speech, thought)
		} else {
			a = bots[p.Player].Decide(g.View(p.Player), p)
		}
		if err := g.Apply(a); err != nil {
			t.Fatalf("decision %d: %v", decisions, err)
		}
		decisions++
		for _, e := range g.TakeEvents() {
			d.Add(e)
			events++
		}
	}
	if d.Count() != events {
		t.Fatalf("digest counted %d events of %d", d.Count(), events)
	}
	return decisions, events, d.Sum()
}

func TestPerft(t *testing.T) {
	if len(perft) == 0 {
		t.Fatal("the perft table is empty")
	}
	for _, p := range perft {
		name := fmt.Sprintf("%s/%s/%dp/seed%d", p.bot, p.variant, p.players, p.seed)
		t.Run(name, func(t *testing.T) {
			decisions, events, digest := playPerft(t, p.variant, p.players, p.seed, p.bot)
			if decisions != p.decisions || events != p.events || digest != p.digest {
				t.Errorf("got %d decisions, %d events, digest %s; pinned %d, %d, %s.\n"+
					"If the engine, the bots or the digest changed on purpose, replace the line in perft (wire/digest_test.go) with\n"+
					"\t{%q, %d, %d, %q, %d, %d, %q},",
					decisions, events, digest, p.decisions, p.events, p.digest,
					p.variant, p.players, p.seed, p.bot, decisions, events, digest)
			}
		})
	}
}

// Every field of an event, words included, changes the digest, and so
// does the order of events; Sum leaves the digest as it was.
func TestDigestFields(t *testing.T) {
	base := monopoly.Event{Kind: monopoly.EvTradeProposed, Player: 1, Other: 2, Square: 3, Deck: 1, Card: 4,
		Reason: monopoly.ReasonRent, Dice: [2]int8{3, 4}, Amount: 50,
		Trade:  monopoly.TradeOffer{From: 1, To: 2, GiveSquares: 8, GetSquares: 16, GiveCash: 5, GetCash: 6, GiveCards: 1, GetCards: 2},
		Speech: "hello", Thought: "secret"}
	sum := func(events ...monopoly.Event) string {
		d := wire.NewDigest()
		for _, e := range events {
			d.Add(e)
		}
		return d.Sum()
	}
	edits := map[string]func(e *monopoly.Event){
		"kind": func(e *monopoly.Event) { e.Kind++ }, "player": func(e *monopoly.Event) { e.Player++ },
		"other": func(e *monopoly.Event) { e.Other++ }, "square": func(e *monopoly.Event) { e.Square++ },
		"deck": func(e *monopoly.Event) { e.Deck++ }, "card": func(e *monopoly.Event) { e.Card++ },
		"flag": func(e *monopoly.Event) { e.Flag = true }, "reason": func(e *monopoly.Event) { e.Reason++ },
		"dice0": func(e *monopoly.Event) { e.Dice[0]++ }, "dice1": func(e *monopoly.Event) { e.Dice[1]++ },
		"amount": func(e *monopoly.Event) { e.Amount += 1 << 40 }, "from": func(e *monopoly.Event) { e.Trade.From++ },
		"to": func(e *monopoly.Event) { e.Trade.To++ }, "give_squares": func(e *monopoly.Event) { e.Trade.GiveSquares |= 1 << 60 },
		"get_squares": func(e *monopoly.Event) { e.Trade.GetSquares++ }, "give_cash": func(e *monopoly.Event) { e.Trade.GiveCash++ },
		"get_cash": func(e *monopoly.Event) { e.Trade.GetCash++ }, "give_cards": func(e *monopoly.Event) { e.Trade.GiveCards++ },
		"get_cards": func(e *monopoly.Event) { e.Trade.GetCards++ }, "speech": func(e *monopoly.Event) { e.Speech += "!" },
		"thought": func(e *monopoly.Event) { e.Thought = "" },
		// The words' lengths are hashed: moving text between them shows.
		"words": func(e *monopoly.Event) { e.Speech, e.Thought = "hellos", "ecret" },
	}
	want := sum(base)
	seen := map[string]string{want: "base"}
	for name, edit := range edits {
		e := base
		edit(&e)
		got := sum(e)
		if prev, dup := seen[got]; dup {
			t.Errorf("%s: same digest as %s", name, prev)
		}
		seen[got] = name
	}
	other := base
	other.Kind = monopoly.EvRoll
	if sum(base, other) == sum(other, base) {
		t.Error("the order of events does not change the digest")
	}
	if sum() == sum(monopoly.Event{}) {
		t.Error("an empty event does not change the digest")
	}
	d := wire.NewDigest()
	d.Add(base)
	first := d.Sum()
	if d.Sum() != first || first != want {
		t.Error("Sum changed the digest")
	}
	d.Add(other)
	if d.Sum() != sum(base, other) || d.Count() != 2 {
		t.Error("adding after Sum does not go on from where it stood")
	}
	if n := testing.AllocsPerRun(100, func() { d.Add(base) }); n != 0 {
		t.Errorf("Add allocates %v times", n)
	}
}

// The digest hashes every field of an event: a field the engine adds
// must be added to Digest.Add (and digestVersion raised).
func TestDigestCoversEvent(t *testing.T) {
	for _, tc := range []struct {
		typ    reflect.Type
		fields int
	}{
		{reflect.TypeFor[monopoly.Event](), 13},
		{reflect.TypeFor[monopoly.TradeOffer](), 8},
	} {
		if n := tc.typ.NumField(); n != tc.fields {
			t.Errorf("%s has %d fields, the digest hashes %d: add the new ones to Digest.Add", tc.typ, n, tc.fields)
		}
	}
}
