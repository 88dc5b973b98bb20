package monopoly_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// recordedAction is an action with its offer copied: agents reuse the
// offer they point at.
func recordedAction(a monopoly.Action) monopoly.Action {
	if a.Offer != nil {
		o := *a.Offer
		a.Offer = &o
	}
	return a
}

// playOn plays g on with agents for at most steps actions, returning the
// events and the actions.
func playOn(t *testing.T, g *monopoly.Game, as []decider, steps int) ([]monopoly.Event, []monopoly.Action) {
	t.Helper()
	g.Record(true)
	var evs []monopoly.Event
	var acts []monopoly.Action
	for n := 0; n < steps && !g.Over(); n++ {
		a := recordedAction(decide(g, as))
		if err := g.Apply(a); err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
		acts = append(acts, a)
		evs = append(evs, g.TakeEvents()...)
	}
	return evs, acts
}

// roundTrip marshals g, reads it back and checks that the copy is the
// same position and marshals to the same bytes.
func roundTrip(t *testing.T, g *monopoly.Game) *monopoly.Game {
	t.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	h, err := monopoly.UnmarshalGame(data)
	if err != nil {
		t.Fatalf("unmarshal of a marshalled game: %v", err)
	}
	if !g.SameState(h) || !h.SameState(g) {
		t.Fatalf("the game read back is not the same position")
	}
	again, err := json.Marshal(h)
	if err != nil {
		t.Fatalf("marshal of the copy: %v", err)
	}
	if !bytes.Equal(data, again) {
		t.Fatalf("marshalling the copy gives other bytes:\n%s\n%s", data, again)
	}
	return h
}

// TestStateRoundTrip marshals games at many random points, reads them
// back, and plays the original's clone, a CopyFrom copy and the JSON copy
// on with identical fresh agents: all three must give the same events and
// end in the same position.
func TestStateRoundTrip(t *testing.T) {
	trips, forks := 0, 0
	for i, v := range variants {
		r := monopolytest.Rules(t, v.yaml+"\nmax_rounds: 150")
		for k := range 2 {
			seed := uint64(100 + 10*i + k)
			players := 2 + (i+k)%5
			mix := seatMixes[(i+2*k)%len(seatMixes)]
			g := monopoly.New(r, players, seed)
			as := seatAgents(mix, players, seed)
			rng := newRNG(seed)
			for n := 0; !g.Over(); n++ {
				if rng.IntN(200) == 0 {
					h := roundTrip(t, g)
					trips++
					if rng.IntN(3) == 0 {
						forks++
						forkSeed := seed*31 + uint64(n)
						clone := g.Clone()
						var copied monopoly.Game
						copied.CopyFrom(g)
						e1, _ := playOn(t, h, seatAgents(mix, players, forkSeed), 400)
						e2, _ := playOn(t, clone, seatAgents(mix, players, forkSeed), 400)
						e3, _ := playOn(t, &copied, seatAgents(mix, players, forkSeed), 400)
						if len(e1) == 0 || !reflect.DeepEqual(e1, e2) || !reflect.DeepEqual(e1, e3) {
							t.Fatalf("seed %d, step %d: forks played differently (%d, %d, %d events)", seed, n, len(e1), len(e2), len(e3))
						}
						if !h.SameState(clone) || !h.SameState(&copied) {
							t.Fatalf("seed %d, step %d: forks ended in different positions", seed, n)
						}
					}
				}
				if err := g.Apply(decide(g, as)); err != nil {
					t.Fatalf("seed %d, step %d: %v", seed, n, err)
				}
			}
			roundTrip(t, g) // the final position too
			trips++
		}
	}
	t.Logf("%d round trips, %d forks played on", trips, forks)
	if trips < 100 || forks < 25 {
		t.Errorf("only %d round trips and %d forks", trips, forks)
	}
}

// TestCloneIsIndependent checks that playing a clone leaves the original
// untouched and that the clone starts with an empty event log.
func TestCloneIsIndependent(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 100")
	g := monopoly.New(r, 4, 9)
	g.Record(true)
	playOn(t, g, seatAgents([]string{"chaos"}, 4, 9), 500)
	before, _ := json.Marshal(g)
	c := g.Clone()
	if len(c.Events()) != 0 {
		t.Errorf("the clone has %d events", len(c.Events()))
	}
	if !c.SameState(g) {
		t.Fatal("a fresh clone is not the same position")
	}
	evs, _ := playOn(t, c, seatAgents([]string{"chaos"}, 4, 10), 300)
	if len(evs) == 0 || c.SameState(g) {
		t.Fatal("playing the clone did not move it on")
	}
	after, _ := json.Marshal(g)
	if !bytes.Equal(before, after) {
		t.Error("playing the clone changed the original")
	}
}

