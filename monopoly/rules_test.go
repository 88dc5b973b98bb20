package monopoly_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// defaultConfig is the default rules in their config form, decoded.
func defaultConfig(t *testing.T) map[string]any {
	t.Helper()
	data, err := json.Marshal(monopoly.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// doc builds a YAML document line by line, remembering the line of each
// list item it writes.
type doc struct {
	b     strings.Builder
	lines int
	at    map[string]int // "board[3]" -> its line
}

func (d *doc) line(format string, args ...any) {
	fmt.Fprintf(&d.b, format+"\n", args...)
	d.lines++
}

func flow(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// configDoc writes the default board and decks, one flow mapping per
// square and per card, after the given top lines, with edit changing
// items by their field path ("board[3]", "decks[0].cards[4]").
func configDoc(t *testing.T, top string, edit func(path string, item map[string]any)) *doc {
	t.Helper()
	m := defaultConfig(t)
	d := &doc{at: map[string]int{}}
	for _, l := range strings.Split(strings.TrimSuffix(top, "\n"), "\n") {
		if l != "" {
			d.line("%s", l)
		}
	}
	d.line("board:")
	for i, sq := range m["board"].([]any) {
		path := fmt.Sprintf("board[%d]", i)
		edit(path, sq.(map[string]any))
		d.line("  - %s", flow(sq))
		d.at[path] = d.lines
	}
	d.line("decks:")
	for i, dk := range m["decks"].([]any) {
		deck := dk.(map[string]any)
		d.line("  - name: %s", deck["name"])
		d.line("    cards:")
		for j, c := range deck["cards"].([]any) {
			path := fmt.Sprintf("decks[%d].cards[%d]", i, j)
			edit(path, c.(map[string]any))
			d.line("      - %s", flow(c))
			d.at[path] = d.lines
		}
	}
	return d
}

// setAt returns an edit setting key of the item at path to v.
func setAt(path, key string, v any) func(string, map[string]any) {
	return func(p string, item map[string]any) {
		if p == path {
			item[key] = v
		}
	}
}

func TestConfigErrors(t *testing.T) {
	noEdit := func(string, map[string]any) {}
	tests := []struct {
		name    string
		text    string                       // a plain document, or
		top     string                       // lines above a generated board and decks
		edit    func(string, map[string]any) // changes to the generated board and decks
		item    string                       // the generated item whose line is expected
		line    int                          // the expected line when item is ""
		lineMax int                          // if set, the line may be up to this
		field   string                       // the expected field path
		msg     string                       // in the message
	}{
		{name: "unknown top-level key", text: "starting_cash: 1500\nfoo: 1\n", line: 2, field: "foo", msg: "unknown key"},
		{name: "nested unknown key", text: "groups:\n  - {name: Brown, house_cost: 50, colour: brown}\n", line: 2, field: "groups[0].colour", msg: "unknown key"},
		{name: "duplicate key", text: "max_rounds: 1\nmax_rounds: 2\n", line: 2, field: "max_rounds", msg: "duplicate"},
		{name: "bad type", text: "max_rounds: 10\nstarting_cash: abc\n", line: 2, field: "starting_cash", msg: "integer"},
		{name: "float for integer", text: "go_salary: 200.5\n", line: 1, field: "go_salary", msg: "integer"},
		{name: "string for bool", text: "\nauctions: yes\n", line: 2, field: "auctions", msg: "true or false"},
		{name: "scalar for list", text: "railroad_rent: 25\n", line: 1, field: "railroad_rent", msg: "list"},
		{name: "unknown deal protocol", text: "\ndeal_protocol: secret\n", line: 2, field: "deal_protocol", msg: "open or sealed"},
		{name: "counters in sealed deals", text: "deal_protocol: sealed\ncounter_offers: 2\n", line: 2, field: "counter_offers", msg: "no counter-offers"},
		{name: "counters neither number nor switch", text: "\ncounter_offers: many\n", line: 2, field: "counter_offers", msg: "true/false"},
		{name: "counters in sealed deals, switched on", text: "deal_protocol: sealed\ncounter_offers: true\n", line: 2, field: "counter_offers", msg: "no counter-offers"},
		{name: "unknown speed die face", text: "speed_die: true\nspeed_die_faces: [1, 2, taxi]\n", line: 2, field: "speed_die_faces[2]", msg: "mr_monopoly or bus"},
		{name: "speed die face 7", text: "speed_die_faces: [7]\n", line: 1, field: "speed_die_faces[0]", msg: "a number 1-6"},
		{name: "no speed die faces", text: "speed_die_faces: []\n", line: 1, field: "speed_die_faces", msg: "at least one face"},
		{name: "too many speed die faces", text: "speed_die_faces: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n", line: 1, field: "speed_die_faces", msg: "12"},
		{name: "negative trades per turn", text: "trades_per_turn: -1\n", line: 1, field: "trades_per_turn", msg: "between 0 and 100"},
		{name: "negative starting cash", text: "# comment\n\nstarting_cash: -1\n", line: 3, field: "starting_cash", msg: "between 0"},
		{name: "negative jail fine", text: "jail_fine: -5\n", line: 1, field: "jail_fine", msg: "-5"},
		{name: "negative max houses", text: "max_rounds: 3\nmax_houses: -1\n", line: 2, field: "max_houses", msg: "-1"},
		{name: "jail turns zero", text: "jail_turns: 0\n", line: 1, field: "jail_turns", msg: "between 1"},
		{name: "bad income tax", text: "income_tax: progressive\n", line: 1, field: "income_tax", msg: "flat or lesser"},
		{name: "bad net worth", text: "max_rounds: 500\nnet_worth: market\n", line: 2, field: "net_worth", msg: "printed or resale"},
		{name: "negative railroad rent", text: "railroad_rent:\n  - 25\n  - -50\n", line: 3, field: "railroad_rent[1]", msg: "-50"},
		{name: "no utility multiplier", text: "utility_multiplier: []\n", line: 1, field: "utility_multiplier", msg: "at least one"},
		{name: "free house", top: "groups:\n" + defaultGroupsYAML(0), edit: noEdit, line: 2, field: "groups[0].house_cost", msg: "0"},
		{name: "unknown group", edit: setAt("board[3]", "group", "Mauve"), item: "board[3]", field: "board[3].group", msg: `"Mauve"`},
		{name: "short rent table", edit: setAt("board[3]", "rent", []int{4, 20, 60}), item: "board[3]", field: "board[3].rent", msg: "6 values"},
		{name: "negative rent", edit: setAt("board[6]", "rent", []int{6, 30, -90, 270, 400, 550}), item: "board[6]", field: "board[6].rent[2]", msg: "-90"},
		{name: "unknown kind", edit: setAt("board[4]", "kind", "casino"), item: "board[4]", field: "board[4].kind", msg: "casino"},
		{name: "price on a card square", edit: setAt("board[2]", "price", 10), item: "board[2]", field: "board[2].price", msg: "price"},
		{name: "free street", edit: setAt("board[1]", "price", 0), item: "board[1]", field: "board[1].price", msg: "0"},
		{name: "second jail", edit: setAt("board[20]", "kind", "jail"), item: "board[20]", field: "board[20].kind", msg: "second jail"},
		{name: "program on a street", edit: setAt("board[1]", "do", "PAY 5"), item: "board[1]", field: "board[1].do", msg: "only action squares"},
		{name: "unknown command", edit: setAt("decks[0].cards[4]", "do", "FLY 3"), item: "decks[0].cards[4]", field: "decks[0].cards[4].do", msg: "unknown command"},
		{name: "unknown square", edit: setAt("decks[0].cards[0]", "do", `ADVANCE_TO "Nowhere"`), item: "decks[0].cards[0]", field: "decks[0].cards[0].do", msg: "Nowhere"},
		{name: "square off the board", edit: setAt("decks[0].cards[0]", "do", "ADVANCE_TO 40"), item: "decks[0].cards[0]", field: "decks[0].cards[0].do", msg: "off the board"},
		{name: "negative payment", edit: setAt("decks[1].cards[2]", "do", "PAY -5"), item: "decks[1].cards[2]", field: "decks[1].cards[2].do", msg: "-5"},
		{name: "amount not a number", edit: setAt("decks[1].cards[3]", "do", "RECEIVE fifty"), item: "decks[1].cards[3]", field: "decks[1].cards[3].do", msg: "integer"},
		{name: "keep on a board square", edit: setAt("board[2]", "do", "KEEP"), item: "board[2]", field: "board[2].do", msg: "KEEP"},
		{name: "keep with another command", edit: setAt("decks[1].cards[4]", "do", "KEEP; RECEIVE 10"), item: "decks[1].cards[4]", field: "decks[1].cards[4].do", msg: "KEEP"},
		{name: "draw from an unknown deck", edit: setAt("board[7]", "do", "DRAW nodeck"), item: "board[7]", field: "board[7].do", msg: "nodeck"},
		{name: "draw in a card", edit: setAt("decks[0].cards[7]", "do", "DRAW community_chest"), item: "decks[0].cards[7]", field: "decks[0].cards[7].do", msg: "cannot DRAW"},
		{name: "translate zero", edit: setAt("decks[0].cards[9]", "do", "TRANSLATE 0"), item: "decks[0].cards[9]", field: "decks[0].cards[9].do", msg: "TRANSLATE"},
		{name: "missing multiplier", edit: setAt("decks[0].cards[4]", "do", "ADVANCE_TO NEAREST railroad RENT"), item: "decks[0].cards[4]", field: "decks[0].cards[4].do", msg: "multiplier"},
		{name: "zero multiplier", edit: setAt("decks[0].cards[5]", "do", "ADVANCE_TO NEAREST railroad RENT x0"), item: "decks[0].cards[5]", field: "decks[0].cards[5].do", msg: "multiplier"},
		{name: "nearest what", edit: setAt("decks[0].cards[6]", "do", "ADVANCE_TO NEAREST jail"), item: "decks[0].cards[6]", field: "decks[0].cards[6].do", msg: "NEAREST"},
		{name: "next what", edit: setAt("decks[0].cards[6]", "do", "ADVANCE_TO NEXT street"), item: "decks[0].cards[6]", field: "decks[0].cards[6].do", msg: "NEXT takes unowned or rent_owed"},
		{name: "next nothing", edit: setAt("decks[0].cards[6]", "do", "ADVANCE_TO NEXT"), item: "decks[0].cards[6]", field: "decks[0].cards[6].do", msg: "unowned or rent_owed"},
		{name: "or without next", edit: setAt("decks[0].cards[6]", "do", "ADVANCE_TO NEXT unowned OR rent_owed"), item: "decks[0].cards[6]", field: "decks[0].cards[6].do", msg: "OR takes NEXT"},
		{name: "or next what", edit: setAt("decks[0].cards[6]", "do", "ADVANCE_TO NEXT unowned OR NEXT \"Boardwalk\""), item: "decks[0].cards[6]", field: "decks[0].cards[6].do", msg: "NEXT takes unowned or rent_owed"},
		{name: "zero percent", edit: setAt("board[4]", "do", "TAX 200 OR 0%"), item: "board[4]", field: "board[4].do", msg: "percentage"},
		{name: "missing percent sign", edit: setAt("board[4]", "do", "TAX 200 OR 10"), item: "board[4]", field: "board[4].do", msg: "%"},
		{name: "unterminated string", edit: setAt("decks[0].cards[0]", "do", `ADVANCE_TO "Boardwalk`), item: "decks[0].cards[0]", field: "decks[0].cards[0].do", msg: "unterminated"},
		{name: "empty program", edit: setAt("decks[1].cards[1]", "do", "  "), item: "decks[1].cards[1]", field: "decks[1].cards[1].do", msg: "empty"},
		{name: "junk after a command", edit: setAt("decks[1].cards[1]", "do", "RECEIVE 200 NOW"), item: "decks[1].cards[1]", field: "decks[1].cards[1].do", msg: "NOW"},
		{name: "card without id", edit: setAt("decks[1].cards[5]", "id", ""), item: "decks[1].cards[5]", field: "decks[1].cards[5].id", msg: "required"},
		{name: "nested line", text: "board:\n  - {name: GO, kind: go}\n  - name: Mediterranean Avenue\n    kind: street\n    group: Brown\n    price: 60\n    rent: [2, 10, 30]\n  - {name: Jail, kind: jail}\n  - {name: Tax, kind: action, do: TAX 10}\n", line: 7, field: "board[1].rent", msg: "6 values"},
		{name: "board too small", text: "board: []\n", line: 1, field: "board", msg: "between 4"},
		{name: "board too large", text: "max_rounds: 1\nboard: [" + strings.Repeat("{},", monopoly.MaxSquares) + "{}]\n", line: 2, field: "board", msg: "at most 64 items, got 65"},
		{name: "too many cards", text: "decks:\n  - name: chance\n    cards: [" + strings.Repeat("{},", monopoly.MaxDeckCards) + "{}]\n", line: 3, field: "decks[0].cards", msg: "at most 32 items"},
		// Names lead to one square, ignoring case, as lookups do.
		{name: "duplicate square name", edit: setAt("board[3]", "name", "Mediterranean Avenue"), item: "board[3]", field: "board[3].name", msg: "square 1"},
		{name: "duplicate square name in another case", edit: setAt("board[39]", "name", "PARK place"), item: "board[39]", field: "board[39].name", msg: "square 37"},
		{name: "property named as an action square", edit: setAt("board[6]", "name", "chance"), item: "board[7]", field: "board[7].name", msg: "square 6"},
		{name: "action squares of one name, unalike", edit: setAt("board[22]", "do", "DRAW community_chest"), item: "board[22]", field: "board[22].name", msg: "square 7"},
		// A file that replaces a list the defaults refer to is blamed, at
		// its key of the list, not the embedded rules the user cannot edit.
		{name: "decks without a default deck", text: "max_rounds: 3\ndecks:\n  - name: luck\n    cards:\n      - {id: a, do: PAY 1}\n", line: 2, field: "decks", msg: `no deck "community_chest", which the default board uses at board[2]`},
		{name: "groups removed", text: "max_rounds: 3\n\ngroups: []\n", line: 3, field: "groups", msg: `no group "Brown", which the default board uses at board[1]`},
		{name: "board without a default group", text: "board:\n  - {name: GO, kind: go}\n  - {name: Jail, kind: jail}\n  - {name: Boardwalk, kind: action, do: PAY 1}\n  - {name: B, kind: action, do: PAY 1}\n", line: 1, field: "board", msg: `no street of group "Brown", which the default groups define at groups[0]`},
		{name: "board without a default square", text: "groups: []\nboard:\n  - {name: GO, kind: go}\n  - {name: Jail, kind: jail}\n  - {name: A, kind: action, do: PAY 1}\n  - {name: B, kind: action, do: PAY 1}\n", line: 2, field: "board", msg: `no square "Boardwalk", which the default decks use at decks[0].cards[0]`},
		{name: "no jail", text: "board:\n  - {name: GO, kind: go}\n  - {name: A, kind: action, do: PAY 1}\n  - {name: B, kind: action, do: PAY 1}\n  - {name: C, kind: action, do: PAY 1}\ngroups: []\n", line: 1, field: "board", msg: "jail"},
		// YAML syntax errors: the line of the problem (for an unclosed list,
		// any line from its opening to where the parser gave up).
		{name: "tab indentation", text: "max_rounds: 10\n\tbad: 1\n", line: 2, field: "", msg: "invalid YAML"},
		{name: "unterminated quote", text: "max_rounds: 10\nstarting_cash: \"abc\n", line: 2, field: "", msg: "invalid YAML"},
		{name: "unclosed list", text: "max_rounds: 10\n\n\nstarting_cash: [1, 2\ngo_salary: 3\n", line: 4, lineMax: 6, field: "", msg: "invalid YAML"},
		{name: "list item in a mapping", text: "max_rounds: 10\n- a\n", line: 2, field: "", msg: "invalid YAML"},
		{name: "control character", text: "max_rounds: 10\njail_fine: \x01\n", line: 2, field: "", msg: "invalid YAML"},
		{name: "bad character on the first line", text: "\tbad: 1\n", line: 1, field: "", msg: "invalid YAML"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, line := []byte(tc.text), tc.line
			if tc.edit != nil {
				d := configDoc(t, tc.top, tc.edit)
				data = []byte(d.b.String())
				if tc.item != "" {
					line = d.at[tc.item]
				}
			}
			_, err := monopoly.ParseRules("test.yaml", data)
			if err == nil {
				t.Fatalf("accepted:\n%s", data)
			}
			var ce *monopoly.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is a %T, not a *ConfigError", err, err)
			}
			lineOK := ce.Line == line || (ce.Line >= line && ce.Line <= tc.lineMax)
			if ce.File != "test.yaml" || !lineOK || ce.Field != tc.field {
				t.Errorf("error at %s:%d field %q, want test.yaml:%d field %q (%v)", ce.File, ce.Line, ce.Field, line, tc.field, err)
			}
			if !strings.Contains(ce.Msg, tc.msg) {
				t.Errorf("message %q does not mention %q", ce.Msg, tc.msg)
			}
			if want := fmt.Sprintf("test.yaml:%d: ", ce.Line); !lineOK || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error text %q does not start with test.yaml:%d", err, line)
			}
		})
	}
}

