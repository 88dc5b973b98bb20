package wire_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// TestAppendJSONAsEncodingJSON: the hand-written JSON of a state, a
// decision and options reads back as exactly what encoding/json writes
// of them, key for key, at decisions of random games in every variant;
// options without notation and trades lack just those keys.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	for _, vr := range variants {
		r := rulesOf(t, vr)
		kinds := map[monopoly.DecisionKind]bool{}
		positions(t, r, 3, func(g *monopoly.Game, seed uint64, n int) bool {
			if g.Over() || n%3 != 0 {
				return true
			}
			v := g.View(g.Decider())
			st, d, o := wire.NewState(v), wire.NewDecision(v), wire.NewOptions(v)
			kinds[d.Kind] = true
			sameJSON(t, vr.Name, "state", st.AppendJSON(nil), st)
			sameJSON(t, vr.Name, "decision", d.AppendJSON(nil), d)
			sameJSON(t, vr.Name, "options", o.AppendJSON(nil), o)
			// Without notation and trades: the same, less those keys.
			lean := wire.NewOptionsWithout(v, wire.WithoutNotation|wire.WithoutTrade)
			var got map[string]any
			if err := json.Unmarshal(lean.AppendJSON(nil), &got); err != nil {
				t.Fatal(err)
			}
			o.Notation, o.Trade = nil, nil
			want := map[string]any{}
			roundTrip(t, o, &want)
			delete(want, "notation")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: options without notation and trades:\n got %v\nwant %v", vr.Name, got, want)
			}
			return !t.Failed()
		})
		if len(kinds) < 6 {
			t.Errorf("%s: only %d decision kinds met", vr.Name, len(kinds))
		}
	}
}

// TestAppendJSONStrings: names that need escaping come out as
// encoding/json reads them back.
func TestAppendJSONStrings(t *testing.T) {
	for _, s := range []string{"", `a "quoted" \ name`, "tab\there\nline", "<b>&amp;</b>", "Café ß 日本", "bad \xff utf-8", "\u2028\x7f\x00"} {
		st := wire.State{Players: []wire.PlayerBrief{{JailCardDecks: []string{s}}}, Progress: wire.Progress{SpeedDie: s}}
		d := wire.Decision{SquareName: s, Offer: &wire.Offer{Give: wire.Side{SquareNames: []string{s}}}}
		o := wire.Options{Notation: []string{s}, Accept: &wire.LimitRange{Meaning: s}, Trade: &wire.TradeOptions{Limits: s}}
		sameJSON(t, s, "state", st.AppendJSON(nil), st)
		sameJSON(t, s, "decision", d.AppendJSON(nil), d)
		sameJSON(t, s, "options", o.AppendJSON(nil), o)
	}
}

// sameJSON compares got, read back as generic JSON, with encoding/json's
// writing of want.
func sameJSON(t *testing.T, where, what string, got []byte, want any) {
	t.Helper()
	wb, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %s: not JSON: %v\n%s", where, what, err, got)
	}
	if err := json.Unmarshal(wb, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: %s:\n got %s\nwant %s", where, what, got, wb)
	}
}
