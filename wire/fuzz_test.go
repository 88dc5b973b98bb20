package wire_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// fuzzPositions returns positions of every decision kind, open and
// sealed, that fuzzed input is decoded and checked against; they are
// found once, by the first caller.
func fuzzPositions(tb testing.TB) []*monopoly.Game {
	fuzzOnce.Do(func() {
		for _, vr := range variants[:3] {
			done := map[monopoly.DecisionKind]bool{}
			positions(tb, rulesOf(tb, vr), 10, func(g *monopoly.Game, _ uint64, n int) bool {
				if k := g.Pending().Kind; !done[k] && n > 30 {
					done[k] = true
					fuzzGames = append(fuzzGames, g.Clone())
				}
				return len(done) < 8
			})
		}
	})
	return fuzzGames
}

var (
	fuzzOnce  sync.Once
	fuzzGames []*monopoly.Game
)

// checkDecoded holds a decoded action to its promises: Check refuses it
// or Apply takes it, and it encodes, decodes and formats back as itself.
func checkDecoded(t *testing.T, g *monopoly.Game, a monopoly.Action) {
	t.Helper()
	r := g.Rules()
	if err := g.Check(a); err == nil {
		if err := g.Clone().Apply(a); err != nil {
			t.Fatalf("%+v passes Check, Apply refuses it: %v", a, err)
		}
	}
	data, err := wire.EncodeAction(r, a)
	if err != nil {
		t.Fatalf("decoded %+v does not encode: %v", a, err)
	}
	back, err := wire.DecodeAction(r, a.Player, data)
	if err != nil || !sameAction(a, back) {
		t.Fatalf("%s reads back as %+v, %v; want %+v", data, back, err, a)
	}
	n := wire.Notation{Rules: r, Names: names}
	s := n.Format(a)
	parsed, err := n.Parse(a.Player, s)
	if err != nil || !sameAction(a, parsed) {
		t.Fatalf("%+v formats as %q, which reads as %+v, %v", a, s, parsed, err)
	}
}

func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{
		`{"kind":"continue"}`, `{"kind":"build","square":39}`, `{"kind":"build","square":"boardwalk"}`,
		`{"kind":"bid","amount":120,"player":0}`, `{"kind":"use_jail_card","deck":"chance"}`, `{"kind":"use_jail_card"}`,
		`{"kind":"accept_trade","limit":-50}`, `{"kind":"reject_trade"}`, `{"kind":"declare_bankruptcy"}`,
		`{"kind":"propose_trade","offer":{"to":1,"give":{"squares":[39,"Park Place"],"cash":100,"jail_cards":["chance"]},"get":{"squares":[1]}}}`,
		`{"kind":"counter_trade","offer":{"to":0,"get":{"cash":5,"jail_cards":[1]}}}`,
		`{"kind":"propose_trade","offer":{"to":1,"give":{"squares":[[[[[[[[]]]]]]]]}}}`,
		`{"kind":"bid","amount":1e999}`, `{"kind":"\u0062uy"}`, `{"kind":"buy"}  `, `{"kind":"buy"}{}`, `[`, `"\ud800"`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		ps := fuzzPositions(t)
		g := ps[int(which)%len(ps)]
		d := g.Pending()
		a, err := wire.DecodeAction(g.Rules(), d.Player, data)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%q: %T is not a *DecodeError: %v", data, err, err)
			}
			return
		}
		if a.Player != d.Player {
			t.Fatalf("decoded for seat %d as %d", d.Player, a.Player)
		}
		checkDecoded(t, g, a)
		if _, _, _, err := wire.DecodeAnswer(g.Rules(), d.Player, append(append([]byte(`{"action":`), data...), '}')); err != nil {
			t.Fatalf("%s decodes as an action, not inside an answer: %v", data, err)
		}
	})
}

func FuzzNotation(f *testing.F) {
	for _, s := range []string{
		"continue", "roll", "bid 120", "bid $5", "build boardw", `mortgage "St. Charles Place"`, "mortgage st. ch",
		"use_card chance", "accept -$50", "lift", "keep", "pass",
		`propose Cat give Boardwalk +$100 get "Park Place"`, "propose 2 give park place boardwalk, $5 jail_card chance get 1",
		`counter "Dan Lee" get $5`, `propose dan lee give "unclosed`, "propose Cat give give", "build 99999999999",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		ps := fuzzPositions(t)
		g := ps[int(which)%len(ps)]
		d := g.Pending()
		n := wire.Notation{Rules: g.Rules(), Names: names}
		a, err := n.Parse(d.Player, s)
		if err != nil {
			var de *wire.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%q: %T is not a *DecodeError: %v", s, err, err)
			}
			return
		}
		checkDecoded(t, g, a)
		if again := n.Format(a); n.Format(mustParse(t, n, d.Player, again)) != again {
			t.Fatalf("%q: the canonical form %q is not stable", s, again)
		}
	})
}

func mustParse(t *testing.T, n wire.Notation, player int, s string) monopoly.Action {
	t.Helper()
	a, err := n.Parse(player, s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return a
}