// defaultGroupsYAML writes the default groups as YAML lines, with group
// zero's house cost replaced by cost0.
func defaultGroupsYAML(cost0 int) string {
	var b strings.Builder
	for i, g := range monopoly.DefaultRules().Groups {
		cost := g.HouseCost
		if i == 0 {
			cost = cost0
		}
		fmt.Fprintf(&b, "  - {name: %s, house_cost: %d}\n", g.Name, cost)
	}
	return b.String()
}

// TestGeneratedDocumentIsValid checks that configDoc without edits makes
// valid rules equal to the defaults, so that the errors above come from
// the edits.
func TestGeneratedDocumentIsValid(t *testing.T) {
	d := configDoc(t, "groups:\n"+defaultGroupsYAML(monopoly.DefaultRules().Groups[0].HouseCost), func(string, map[string]any) {})
	r, err := monopoly.ParseRules("test.yaml", []byte(d.b.String()))
	if err != nil {
		t.Fatal(err)
	}
	assertSameRules(t, r, monopoly.DefaultRules())
}

func assertSameRules(t *testing.T, a, b *monopoly.Rules) {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Errorf("rules differ:\n%s\n%s", ja, jb)
	}
	// Every exported field of the compiled rules, the unexported parts of
	// squares and cards (group masks, jail-card bits) included. Where the
	// keys were set may differ.
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		f := va.Type().Field(i)
		if f.IsExported() && !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			t.Errorf("compiled rules differ in %s", f.Name)
		}
	}
}

