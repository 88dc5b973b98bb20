package monopoly_test

import (
	"encoding"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

// named is one enumeration: how to make its values and how many there are.
type named struct {
	typ  string
	n    int // values with a name
	make func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer)
}

var enumerations = []named{
	{"DecisionKind", int(monopoly.DecisionMovement) + 1, func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer) {
		v := monopoly.DecisionKind(i)
		return v, new(monopoly.DecisionKind), v
	}},
	{"ActionKind", int(monopoly.ActMove) + 1, func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer) {
		v := monopoly.ActionKind(i)
		return v, new(monopoly.ActionKind), v
	}},
	{"Phase", int(monopoly.PhaseAfterRoll) + 1, func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer) {
		v := monopoly.Phase(i)
		return v, new(monopoly.Phase), v
	}},
	{"EventKind", int(monopoly.EvSpeedDie) + 1, func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer) {
		v := monopoly.EventKind(i)
		return v, new(monopoly.EventKind), v
	}},
	{"Reason", int(monopoly.ReasonAuction) + 1, func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer) {
		v := monopoly.Reason(i)
		return v, new(monopoly.Reason), v
	}},
	{"Refusal", len(monopoly.Refusals()) + 1, func(i int) (encoding.TextMarshaler, encoding.TextUnmarshaler, fmt.Stringer) {
		v := monopoly.Refusal(i)
		return v, new(monopoly.Refusal), v
	}},
}

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Every value of every enumeration writes its String name and reads back
// as itself; names are snake_case (ReasonNone's is empty) and distinct.
func TestNamesRoundTrip(t *testing.T) {
	for _, e := range enumerations {
		t.Run(e.typ, func(t *testing.T) {
			seen := map[string]int{}
			for i := range e.n {
				m, u, s := e.make(i)
				text, err := m.MarshalText()
				if err != nil {
					t.Fatalf("%d: %v", i, err)
				}
				if string(text) != s.String() {
					t.Errorf("%d: MarshalText %q, String %q", i, text, s)
				}
				if !snake.Match(text) && !(e.typ == "Reason" && i == 0) {
					t.Errorf("%d: %q is not snake_case", i, text)
				}
				if j, dup := seen[string(text)]; dup {
					t.Errorf("%d and %d share the name %q", j, i, text)
				}
				seen[string(text)] = i
				if err := u.UnmarshalText(text); err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				if back := fmt.Sprint(u); back != s.String() {
					t.Errorf("%q read back as %s", text, back)
				}
			}
			// The first value past the last has no name to write.
			m, u, _ := e.make(e.n)
			if _, err := m.MarshalText(); err == nil {
				t.Errorf("value %d has no name but MarshalText wrote one", e.n)
			}
			err := u.UnmarshalText([]byte("no_such_name"))
			if err == nil {
				t.Fatal("an unknown name was read")
			}
			for _, want := range []string{e.typ, `"no_such_name"`, "known:"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %s", err, want)
				}
			}
		})
	}
}

// JSON uses the names, inside structs and as map keys.
func TestNamesJSON(t *testing.T) {
	type s struct {
		D monopoly.DecisionKind         `json:"d"`
		A monopoly.ActionKind           `json:"a"`
		P monopoly.Phase                `json:"p"`
		E monopoly.EventKind            `json:"e"`
		R monopoly.Reason               `json:"r"`
		F monopoly.Refusal              `json:"f"`
		M map[monopoly.DecisionKind]int `json:"m"`
	}
	in := s{monopoly.DecisionBid, monopoly.ActLiftMortgage, monopoly.PhaseAfterRoll, monopoly.EvAuctionWon,
		monopoly.ReasonJailFine, monopoly.RefusalUnevenBuilding, map[monopoly.DecisionKind]int{monopoly.DecisionJail: 2}}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"d":"bid","a":"lift_mortgage","p":"after_roll","e":"auction_won","r":"jail_fine","f":"uneven_building","m":{"jail":2}}`
	if string(data) != want {
		t.Fatalf("got %s\nwant %s", data, want)
	}
	var out s
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out) != fmt.Sprint(in) {
		t.Errorf("read back %v, want %v", out, in)
	}
}

// Saved games of earlier versions wrote phases, decision kinds and
// reasons as numbers; they still read, and nonsense does not.
func TestNamesLegacyNumbers(t *testing.T) {
	var p monopoly.Phase
	var d monopoly.DecisionKind
	var r monopoly.Reason
	tests := []struct {
		into any
		json string
		ok   bool
		want string
	}{
		{&p, `3`, true, "after_roll"},
		{&d, `4`, true, "bid"},
		{&r, `5`, true, "jail_fine"},
		{&p, `"jail"`, true, "jail"},
		{&p, `-1`, false, ""},
		{&d, `300`, false, ""},
		{&r, `true`, false, ""},
		{&p, `"Jail"`, false, ""},
	}
	for _, tc := range tests {
		err := json.Unmarshal([]byte(tc.json), tc.into)
		if (err == nil) != tc.ok {
			t.Errorf("%s into %T: error %v", tc.json, tc.into, err)
			continue
		}
		if tc.ok {
			if got := fmt.Sprint(tc.into.(fmt.Stringer)); got != tc.want {
				t.Errorf("%s read as %s, want %s", tc.json, got, tc.want)
			}
		}
	}
}