// TestReset checks that a game reset after play is the new game New would
// make, recording events as before, and plays on as that game does.
func TestReset(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 100")
	g := monopoly.New(r, 3, 9)
	g.Record(true)
	playOn(t, g, seatAgents([]string{"chaos"}, 3, 9), 500)
	g.Reset(21)
	fresh := monopoly.New(r, 3, 21)
	fresh.Record(true)
	if !g.SameState(fresh) {
		t.Fatal("a reset game is not the game New makes")
	}
	// New records nothing before Record(true); Reset records the new
	// game from its start.
	if evs := g.TakeEvents(); len(evs) != 1 || evs[0].Kind != monopoly.EvTurnStart {
		t.Fatalf("a reset game recorded %v before play, want its first turn's start", evs)
	}
	evs, _ := playOn(t, g, seatAgents([]string{"chaos"}, 3, 4), 2000)
	want, _ := playOn(t, fresh, seatAgents([]string{"chaos"}, 3, 4), 2000)
	if len(evs) == 0 || !reflect.DeepEqual(evs, want) || !g.SameState(fresh) {
		t.Fatal("a reset game plays differently from a new one")
	}
}

// TestDeterminism replays the actions of whole games into fresh games of
// the same rules, seats and seed: the events and the final positions must
// be the same; another seed gives another game.
func TestDeterminism(t *testing.T) {
	for i, v := range variants {
		r := monopolytest.Rules(t, v.yaml+"\nmax_rounds: 200")
		seed := uint64(500 + i)
		players := 2 + i%5
		g := monopoly.New(r, players, seed)
		g.Record(true)
		evs, acts := playOn(t, g, seatAgents(seatMixes[i%len(seatMixes)], players, seed), 1_000_000)
		if !g.Over() {
			t.Fatalf("%s: game not over", v.name)
		}
		replay := monopoly.New(r, players, seed)
		replay.Record(true)
		var revs []monopoly.Event
		for n, a := range acts {
			if err := replay.Apply(a); err != nil {
				t.Fatalf("%s: replaying action %d %s: %v", v.name, n, showAction(a), err)
			}
			revs = append(revs, replay.TakeEvents()...)
		}
		if !replay.SameState(g) {
			t.Errorf("%s: the replay ends in another position", v.name)
		}
		if !reflect.DeepEqual(evs, revs) {
			t.Errorf("%s: the replay has other events (%d, %d)", v.name, len(evs), len(revs))
		}
		other := monopoly.New(r, players, seed+1)
		if other.SameState(monopoly.New(r, players, seed)) {
			t.Errorf("%s: seeds %d and %d give the same start", v.name, seed, seed+1)
		}
	}
}