func TestOverrideFile(t *testing.T) {
	r, err := monopoly.ParseRules("short.yaml", []byte("max_rounds: 10\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxRounds != 10 {
		t.Errorf("max_rounds %d, want 10", r.MaxRounds)
	}
	// Everything else is the default.
	want := defaultConfig(t)
	want["max_rounds"] = float64(10)
	var got map[string]any
	data, _ := json.Marshal(r)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the override changed more than max_rounds")
	}
	// And it plays: a timed game ends after round 10 (7.10).
	g := monopoly.New(r, 3, 1)
	as := seatAgents([]string{"baseline"}, 3, 1)
	for n := 0; !g.Over(); n++ {
		if n > 100_000 {
			t.Fatal("game not over")
		}
		if err := g.Apply(decide(g, as)); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Capped() || g.Round() != 11 {
		t.Errorf("game over in round %d, capped %v; want the limit after round 10", g.Round(), g.Capped())
	}
}

func TestDefaultRulesMatchReference(t *testing.T) {
	r, err := monopoly.ParseRules("nothing.yaml", nil)
	if err != nil {
		t.Fatalf("the embedded defaults do not parse: %v", err)
	}
	assertSameRules(t, r, monopoly.DefaultRules())

	// Constants of appendix C.
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"starting cash", r.StartingCash, 1500}, {"GO salary", r.GoSalary, 200}, {"jail fine", r.JailFine, 50},
		{"jail turns", r.JailTurns, 3}, {"houses", r.MaxHouses, 32}, {"hotels", r.MaxHotels, 12},
		{"interest", r.MortgageInterestPercent, 10}, {"squares", len(r.Squares), 40}, {"jail square", r.JailSquare, 10},
		{"decks", len(r.Decks), 2}, {"chance cards", len(r.Decks[0].Cards), 16}, {"community chest cards", len(r.Decks[1].Cards), 16},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	if !reflect.DeepEqual(r.RailroadRent, []int{25, 50, 100, 200}) || !reflect.DeepEqual(r.UtilityMultiplier, []int{4, 10}) {
		t.Errorf("railroad rents %v, utility multipliers %v (sections 3, 4)", r.RailroadRent, r.UtilityMultiplier)
	}
	if r.Auctions != true || r.FreeParkingJackpot || r.IncomeTax != monopoly.IncomeTaxFlat || r.MaxRounds != 0 {
		t.Error("the default is not the official game (7.3, 8.7, 8.8, no round limit)")
	}

	// Section 2: price, rents (base, 1-4 houses, hotel), house cost and
	// the unmortgage cost of 7.6.
	streets := []struct {
		sq, price, house, unmortgage int
		name                         string
		rent                         [6]int
	}{
		{1, 60, 50, 33, "Mediterranean Avenue", [6]int{2, 10, 30, 90, 160, 250}},
		{3, 60, 50, 33, "Baltic Avenue", [6]int{4, 20, 60, 180, 320, 450}},
		{6, 100, 50, 55, "Oriental Avenue", [6]int{6, 30, 90, 270, 400, 550}},
		{8, 100, 50, 55, "Vermont Avenue", [6]int{6, 30, 90, 270, 400, 550}},
		{9, 120, 50, 66, "Connecticut Avenue", [6]int{8, 40, 100, 300, 450, 600}},
		{11, 140, 100, 77, "St. Charles Place", [6]int{10, 50, 150, 450, 625, 750}},
		{13, 140, 100, 77, "States Avenue", [6]int{10, 50, 150, 450, 625, 750}},
		{14, 160, 100, 88, "Virginia Avenue", [6]int{12, 60, 180, 500, 700, 900}},
		{16, 180, 100, 99, "St. James Place", [6]int{14, 70, 200, 550, 750, 950}},
		{18, 180, 100, 99, "Tennessee Avenue", [6]int{14, 70, 200, 550, 750, 950}},
		{19, 200, 100, 110, "New York Avenue", [6]int{16, 80, 220, 600, 800, 1000}},
		{21, 220, 150, 121, "Kentucky Avenue", [6]int{18, 90, 250, 700, 875, 1050}},
		{23, 220, 150, 121, "Indiana Avenue", [6]int{18, 90, 250, 700, 875, 1050}},
		{24, 240, 150, 132, "Illinois Avenue", [6]int{20, 100, 300, 750, 925, 1100}},
		{26, 260, 150, 143, "Atlantic Avenue", [6]int{22, 110, 330, 800, 975, 1150}},
		{27, 260, 150, 143, "Ventnor Avenue", [6]int{22, 110, 330, 800, 975, 1150}},
		{29, 280, 150, 154, "Marvin Gardens", [6]int{24, 120, 360, 850, 1025, 1200}},
		{31, 300, 200, 165, "Pacific Avenue", [6]int{26, 130, 390, 900, 1100, 1275}},
		{32, 300, 200, 165, "North Carolina Avenue", [6]int{26, 130, 390, 900, 1100, 1275}},
		{34, 320, 200, 176, "Pennsylvania Avenue", [6]int{28, 150, 450, 1000, 1200, 1400}},
		{37, 350, 200, 193, "Park Place", [6]int{35, 175, 500, 1100, 1300, 1500}},
		{39, 400, 200, 220, "Boardwalk", [6]int{50, 200, 600, 1400, 1700, 2000}},
	}
	for _, s := range streets {
		sq := r.Squares[s.sq]
		if sq.Name != s.name || sq.Kind != monopoly.KindStreet || sq.Price != s.price || sq.Rent != s.rent ||
			r.HouseCost(s.sq) != s.house || sq.Mortgage != s.price/2 || r.UnmortgageCost(s.sq) != s.unmortgage {
			t.Errorf("square %d: %s %s price %d rent %v house %d mortgage %d unmortgage %d; want %s price %d rent %v house %d unmortgage %d",
				s.sq, sq.Name, sq.Kind, sq.Price, sq.Rent, r.HouseCost(s.sq), sq.Mortgage, r.UnmortgageCost(s.sq),
				s.name, s.price, s.rent, s.house, s.unmortgage)
		}
	}
	for _, c := range []struct {
		sqs   []int
		kind  monopoly.SquareKind
		price int
		cost  int
	}{
		{[]int{5, 15, 25, 35}, monopoly.KindRailroad, 200, 110},
		{[]int{12, 28}, monopoly.KindUtility, 150, 83},
	} {
		for _, sq := range c.sqs {
			s := r.Squares[sq]
			if s.Kind != c.kind || s.Price != c.price || r.UnmortgageCost(sq) != c.cost {
				t.Errorf("square %d %s: %s price %d unmortgage %d", sq, s.Name, s.Kind, s.Price, r.UnmortgageCost(sq))
			}
		}
	}
	for d, deck := range r.Decks {
		keeps := 0
		for _, c := range deck.Cards {
			if c.Keep {
				keeps++
			}
		}
		if keeps != 1 {
			t.Errorf("deck %s has %d Get Out of Jail Free cards, want 1 (8.6)", deck.Name, keeps)
		}
		if _, ok := r.JailCardBit(d); !ok {
			t.Errorf("deck %s: no jail card bit", deck.Name)
		}
	}
}

