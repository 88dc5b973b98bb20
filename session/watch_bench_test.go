package session

import (
	"context"
	"fmt"
	"testing"

	_ "github.com/gopoly/gopoly/agent/bots" // baseline
	"github.com/gopoly/gopoly/wire"
)

// nopStore keeps nothing: the benchmarks below measure the session, not
// a database.
type nopStore struct{ Store }

func (nopStore) Create(context.Context, Record, []Entry) error              { return nil }
func (nopStore) Append(context.Context, string, int, []Entry, Status) error { return nil }

// BenchmarkWatchEvent measures what one change of a game costs a viewer
// of its board: the snapshot now, made again after the change (the cost
// the first viewer pays; the others share it). It must not grow with
// the log: entries=10, 100 and 1000 should cost the same. replay is the
// old way, the log replayed for every viewer at every event, for
// comparison.
func BenchmarkWatchEvent(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10, 100, 1000} {
		m := NewManager(nopStore{}, Options{})
		seats, _ := ParseSeats("baseline,baseline,baseline,baseline")
		var s *Session
		// The first seed whose game lasts n answers.
		for seed := uint64(1); s == nil; seed++ {
			g, err := m.Create(ctx, Setup{Seed: seed, Seats: seats})
			if err != nil {
				b.Fatal(err)
			}
			if p, err := g.Advance(ctx, n); err != nil {
				b.Fatal(err)
			} else if p.Entries == n {
				s = g
			}
		}
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.mu.Lock()
				s.nowAt = -1 // the game changed
				s.mu.Unlock()
				if _, err := s.SnapshotAt("", n); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("replay/entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g, err := s.GameAt(n)
				if err != nil {
					b.Fatal(err)
				}
				_ = wire.NewSnapshot(g, -1, s.setup.Names())
			}
		})
	}
}
