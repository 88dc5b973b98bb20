package wire_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// TestStateMakesTheSnapshot: a Board and a State, each through JSON as a
// client gets them, make the seat's Snapshot again, in every variant,
// and it says what the engine says.
func TestStateMakesTheSnapshot(t *testing.T) {
	names := []string{"Ann", "", "Cy"}
	for _, vr := range variants {
		r := rulesOf(t, vr)
		var board wire.Board
		roundTrip(t, wire.NewBoard(r), &board)
		checked := 0
		positions(t, r, 3, func(g *monopoly.Game, seed uint64, n int) bool {
			if g.Over() || n%7 != 0 {
				return true
			}
			v := g.View(g.Decider())
			var st wire.State
			roundTrip(t, wire.NewState(v), &st)
			got := st.Snapshot(board, names)
			want := wire.ViewSnapshot(v, names)
			want.Decision, want.Options = wire.Decision{}, nil
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s seed %d decision %d:\n got %s\nwant %s", vr.Name, seed, n, mustJSON(t, got), mustJSON(t, want))
			}
			if err := sameAsEngine(v, got, names); err != "" {
				t.Fatalf("%s seed %d decision %d: %s", vr.Name, seed, n, err)
			}
			checked++
			return true
		})
		if checked < 50 {
			t.Errorf("%s: %d positions checked", vr.Name, checked)
		}
	}
}

func roundTrip(t *testing.T, v, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

// sameAsEngine compares a snapshot with the view it describes, fact by
// fact, asking the engine; it returns the first difference.
func sameAsEngine(v monopoly.View, s wire.Snapshot, names []string) string {
	r := v.Rules()
	d1, d2 := v.LastRoll()
	if s.Viewer != v.Me() || s.Turn != v.Turn() || s.Round != v.Round() || s.Phase != v.Phase() || s.Current != v.Current() ||
		s.Dice != [2]int{d1, d2} || s.SpeedDie != v.LastSpeedDie().String() || s.HouseSupply != v.HouseSupply() ||
		s.HotelSupply != v.HotelSupply() || s.Jackpot != v.JackpotCash() || s.DealProtocol != r.DealProtocol.String() {
		return fmt.Sprintf("header %+v", s)
	}
	for d := range r.Decks {
		if s.Decks[d].Name != r.Decks[d].Name || s.Decks[d].Cards != v.DeckSize(d) {
			return fmt.Sprintf("deck %d: %+v", d, s.Decks[d])
		}
	}
	for i, sq := range s.Board {
		h := v.Houses(i)
		if sq.Index != i || sq.Name != r.Squares[i].Name || sq.Owner != v.Owner(i) || sq.Mortgaged != v.Mortgaged(i) ||
			sq.Hotel != (h == 5) || (h < 5 && sq.Houses != h) || (h == 5 && sq.Houses != 0) ||
			(r.Squares[i].Ownable() && sq.Price != r.Squares[i].Price) {
			return fmt.Sprintf("square %d: %+v", i, sq)
		}
	}
	for p, ps := range s.Players {
		name := fmt.Sprintf("player %d", p)
		if p < len(names) && names[p] != "" {
			name = names[p]
		}
		var props []int
		for sq := range r.Squares {
			if v.Owner(sq) == p {
				props = append(props, sq)
			}
		}
		if ps.Seat != p || ps.Name != name || ps.Cash != v.Cash(p) || ps.Position != v.Position(p) ||
			ps.PositionName != r.Squares[v.Position(p)].Name || ps.InJail != v.InJail(p) || ps.PassedGo != v.PassedGo(p) ||
			ps.JailTurns != v.JailTurns(p) || ps.JailCards != v.JailCardCount(p) || len(ps.JailCardDecks) != v.JailCardCount(p) ||
			ps.Bankrupt != v.Bankrupt(p) || ps.NetWorth != v.NetWorth(p) || fmt.Sprint(ps.Properties) != fmt.Sprint(props) {
			return fmt.Sprintf("player %d: %+v", p, ps)
		}
	}
	return ""
}