// TestRentTables checks Game.Rent against sections 2-4 in set positions.
func TestRentTables(t *testing.T) {
	r := monopoly.DefaultRules()
	tests := []struct {
		name  string
		props []monopoly.PropertySetup
		sq    int
		dice  int
		want  int
	}{
		{"base", []monopoly.PropertySetup{{Square: 39, Owner: 1}}, 39, 7, 50},
		{"whole group doubles", []monopoly.PropertySetup{{Square: 37, Owner: 1}, {Square: 39, Owner: 1}}, 39, 7, 100},
		{"mortgaged member still doubles (7.6)", []monopoly.PropertySetup{{Square: 37, Owner: 1, Mortgaged: true}, {Square: 39, Owner: 1}}, 39, 7, 100},
		{"split group", []monopoly.PropertySetup{{Square: 37, Owner: 0}, {Square: 39, Owner: 1}}, 39, 7, 50},
		{"one house", []monopoly.PropertySetup{{Square: 37, Owner: 1, Houses: 1}, {Square: 39, Owner: 1, Houses: 1}}, 39, 7, 200},
		{"four houses", []monopoly.PropertySetup{{Square: 37, Owner: 1, Houses: 4}, {Square: 39, Owner: 1, Houses: 4}}, 37, 7, 1300},
		{"hotel", []monopoly.PropertySetup{{Square: 37, Owner: 1, Houses: 4}, {Square: 39, Owner: 1, Houses: 5}}, 39, 7, 2000},
		{"one railroad", []monopoly.PropertySetup{{Square: 5, Owner: 1}}, 5, 7, 25},
		{"three railroads", []monopoly.PropertySetup{{Square: 5, Owner: 1}, {Square: 15, Owner: 1}, {Square: 35, Owner: 1}}, 15, 7, 100},
		{"four railroads", []monopoly.PropertySetup{{Square: 5, Owner: 1}, {Square: 15, Owner: 1}, {Square: 25, Owner: 1}, {Square: 35, Owner: 1}}, 25, 7, 200},
		{"railroads of two owners", []monopoly.PropertySetup{{Square: 5, Owner: 1}, {Square: 15, Owner: 0}}, 5, 7, 25},
		{"one utility", []monopoly.PropertySetup{{Square: 12, Owner: 1}}, 12, 9, 36},
		{"both utilities", []monopoly.PropertySetup{{Square: 12, Owner: 1}, {Square: 28, Owner: 1}}, 28, 9, 90},
		{"unowned", nil, 39, 7, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1, Properties: tc.props,
				Players: []monopoly.PlayerSetup{{Cash: 1500}, {Cash: 1500}}}
			g, err := monopoly.NewFromSetup(r, s)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Rent(tc.sq, tc.dice); got != tc.want {
				t.Errorf("rent %d, want %d", got, tc.want)
			}
			if tc.want > 0 {
				if got := expectedRent(g, tc.sq, tc.dice); got != tc.want {
					t.Errorf("the checker's rent %d, want %d", got, tc.want)
				}
			}
		})
	}
}

