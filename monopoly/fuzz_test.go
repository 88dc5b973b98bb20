package monopoly_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
)

// fuzzRules are the variants with a short round limit, made once.
var fuzzRules = sync.OnceValue(func() []*monopoly.Rules {
	var rs []*monopoly.Rules
	for _, v := range variants {
		r, err := monopoly.DefaultRules().WithOverrides("fuzz", []byte(v.yaml+"\nmax_rounds: 40"))
		if err != nil {
			panic(err)
		}
		rs = append(rs, r)
	}
	return rs
})

// maxFuzzSteps bounds the actions of one fuzz input.
const maxFuzzSteps = 1500

// FuzzApply starts a game from a seed and a setup byte (variant, players,
// agents) and feeds it actions decoded from data: the agents' moves, any
// legal action, arbitrary actions of any kind by any player with any
// square, amount, deck and trade offer, certainly illegal ones, and runs
// of agent moves so that games progress. After every call the checker
// verifies that a refusal changed nothing and that every invariant holds.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{})
	f.Add(uint64(2), uint8(9), []byte("\x07\x3f\x07\x3f\x04\x05\x06\x03\x07\x3f\x00\x01\x02"))
	f.Add(uint64(3), uint8(27), []byte("\x07\xff\x07\xff\x07\xff\x06\x11\x22\x33\x44\x55\x66\x77\x88\x99\x07\xff"))
	f.Add(uint64(4), uint8(46), []byte(strings.Repeat("\x07\x30\x04\x10\x20\x30\x40\x50\x05\x01\x02", 40)))
	f.Add(uint64(5), uint8(13), []byte(strings.Repeat("\x03\x01\x06\x02\x00\x05\x07\x08\x05\x03", 60)))
	f.Add(uint64(6), uint8(34), []byte(strings.Repeat("\x07\x3f\x06\x00\x01\x02\x03\x04\x05\x06\x07", 30)))
	f.Add(uint64(7), uint8(6), []byte(strings.Repeat("\x07\x3f\x05\x09\x05\x02\x05\x07\x04\x01\x01\x10", 50)))
	rules := fuzzRules()
	f.Fuzz(func(t *testing.T, seed uint64, setup uint8, data []byte) {
		r := rules[int(setup)%len(rules)]
		players := 2 + int(setup)/len(rules)%5
		mix := seatMixes[int(setup)/len(rules)/5%len(seatMixes)]
		g := monopoly.New(r, players, seed)
		g.Record(true)
		g.TakeEvents()
		c := newChecker(g)
		as := seatAgents(mix, players, seed)
		s := &byteSrc{data: data}
		step := func(a monopoly.Action) {
			if _, err := c.try(g, a); err != nil {
				t.Fatalf("seed %d, setup %d, byte %d: %v", seed, setup, s.pos, err)
			}
		}
		for n := 0; s.left() && n < maxFuzzSteps && !g.Over(); n++ {
			switch op := s.byte(); op % 8 {
			case 0, 1: // the agent's move
				step(decide(g, as))
			case 2: // any legal action, bids of any legal amount
				legal := g.LegalActions(nil)
				a := legal[s.Intn(len(legal))]
				if d := g.Pending(); a.Kind == monopoly.ActBid {
					a.Arg = d.Amount + 1 + s.Intn(g.Cash(d.Player)-d.Amount)
				}
				step(a)
			case 3: // a trade offer by the pending player, plausible or not
				p := g.Pending().Player
				o := arbitraryOffer(s, g, p)
				step(monopoly.Action{Kind: monopoly.ActProposeTrade, Player: p, Offer: &o})
			case 4: // anything at all
				step(arbitraryAction(s, g, true))
			case 5: // something the rules forbid
				if a, why, ok := illegalAction(s, g); ok {
					if err := c.tryIllegal(g, a, why); err != nil {
						t.Fatalf("seed %d, setup %d, byte %d: %v", seed, setup, s.pos, err)
					}
				}
			default: // a run of the agents' moves
				for k := s.Intn(64); k >= 0 && !g.Over(); k-- {
					step(decide(g, as))
					n++
				}
			}
		}
	})
}