// pendingStates plays chaos games until it has a position pending each
// decision kind, and returns their state JSON by kind.
func pendingStates(t *testing.T) map[monopoly.DecisionKind][]byte {
	t.Helper()
	r := monopolytest.Rules(t, "max_rounds: 300")
	out := map[monopoly.DecisionKind][]byte{}
	for seed := uint64(1); seed < 50 && len(out) < 7; seed++ {
		g := monopoly.New(r, 3, seed)
		as := seatAgents([]string{"chaos", "random", "baseline"}, 3, seed)
		for !g.Over() {
			if k := g.Pending().Kind; out[k] == nil {
				data, err := json.Marshal(g)
				if err != nil {
					t.Fatal(err)
				}
				out[k] = data
			}
			if err := g.Apply(decide(g, as)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for k := monopoly.DecisionManage; k <= monopoly.DecisionMortgagedTransfer; k++ {
		if out[k] == nil {
			t.Fatalf("no position pending %s found", k)
		}
	}
	return out
}

// editJSON decodes a state, applies edit to it and encodes it again.
func editJSON(t *testing.T, data []byte, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func field(m map[string]any, path ...any) map[string]any {
	var cur any = m
	for _, p := range path {
		switch k := p.(type) {
		case string:
			cur = cur.(map[string]any)[k]
		case int:
			cur = cur.([]any)[k]
		}
	}
	return cur.(map[string]any)
}

// TestStateMalformed feeds broken state JSON to UnmarshalGame: each must
// be refused with an error naming the broken field, never a panic.
func TestStateMalformed(t *testing.T) {
	states := pendingStates(t)
	manage := states[monopoly.DecisionManage]
	tests := []struct {
		name  string
		base  monopoly.DecisionKind
		edit  func(m map[string]any)
		raw   func(data []byte) []byte
		field string // the error must mention it
	}{
		{name: "truncated", raw: func(d []byte) []byte { return d[:len(d)/2] }, field: "game state"},
		{name: "not json", raw: func([]byte) []byte { return []byte("monopoly") }, field: "game state"},
		{name: "no rules", edit: func(m map[string]any) { delete(m, "rules") }, field: "rules"},
		{name: "bad rules", edit: func(m map[string]any) { field(m, "rules")["starting_cash"] = "abc" }, field: "starting_cash"},
		{name: "one player", edit: func(m map[string]any) { m["players"] = m["players"].([]any)[:1] }, field: "players"},
		{name: "nine players", edit: func(m map[string]any) {
			ps := m["players"].([]any)
			m["players"] = append(ps, ps[0], ps[0], ps[0], ps[0], ps[0], ps[0])
		}, field: "players"},
		{name: "owner out of range", edit: func(m map[string]any) { m["owner"].([]any)[1] = 7 }, field: "owner[1]"},
		{name: "owner below -1", edit: func(m map[string]any) { m["owner"].([]any)[3] = -2 }, field: "owner[3]"},
		{name: "GO owned", edit: func(m map[string]any) { m["owner"].([]any)[0] = 0 }, field: "owner[0]"},
		{name: "short owner list", edit: func(m map[string]any) { m["owner"] = m["owner"].([]any)[:39] }, field: "owner"},
		{name: "six buildings", edit: func(m map[string]any) { m["houses"].([]any)[1] = 6 }, field: "houses[1]"},
		{name: "off the board", edit: func(m map[string]any) { field(m, "players", 0)["Pos"] = 40 }, field: "players[0]"},
		{name: "jailed at the limit, no fine owed", edit: func(m map[string]any) {
			p := field(m, "players", 0)
			p["InJail"], p["Pos"], p["JailTurns"] = true, 10, 3
		}, field: "players[0].JailTurns"},
		{name: "bad rng hex", edit: func(m map[string]any) { m["rng"] = "zz" }, field: "rng"},
		{name: "short rng", edit: func(m map[string]any) { m["rng"] = "00ff" }, field: "rng"},
		{name: "deck too big", edit: func(m map[string]any) { field(m, "decks", 0)["N"] = 17 }, field: "decks[0]"},
		{name: "deck top out of range", edit: func(m map[string]any) { field(m, "decks", 1)["Top"] = 32 }, field: "decks[1]"},
		{name: "unknown card", edit: func(m map[string]any) { field(m, "decks", 0)["Cards"].([]any)[0] = 16 }, field: "decks[0]"},
		{name: "missing deck", edit: func(m map[string]any) { m["decks"] = m["decks"].([]any)[:1] }, field: "decks"},
		{name: "current out of range", edit: func(m map[string]any) { m["current"] = 3 }, field: "current"},
		{name: "unknown phase", edit: func(m map[string]any) { m["phase"] = 4 }, field: "phase"},
		{name: "unknown decision", edit: func(m map[string]any) { m["pending"] = 8 }, field: "pending"},
		{name: "decider out of range", edit: func(m map[string]any) { m["decider"] = -1 }, field: "pending"},
		{name: "decision without its task", base: monopoly.DecisionBuy, edit: func(m map[string]any) { m["tasks"] = nil }, field: "pending"},
		{name: "unknown task kind", base: monopoly.DecisionBuy, edit: func(m map[string]any) { field(m, "tasks", 0)["kind"] = 99 }, field: "tasks[0]"},
		{name: "task kind zero", base: monopoly.DecisionBuy, edit: func(m map[string]any) { field(m, "tasks", 0)["kind"] = 0 }, field: "tasks[0]"},
		{name: "task of no player", base: monopoly.DecisionBuy, edit: func(m map[string]any) { field(m, "tasks", 0)["player"] = 3 }, field: "tasks[0]"},
		{name: "task off the board", base: monopoly.DecisionBuy, edit: func(m map[string]any) { field(m, "tasks", 0)["square"] = 64 }, field: "tasks[0]"},
		{name: "task on a card before the first", base: monopoly.DecisionBuy, edit: func(m map[string]any) {
			t := field(m, "tasks", 0)
			t["kind"], t["deck"], t["card"], t["pc"] = 1, 0, -1, 0 // a program task
		}, field: "tasks[0]"},
		{name: "task before its program", base: monopoly.DecisionBuy, edit: func(m map[string]any) {
			t := field(m, "tasks", 0)
			t["kind"], t["deck"], t["card"], t["pc"] = 1, -1, 0, -1
		}, field: "tasks[0]"},
		{name: "scripted dice position", edit: func(m map[string]any) {
			m["scripted"], m["dice"], m["dice_pos"] = true, []any{[]any{1, 2}}, 2
		}, field: "dice_pos"},
		// Positions the engine cannot play: accepting them panics later.
		{name: "debt to no player", base: monopoly.DecisionRaiseCash, edit: func(m map[string]any) {
			tasks := m["tasks"].([]any)
			field(m, "tasks", len(tasks)-1)["to"] = 50
		}, field: "tasks"},
		{name: "high bidder out of range", base: monopoly.DecisionBid, edit: func(m map[string]any) {
			field(m, "auction")["Bidder"] = 9
			field(m, "auction")["High"] = 1
		}, field: "auction"},
		{name: "auction caller out of range", base: monopoly.DecisionBid, edit: func(m map[string]any) {
			field(m, "auction")["Next"] = 100
		}, field: "auction"},
		{name: "offer from no player", base: monopoly.DecisionTradeResponse, edit: func(m map[string]any) {
			field(m, "offer")["from"] = 100
		}, field: "offer"},
		{name: "offer of no square", base: monopoly.DecisionTradeResponse, edit: func(m map[string]any) {
			field(m, "offer")["give_squares"] = []any{64}
		}, field: "give_squares"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := manage
			if tc.base != monopoly.DecisionNone {
				data = states[tc.base]
			}
			if tc.edit != nil {
				data = editJSON(t, data, tc.edit)
			}
			if tc.raw != nil {
				data = tc.raw(data)
			}
			var g *monopoly.Game
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("UnmarshalGame panics: %v", p)
					}
				}()
				g, err = monopoly.UnmarshalGame(data)
			}()
			if err == nil {
				t.Fatalf("accepted; %s", playPanics(g))
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %q does not mention %q", err, tc.field)
			}
		})
	}
}