// TestWithOverridesLeavesOriginal checks that overriding, successfully
// or not, changes nothing in the rules overridden.
func TestWithOverridesLeavesOriginal(t *testing.T) {
	base := monopolytest.Rules(t, "max_rounds: 77\njail_fine: 60")
	before, _ := json.Marshal(base)
	squares := append([]monopoly.Square(nil), base.Squares...)
	for _, doc := range []string{
		"max_rounds: 5\nauctions: false",
		"railroad_rent: [1, 2, 3, 4]\ngroups:\n" + defaultGroupsYAML(999),
		"board: []",
		"starting_cash: abc",
		`decks: [{name: chance, cards: [{id: a, do: PAY 1}]}, {name: community_chest, cards: [{id: b, do: KEEP}]}]`,
	} {
		r, err := base.WithOverrides("o.yaml", []byte(doc))
		after, _ := json.Marshal(base)
		if !bytes.Equal(before, after) || !reflect.DeepEqual(squares, base.Squares) || base.MaxRounds != 77 || base.JailFine != 60 {
			t.Errorf("overriding with %q changed the original", doc)
		}
		if err == nil && r.JailFine != 60 {
			t.Errorf("overriding with %q lost the base's jail fine", doc)
		}
	}
	r, err := base.WithOverrides("o.yaml", []byte("max_rounds: 5"))
	if err != nil || r.MaxRounds != 5 {
		t.Fatalf("override not applied: %v", err)
	}
}

