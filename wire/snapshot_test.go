package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A snapshot holds nothing its viewer may not know: a fork of the game
// from the viewer's view, which draws the order of the decks, the
// generator and other seats' sealed limits afresh, gives the same
// snapshot.
func TestSnapshotHidesWhatTheViewerMayNotKnow(t *testing.T) {
	for _, vr := range variants[:2] {
		r := rulesOf(t, vr)
		positions(t, r, 2, func(g *monopoly.Game, seed uint64, n int) bool {
			if n%7 != 0 {
				return true
			}
			for viewer := -1; viewer < g.Players(); viewer++ {
				want := mustJSON(t, wire.NewSnapshot(g, viewer, names))
				for _, fseed := range []uint64{1, 2} {
					f := g.View(viewer).Fork(fseed)
					if got := mustJSON(t, wire.NewSnapshot(f, viewer, names)); got != want {
						t.Fatalf("%s seed %d decision %d viewer %d: the snapshot depends on hidden state:\n%s\n%s", vr.Name, seed, n, viewer, want, got)
					}
				}
			}
			return true
		})
	}
}

// Under sealed deals a spectator and every seat but the proposer see an
// offer's cash as 0, marked hidden; the proposer sees its limit.
func TestSnapshotSealedLimits(t *testing.T) {
	r := rulesOf(t, variants[1])
	found := 0
	positions(t, r, 20, func(g *monopoly.Game, seed uint64, n int) bool {
		d := g.Pending()
		raw := g.PendingOffer()
		if d.Kind != monopoly.DecisionTradeResponse || raw.GiveCash+raw.GetCash == 0 {
			return true
		}
		found++
		for viewer := -1; viewer < g.Players(); viewer++ {
			s := wire.NewSnapshot(g, viewer, names)
			o := s.Decision.Offer
			if o == nil || !o.Sealed {
				t.Fatalf("viewer %d: offer %+v", viewer, o)
			}
			proposer := viewer == int(raw.From)
			if proposer {
				if o.Hidden || o.Give.Cash != raw.GiveCash || o.Get.Cash != raw.GetCash {
					t.Fatalf("the proposer does not see its limit: %+v, raw %+v", o, raw)
				}
			} else if !o.Hidden || o.Give.Cash != 0 || o.Get.Cash != 0 {
				t.Fatalf("seat %d sees the proposer's limit: %+v", viewer, o)
			}
			if (s.Options != nil) != (viewer == d.Player) {
				t.Fatalf("viewer %d has options %v; %d decides", viewer, s.Options != nil, d.Player)
			}
			if s.Options != nil && s.Options.Accept == nil {
				t.Fatal("the target has no accept range")
			}
		}
		return found < 20
	})
	if found == 0 {
		t.Fatal("no sealed offer with a limit reached")
	}
}

func TestSnapshotContents(t *testing.T) {
	r := monopoly.DefaultRules()
	g := monopoly.New(r, 3, 7)
	for range 200 {
		legal := g.LegalActions(nil)
		a := legal[0]
		for _, l := range legal {
			if l.Kind == monopoly.ActBuy {
				a = l
			}
		}
		if err := g.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	s := wire.NewSnapshot(g, 1, []string{"Ann"})
	if len(s.Board) != len(r.Squares) || len(s.Players) != 3 || len(s.Decks) != len(r.Decks) {
		t.Fatalf("%d squares, %d players, %d decks", len(s.Board), len(s.Players), len(s.Decks))
	}
	if s.Players[0].Name != "Ann" || s.Players[1].Name != "player 1" {
		t.Errorf("names %q, %q", s.Players[0].Name, s.Players[1].Name)
	}
	owned := 0
	for p, ps := range s.Players {
		if ps.Cash != g.Cash(p) || ps.Position != g.Position(p) || ps.NetWorth != g.NetWorth(p) || ps.PositionName != r.Squares[ps.Position].Name {
			t.Errorf("player %d: %+v", p, ps)
		}
		for _, sq := range ps.Properties {
			if s.Board[sq].Owner != p {
				t.Errorf("square %d: owner %d, listed for %d", sq, s.Board[sq].Owner, p)
			}
			owned++
		}
	}
	if owned == 0 {
		t.Error("nobody owns anything after 200 decisions of buying")
	}
	for i, sq := range s.Board {
		if sq.Index != i || sq.Name != r.Squares[i].Name || (sq.Kind == "street") != (sq.Group != "") {
			t.Errorf("square %d: %+v", i, sq)
		}
	}
	if d1, d2 := g.LastRoll(); s.Dice != [2]int{d1, d2} {
		t.Errorf("dice %v", s.Dice)
	}
	if s.Viewer != 1 || wire.NewSnapshot(g, 9, nil).Viewer != -1 {
		t.Error("viewers")
	}
}
