package store

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/session"
)

// The store's benchmarks, run with
//
//	go test -run '^$' -bench . -benchmem ./store/
//
// (with GOPOLY_TEST_POSTGRES set, as by .ci/postgres, for the PostgreSQL
// ones). BenchmarkAppend compares SQLite's synchronous modes: its p99-ns
// is what chose sqliteSync.

// benchEntry is an answer of a realistic size: a wire action, a line of
// table talk, a paragraph of thought.
func benchEntry(k int) session.Entry {
	return session.Entry{
		Seat:    k % 4,
		Action:  json.RawMessage(fmt.Sprintf(`{"kind":"trade","seat":%d,"give":{"cash":150,"properties":["St. Charles Place","States Avenue"]},"get":{"properties":["Virginia Avenue"]},"k":%d}`, k%4, k)),
		Speech:  "Three hundred and the railroad, and you'll thank me when the pinks are mine.",
		Thought: strings.Repeat("They need the pink set more than I need cash; ", 8),
		By:      "bot:shark",
		At:      time.Now(),
	}
}

// benchStores runs bench on each store: SQLite with both synchronous
// modes when modes says so (only FULL, the chosen one, otherwise), and
// PostgreSQL when a server is configured.
func benchStores(b *testing.B, modes bool, bench func(b *testing.B, s session.Store)) {
	syncs := []string{sqliteSync}
	if modes {
		syncs = []string{"FULL", "NORMAL"}
	}
	for _, sync := range syncs {
		b.Run("sqlite-"+strings.ToLower(sync), func(b *testing.B) {
			s, err := openSQLite(b.Context(), b.TempDir(), sync, slog.New(slog.DiscardHandler))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			bench(b, s)
		})
	}
	b.Run("postgres", func(b *testing.B) {
		dsn := os.Getenv("GOPOLY_TEST_POSTGRES")
		if dsn == "" {
			b.Skip("GOPOLY_TEST_POSTGRES not set")
		}
		s, err := Open(b.Context(), Options{DSN: pgSchema(b, dsn)})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		bench(b, s)
	})
}

// BenchmarkAppend is an Append of 1 and of 4 entries (an answer and the
// bots' replies it sets off), with its 99th percentile latency.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			benchStores(b, true, func(b *testing.B, s session.Store) {
				benchAppend(b, s, n)
			})
		})
	}
}

// minSamples is the fewest latencies a p99 is taken from.
const minSamples = 1000

// benchAppend appends n entries per iteration to one session and reports
// the p99 latency of an append. The latencies are those of the timed
// iterations, topped up by a small untimed loop when too few ran (short
// -benchtime) for a 99th percentile to mean anything.
func benchAppend(b *testing.B, s session.Store, n int) {
	ctx := b.Context()
	if err := s.Create(ctx, session.Record{ID: "bench", Version: 1, Created: time.Now()}, nil); err != nil {
		b.Fatal(err)
	}
	es := make([]session.Entry, n)
	for i := range es {
		es[i] = benchEntry(i)
	}
	from := 0
	var lat []time.Duration
	appendOnce := func() {
		t0 := time.Now()
		err := s.Append(ctx, "bench", from, es, session.Status{Updated: t0, Turn: from / 4, Winner: -1, Waiting: from % 4, Summary: "waiting for shark (bot)"})
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		from += n
	}
	b.ReportAllocs()
	for b.Loop() {
		appendOnce()
	}
	for len(lat) < minSamples {
		appendOnce()
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkLoad loads a session of 1,000 entries, as a server does to
// resume a game.
func BenchmarkLoad(b *testing.B) {
	b.Run("entries=1000", func(b *testing.B) {
		benchStores(b, false, func(b *testing.B, s session.Store) {
			ctx := b.Context()
			log := make([]session.Entry, 1000)
			for i := range log {
				log[i] = benchEntry(i)
			}
			if err := s.Create(ctx, session.Record{ID: "bench", Version: 1, Created: time.Now()}, log); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, got, err := s.Load(ctx, "bench")
				if err != nil || len(got) != len(log) {
					b.Fatalf("Load: %d entries, %v", len(got), err)
				}
			}
		})
	})
}