// TestRulesJSONRoundTrip checks that MarshalJSON writes what ParseRules
// reads back into the same rules.
// counter_offers: true turns counter-offers on as MonopolyBench has them;
// false turns them off; a number sets the bound; the JSON form of the
// rules keeps the number.
func TestCounterOffersSwitch(t *testing.T) {
	for doc, want := range map[string]int{"counter_offers: true": monopoly.MonopolyBenchCounters, "counter_offers: false": 0, "counter_offers: 3": 3} {
		r := monopolytest.Rules(t, doc)
		if r.CounterOffers != want {
			t.Errorf("%s: %d counter-offers, want %d", doc, r.CounterOffers, want)
		}
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := monopoly.ParseRules("json", data)
		if err != nil || back.CounterOffers != want {
			t.Errorf("%s: read back from JSON: %v, %v", doc, back, err)
		}
	}
}

func TestRulesJSONRoundTrip(t *testing.T) {
	for _, v := range variants {
		r := monopolytest.Rules(t, v.yaml)
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := monopoly.ParseRules(v.name+".json", data)
		if err != nil {
			t.Fatalf("%s: reading the JSON back: %v", v.name, err)
		}
		assertSameRules(t, back, r)
	}
}

// TestCopiesShareAName checks that copies of one square may share a name,
// as the Chance and Community Chest squares of the default board do.
func TestCopiesShareAName(t *testing.T) {
	r := monopoly.DefaultRules()
	if r.Squares[7].Name != r.Squares[22].Name || r.Squares[2].Name != r.Squares[17].Name {
		t.Fatal("the default board has no repeated names")
	}
	monopolytest.Rules(t, "board:\n  - {name: GO, kind: go}\n  - {name: Jail, kind: jail}\n  - {name: Tax, kind: action, do: PAY 1}\n  - {name: tax, kind: action, do: PAY  1}\ngroups: []\ndecks: []\n")
}