// quote writes s as a double-quoted string that is valid both as JSON
// and as YAML: what either forbids raw (control characters, DEL, C1
// controls, line and paragraph separators, invalid UTF-8) is escaped.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r) // invalid UTF-8 arrives as U+FFFD
		}
	}
	b.WriteByte('"')
	return b.String()
}

// cardDoc is a rules document whose decks hold a card running dsl, at
// line 4 (decks[0].cards[0]) and line 10 (decks[1].cards[0]).
func cardDoc(dsl string) []byte {
	q := quote(dsl)
	return fmt.Appendf(nil, `decks:
  - name: chance
    cards:
      - {id: fuzzed, do: %s}
      - {id: jail-free, do: KEEP}
      - {id: fine, do: PAY 15}
      - {id: back, do: TRANSLATE -3}
  - name: community_chest
    cards:
      - {id: fuzzed-too, do: %s}
      - {id: jail-free, do: KEEP}
      - {id: refund, do: RECEIVE 20}
`, q, q)
}

// cardDocFields are the fields of cardDoc's fuzzed cards, with their lines.
var cardDocFields = map[string]int{"decks[0].cards[0].do": 4, "decks[1].cards[0].do": 10}

// squareDoc is the default board as one JSON line with Free Parking
// (board[20]) running dsl.
func squareDoc(dsl string) []byte {
	return []byte(strings.Replace(defaultBoardJSON(), `"do":"JACKPOT"`, `"do":`+quote(dsl), 1))
}