// playPanics plays a few legal actions of g and says whether it panics.
func playPanics(g *monopoly.Game) (verdict string) {
	defer func() {
		if p := recover(); p != nil {
			verdict = fmt.Sprintf("playing it on panics: %v", p)
		}
	}()
	for n := 0; n < 50 && !g.Over(); n++ {
		legal := g.LegalActions(nil)
		if len(legal) == 0 {
			return "no legal action"
		}
		if err := g.Apply(legal[n%len(legal)]); err != nil {
			return fmt.Sprintf("a legal action is refused: %v", err)
		}
	}
	return "it plays on"
}

// TestStateEditsAccepted checks the positions UnmarshalGame accepts: a
// state JSON with one number changed is either refused or a possible
// position, one that keeps every invariant and plays on without a panic
// (UnmarshalGame promises to check that the position is possible).
// Problems are reported once per field.
func TestStateEditsAccepted(t *testing.T) {
	states := pendingStates(t)
	targets := []struct {
		kind   monopoly.DecisionKind
		prefix string // only the numbers under it; "" for all but tasks, auction and offer
	}{
		{monopoly.DecisionManage, ""},
		{monopoly.DecisionRaiseCash, "tasks"},
		{monopoly.DecisionBid, "auction"},
		{monopoly.DecisionTradeResponse, "offer"},
	}
	problems := map[string]string{}
	edits := 0
	for _, tg := range targets {
		base := states[tg.kind]
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		for _, path := range numberPaths(m) {
			under := strings.HasPrefix(path, tg.prefix)
			if tg.prefix == "" {
				under = !strings.HasPrefix(path, "tasks") && !strings.HasPrefix(path, "auction") && !strings.HasPrefix(path, "offer")
			}
			if !under {
				continue
			}
			for _, val := range []int{-1, 200} {
				data := editJSON(t, base, func(m map[string]any) { setPath(m, path, val) })
				edits++
				if verdict := readEdited(data); verdict != "" {
					group := tg.kind.String() + " " + indexRE.ReplaceAllString(path, "[i]")
					if _, seen := problems[group]; !seen {
						problems[group] = fmt.Sprintf("%s pending, %s = %d: %s", tg.kind, path, val, verdict)
					}
				}
			}
		}
	}
	t.Logf("%d edited states read", edits)
	groups := make([]string, 0, len(problems))
	for g := range problems {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		t.Errorf("state with %s", problems[g])
	}
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// readEdited reads an edited state; it returns "" when the state is
// refused or possible, else what is wrong with accepting it.
func readEdited(data []byte) (verdict string) {
	defer func() {
		if p := recover(); p != nil {
			verdict = fmt.Sprintf("panic: %v", p)
		}
	}()
	g, err := monopoly.UnmarshalGame(data)
	if err != nil {
		return ""
	}
	if err := checkState(g); err != nil {
		return "accepted an impossible position: " + err.Error()
	}
	if v := playPanics(g); strings.Contains(v, "panic") {
		return "accepted; " + v
	}
	return ""
}

// numberPaths lists the paths of the state's numbers worth editing: all
// but the rules, the unused deck slots, and the board beyond a few
// squares.
func numberPaths(m map[string]any) []string {
	var paths []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if prefix == "" && k == "rules" {
					continue
				}
				walk(join(prefix, k), x[k])
			}
		case []any:
			for i, e := range x {
				if (strings.HasSuffix(prefix, "Cards") && i >= 2) || ((prefix == "owner" || prefix == "houses") && !slices.Contains([]int{0, 1, 5, 39}, i)) {
					continue
				}
				walk(fmt.Sprintf("%s[%d]", prefix, i), e)
			}
		case float64:
			paths = append(paths, prefix)
		}
	}
	walk("", m)
	return paths
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// setPath sets the number at a path made by numberPaths.
func setPath(m map[string]any, path string, val any) {
	var cur any = m
	parts := strings.Split(path, ".")
	for i, p := range parts {
		name, idx := p, -1
		if j := strings.IndexByte(p, '['); j >= 0 {
			name = p[:j]
			fmt.Sscanf(p[j:], "[%d]", &idx)
		}
		last := i == len(parts)-1
		obj := cur.(map[string]any)
		if idx < 0 {
			if last {
				obj[name] = val
				return
			}
			cur = obj[name]
			continue
		}
		list := obj[name].([]any)
		if last {
			list[idx] = val
			return
		}
		cur = list[idx]
	}
}