// TestLargeInputs checks that huge documents and lists are refused
// before anything in proportion to them is built: a 5.5 MB file of
// 60,000 squares once took seconds and hundreds of megabytes.
func TestLargeInputs(t *testing.T) {
	var huge strings.Builder
	huge.WriteString("board:\n")
	for i := range 60_000 {
		fmt.Fprintf(&huge, "  - {name: Square number %d, kind: action, do: PAY 10, text: padding to 5.5 MB}\n", i)
	}
	long := "board: [" + strings.Repeat("{},", (monopoly.MaxRulesBytes-12)/3) + "{}]\n"
	for _, tc := range []struct {
		name, doc, want string
		maxAlloc        uint64
	}{
		// Not parsed at all: nothing in proportion to it is allocated.
		{"over the byte limit", huge.String(), "big.yaml: larger than 1048576 bytes (1 MiB)", 1 << 20},
		// Only parsed as YAML, whose tree is some 64 times the text.
		{"a long list within the limit", long, "big.yaml:1: board: at most 64 items", 128 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.doc)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := monopoly.ParseRules("big.yaml", data)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > tc.maxAlloc {
				t.Errorf("refusing %d bytes allocated %d, want at most %d", len(tc.doc), n, tc.maxAlloc)
			}
		})
	}
}