// defaultBoardJSON is {"board": [...]} of the default rules, on one line.
var defaultBoardJSON = sync.OnceValue(func() string {
	data, err := json.Marshal(monopoly.DefaultRules())
	if err != nil {
		panic(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		panic(err)
	}
	if !strings.Contains(string(m["board"]), `"do":"JACKPOT"`) {
		panic("the default Free Parking does not run JACKPOT")
	}
	return `{"board":` + string(m["board"]) + "}"
})

const embeddedRules = "rules.yaml (embedded)"

// checkConfigError checks that err is a *ConfigError naming file (or the
// embedded defaults, for a default the document broke), with a line and
// a field, or a YAML syntax error (or a document that is not a mapping,
// or a key with no name) with a line.
func checkConfigError(err error, file string) error {
	var ce *monopoly.ConfigError
	if !errors.As(err, &ce) {
		return fmt.Errorf("error %v (%T) is not a *ConfigError", err, err)
	}
	msg := err.Error()
	switch {
	case ce.File != file && ce.File != embeddedRules:
		return fmt.Errorf("error names file %q, want %q: %v", ce.File, file, err)
	case ce.Field == "" && !strings.HasPrefix(ce.Msg, "invalid YAML") && !strings.HasPrefix(ce.Msg, "want a mapping") &&
		!strings.HasPrefix(ce.Msg, `unknown key ""`):
		return fmt.Errorf("error names no field: %v", err)
	case ce.Line <= 0:
		return fmt.Errorf("error has no line: %v", err)
	case ce.Msg == "" || !strings.Contains(msg, ce.File) || (ce.Field != "" && !strings.Contains(msg, ce.Field)):
		return fmt.Errorf("error message %q does not show file, field and problem", msg)
	}
	return nil
}

// watchdog is how long a short game may take before the engine is
// deemed not to return (a rules program that loops). A short game takes
// about a millisecond.
const watchdog = 5 * time.Second

// playBrief plays a short random game under r with every check, and
// reports a panic or an engine that never returns as errors.
func playBrief(r *monopoly.Rules, seed uint64, players int) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		g := monopoly.New(r, players, seed)
		g.Record(true)
		g.TakeEvents()
		c := newChecker(g)
		if err := checkState(g); err != nil {
			done <- fmt.Errorf("at the start: %v", err)
			return
		}
		as := seatAgents([]string{"chaos", "random"}, players, seed)
		for n := 0; n < 300 && !g.Over(); n++ {
			if applied, err := c.try(g, decide(g, as)); err != nil || !applied {
				done <- fmt.Errorf("step %d (applied %v): %v", n, applied, err)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(watchdog):
		return fmt.Errorf("the engine did not return within %v: a rules program loops without end", watchdog)
	}
}

// FuzzRules feeds arbitrary documents to ParseRules and arbitrary DSL
// programs to a card and to a board square. Every outcome must be a
// precise *ConfigError, or rules that play a short game with every
// invariant standing.
func FuzzRules(f *testing.F) {
	for _, c := range []struct{ doc, dsl string }{
		{"", "PAY 50"},
		{"max_rounds: 10", `ADVANCE_TO "Boardwalk"`},
		{"{}", "ADVANCE_TO NEAREST railroad RENT x2"},
		{"starting_cash: abc", "ADVANCE_TO NEAREST utility RENT DICE x10"},
		{"{}", "ADVANCE_TO NEXT unowned OR NEXT rent_owed RENT x2"},
		{"foo: 1", "TAX 200 OR 10%"},
		{"income_tax: progressive", "KEEP"},
		{"jail_fine: -5", "DRAW chance"},
		{"board: 3", "TRANSLATE 0"},
		{"board: []", `ADVANCE_TO "Nowhere"`},
		{"groups: [{name: Brown, house_cost: 0}]", "PAY -5"},
		{"decks: [{name: chance, cards: []}]", "ADVANCE_TO 5 RENT"},
		{"auctions: yes", "REPAIRS 25 100; PAY 10 EACH; RECEIVE 10 EACH"},
		{"free_parking_jackpot: true\nincome_tax: lesser", "JACKPOT; GO_TO_JAIL"},
		{"max_houses: 3\nmax_hotels: 1", "TRANSLATE -3;"},
		{"\tbad: [", `ADVANCE_TO "GO`},
		{"railroad_rent: [1, -2]", "TAX 100 OR 0%"},
		{"utility_multiplier: []", "RECEIVE 20 EACH ; ;"},
		{"trades_per_phase: 0\nmortgage_interest_percent: 0", "ADVANCE_TO 99"},
	} {
		for where := range uint8(2) {
			f.Add([]byte(c.doc), c.dsl, where)
		}
	}
	if data, err := json.Marshal(monopoly.DefaultRules()); err == nil {
		f.Add(data, "PAY 1", uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, dsl string, where uint8) {
		r, err := monopoly.ParseRules("fuzz.yaml", data)
		if err != nil {
			if bad := checkConfigError(err, "fuzz.yaml"); bad != nil {
				t.Fatalf("ParseRules(%q): %v", data, bad)
			}
		} else if err := playBrief(r, uint64(where), 2+int(where)%3); err != nil {
			t.Fatalf("rules %q: %v", data, err)
		}

		if utf8.ValidString(dsl) {
			var back string
			if err := json.Unmarshal([]byte(quote(dsl)), &back); err != nil || back != dsl {
				t.Fatalf("quote(%q) = %s reads back as %q, %v", dsl, quote(dsl), back, err)
			}
		}
		var doc []byte
		var fields map[string]int
		file := "fuzz-card.yaml"
		if where%2 == 0 {
			doc, fields = cardDoc(dsl), cardDocFields
		} else {
			file = "fuzz-square.json"
			doc, fields = squareDoc(dsl), map[string]int{"board[20].do": 1}
		}
		r, err = monopoly.DefaultRules().WithOverrides(file, doc)
		if err != nil {
			var ce *monopoly.ConfigError
			if bad := checkConfigError(err, file); bad != nil {
				t.Fatalf("program %q: %v", dsl, bad)
			} else if errors.As(err, &ce); ce.File != file || fields[ce.Field] != ce.Line {
				t.Fatalf("program %q: error at %s:%d %s, want the program's field and line %v", dsl, ce.File, ce.Line, ce.Field, fields)
			}
			return
		}
		if err := playBrief(r, uint64(where)+7, 2+int(where)%4); err != nil {
			t.Fatalf("program %q in %s: %v", dsl, file, err)
		}
	})
}