// TestSaveFinedInJail saves a game while a jailed player who failed its
// last roll raises the forced fine (7.8), and after the game has ended
// in the middle of that: its count of failed rolls is at the limit, and
// the saved game must still load.
func TestSaveFinedInJail(t *testing.T) {
	r := monopoly.DefaultRules()
	boardwalk := monopolytest.Square(t, r, "Boardwalk")
	s := monopoly.Setup{HouseSupply: -1, HotelSupply: -1,
		Players:    []monopoly.PlayerSetup{{Cash: 10, Position: r.JailSquare, InJail: true, JailTurns: r.JailTurns - 1}, {Cash: 5}},
		Properties: []monopoly.PropertySetup{{Square: boardwalk, Owner: 0, Mortgaged: true}, {Square: monopolytest.Square(t, r, "Park Place"), Owner: 0}}}
	g, err := monopoly.NewFromSetup(r, s)
	if err != nil {
		t.Fatal(err)
	}
	g.ScriptDice([][2]int{{1, 2}})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActContinue, Player: 0})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActRollForDoubles, Player: 0})
	if d := g.Pending(); d.Kind != monopoly.DecisionRaiseCash || g.JailTurns(0) != r.JailTurns {
		t.Fatalf("pending %+v with %d failed rolls; want the fine raised after the last", d, g.JailTurns(0))
	}
	g = roundTrip(t, g)
	// Seat 1 takes the mortgaged Boardwalk, cannot pay the 10% fee and
	// goes bankrupt: the game ends with seat 0 still fined in jail.
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActProposeTrade, Player: 0, Offer: &monopoly.TradeOffer{To: 1, GiveSquares: 1 << boardwalk}})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActAcceptTrade, Player: 1})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActKeepMortgaged, Player: 1})
	mustApply(t, g, monopoly.Action{Kind: monopoly.ActDeclareBankruptcy, Player: 1})
	if !g.Over() || g.Winner() != 0 || !g.InJail(0) {
		t.Fatalf("over %v, winner %d, seat 0 in jail %v; want seat 0 to win in jail", g.Over(), g.Winner(), g.InJail(0))
	}
	roundTrip(t, g)
}