// TestOverrideErrorsPointAtTheirSource checks the position of an error
// that an override causes in a key of the rules it overrides: it names the
// file and line where that key was set, not the embedded defaults.
func TestOverrideErrorsPointAtTheirSource(t *testing.T) {
	d := configDoc(t, "", func(string, map[string]any) {})
	custom, err := monopoly.ParseRules("custom.yaml", []byte(d.b.String()))
	if err != nil {
		t.Fatal(err)
	}
	// Dropping the groups leaves board[6] with an unknown group.
	_, err = custom.WithOverrides("o.yaml", []byte("groups: [{name: Brown, house_cost: 50}]\n"))
	var ce *monopoly.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not a *ConfigError", err)
	}
	if ce.Field != "board[6].group" || ce.File != "custom.yaml" || ce.Line != d.at["board[6]"] {
		t.Errorf("error at %s:%d %s, want custom.yaml:%d board[6].group (%v)", ce.File, ce.Line, ce.Field, d.at["board[6]"], err)
	}
}

// The speed die's faces read as a rules file writes them and survive the
// round trip through JSON that saved games and sessions take.
func TestSpeedDieFaces(t *testing.T) {
	r, err := monopoly.ParseRules("speed.yaml", []byte("speed_die: true\nspeed_die_faces: [6, bus, mr_monopoly]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []monopoly.SpeedFace{6, monopoly.SpeedBus, monopoly.SpeedMrMonopoly}
	if !r.SpeedDie || !slices.Equal(r.SpeedDieFaces, want) {
		t.Fatalf("speed die %v, faces %v; want on, %v", r.SpeedDie, r.SpeedDieFaces, want)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := monopoly.ParseRules("speed.json", data)
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	if !back.SpeedDie || !slices.Equal(back.SpeedDieFaces, want) {
		t.Fatalf("read back from %s: speed die %v, faces %v", data, back.SpeedDie, back.SpeedDieFaces)
	}
	if d := monopoly.DefaultRules(); d.SpeedDie || len(d.SpeedDieFaces) != 6 {
		t.Fatalf("default rules: speed die %v, %d faces; want off, 6", d.SpeedDie, len(d.SpeedDieFaces))
	}
}
