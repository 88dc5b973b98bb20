package wire_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// eventKeys is the documented key list of each event kind (the package's
// Event comment), beyond seq and kind.
var eventKeys = map[string]string{
	"turn_start":         "player round",
	"roll":               "player dice",
	"move":               "player from from_name square square_name",
	"salary":             "player amount",
	"roll_resolved":      "player square square_name in_jail",
	"buy":                "player square square_name amount",
	"auction_won":        "player square square_name amount",
	"bid":                "player square square_name amount",
	"decline":            "player square square_name",
	"drop_out":           "player square square_name",
	"auction_start":      "player square square_name",
	"auction_unsold":     "square square_name",
	"rent":               "player to square square_name amount",
	"pay":                "player to amount reason",
	"card":               "player deck deck_name card card_id card_text",
	"go_to_jail":         "player",
	"leave_jail":         "player",
	"stay_in_jail":       "player failures",
	"use_jail_card":      "player deck deck_name",
	"build":              "player square square_name amount buildings",
	"sell_building":      "player square square_name amount buildings",
	"mortgage":           "player square square_name amount",
	"unmortgage":         "player square square_name amount",
	"trade_proposed":     "player to trade counter",
	"trade_accepted":     "player to trade",
	"trade_rejected":     "player to trade limits_missed",
	"mortgaged_transfer": "player square square_name amount lifted",
	"bankrupt":           "player to",
	"property_transfer":  "player to square square_name",
	"game_over":          "player round_limit net_worth",
	"debt":               "player to square square_name amount reason",
	"speech":             "player speech thought",
	"speed_die":          "player speed_die triples",
}

// recorded plays seeded random games under each variant and returns
// their events, by variant.
func recorded(t *testing.T, games int) map[string][]monopoly.Event {
	t.Helper()
	out := map[string][]monopoly.Event{}
	for _, vr := range variants {
		r := rulesOf(t, vr)
		for seed := uint64(1); seed <= uint64(games); seed++ {
			gm := newGame(r, 2+int(seed%3), seed, true)
			for gm.Step(t) {
			}
			out[vr.Name] = append(out[vr.Name], gm.G.Events()...)
		}
	}
	return out
}

// Every event of every kind has exactly its documented keys, for every
// viewer, and reads back as itself.
func TestEventKeys(t *testing.T) {
	seen := map[string]bool{}
	for name, events := range recorded(t, 3) {
		r := rulesOf(t, variantNamed(name))
		for i, e := range events {
			for _, viewer := range []int{wire.Research, -1, 0, 1} {
				ev := wire.NewEvent(r, e, viewer, i)
				data, err := json.Marshal(ev)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]json.RawMessage
				if err := json.Unmarshal(data, &m); err != nil {
					t.Fatal(err)
				}
				var keys []string
				for k := range m {
					if k != "seq" && k != "kind" {
						keys = append(keys, k)
					}
				}
				want := strings.Fields(eventKeys[e.Kind.String()])
				slices.Sort(keys)
				slices.Sort(want)
				if !slices.Equal(keys, want) {
					t.Fatalf("%s: keys %v, documented %v", data, keys, want)
				}
				var back wire.Event
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				if mustJSON(t, back) != string(data) || !sameEvent(back, ev) {
					t.Fatalf("%s read back as %+v", data, back)
				}
				seen[e.Kind.String()] = true
			}
		}
	}
	for k := range eventKeys {
		if !seen[k] {
			t.Errorf("no game had a %s event", k)
		}
	}
}

func sameEvent(a, b wire.Event) bool {
	if (a.Trade == nil) != (b.Trade == nil) {
		return false
	}
	if a.Trade != nil && mustJSONAny(*a.Trade) != mustJSONAny(*b.Trade) {
		return false
	}
	a.Trade, b.Trade = nil, nil
	return a == b
}

func mustJSONAny(v any) string { data, _ := json.Marshal(v); return string(data) }

func variantNamed(name string) variant {
	for _, v := range variants {
		if v.Name == name {
			return v
		}
	}
	return variant{}
}

// A viewer sees another's thought as "" and, under sealed deals, another
// proposer's limits as 0; its own it sees. Research sees everything.
func TestEventPrivacy(t *testing.T) {
	hidden, shown := 0, 0
	for name, events := range recorded(t, 4) {
		r := rulesOf(t, variantNamed(name))
		for i, e := range events {
			for viewer := -1; viewer < 4; viewer++ {
				ev := wire.NewEvent(r, e, viewer, i)
				own := viewer == int(e.Player)
				switch e.Kind {
				case monopoly.EvSpeech:
					if ev.Speech != e.Speech || (ev.Thought != "") != (own && e.Thought != "") {
						t.Fatalf("viewer %d sees speech %q thought %q of %+v", viewer, ev.Speech, ev.Thought, e)
					}
				case monopoly.EvTradeProposed, monopoly.EvTradeRejected:
					if r.DealProtocol != monopoly.DealsSealed {
						if ev.Trade.Give.Cash != e.Trade.GiveCash || ev.Trade.Get.Cash != e.Trade.GetCash || ev.Trade.Sealed || ev.Trade.Hidden {
							t.Fatalf("open deal shown as %+v", ev.Trade)
						}
						continue
					}
					if own {
						if ev.Trade.Give.Cash != e.Trade.GiveCash || ev.Trade.Get.Cash != e.Trade.GetCash || ev.Trade.Hidden {
							t.Fatalf("the proposer does not see its limit: %+v", ev.Trade)
						}
						shown++
					} else if ev.Trade.Give.Cash != 0 || ev.Trade.Get.Cash != 0 || !ev.Trade.Hidden {
						t.Fatalf("viewer %d sees seat %d's sealed limit: %+v", viewer, e.Player, ev.Trade)
					} else if e.Trade.GiveCash+e.Trade.GetCash > 0 {
						hidden++
					}
				}
			}
			res := wire.NewEvent(r, e, wire.Research, i)
			if res.Thought != e.Thought && e.Kind == monopoly.EvSpeech ||
				res.Trade != nil && (res.Trade.Give.Cash != e.Trade.GiveCash || res.Trade.Hidden) {
				t.Fatalf("research sees %+v of %+v", res, e)
			}
		}
	}
	if hidden == 0 || shown == 0 {
		t.Errorf("sealed limits hidden %d times, shown %d times", hidden, shown)
	}
}

// The engine has no event kind this package does not describe; when it
// gains one, add its keys to eventKeys (event.go, and the Event comment)
// and to the table above.
func TestEventKindsCovered(t *testing.T) {
	if text, err := (monopoly.EvSpeedDie + 1).MarshalText(); err == nil {
		t.Errorf("the engine has an event kind %q after speed_die that the wire does not describe", text)
	}
	var e wire.Event
	e.Kind = monopoly.EvSpeedDie + 1
	data, err := json.Marshal(e)
	if err != nil || string(data) != `{"seq":0,"kind":"EventKind(34)","player":0}` {
		t.Errorf("an unknown kind is written as %s, %v", data, err)
	}
}
