package session_test

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// benchStore opens a SQLite store in a temporary directory.
func benchStore(b *testing.B) session.Store {
	b.Helper()
	st, err := store.Open(ctx, store.Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkSubmitToNextDecision measures a person's answer: applied, the
// three bots played up to the person's next decision, and all of it
// committed to SQLite. p99-ms is the 99th percentile of one answer.
func BenchmarkSubmitToNextDecision(b *testing.B) {
	m := session.NewManager(benchStore(b), session.Options{})
	seed := uint64(0)
	var (
		s      *session.Session
		p      session.Progress
		tok    string
		person agent.Agent
		times  []time.Duration
	)
	next := func() {
		seed++
		var err error
		if s, err = m.Create(ctx, setup(seed, "human,shark,professor,hustler")); err != nil {
			b.Fatal(err)
		}
		if p, err = s.Advance(ctx, 0); err != nil {
			b.Fatal(err)
		}
		tok = s.Tokens().Seats[0]
		person, _ = agent.New("baseline", 0, seed)
	}
	next()
	for b.Loop() {
		if p.Over {
			next()
		}
		g := s.Game()
		a := person.Decide(g.View(0), g.Pending())
		t0 := time.Now()
		var err error
		if p, err = s.Submit(ctx, tok, agent.Answer{Action: a}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkResume1000 opens a stored session of 1,000 answers in a new
// manager, as a restarted process does: loaded, replayed with its bots
// asked at their decisions, and checked against its digest.
func BenchmarkResume1000(b *testing.B) {
	st := benchStore(b)
	m := session.NewManager(st, session.Options{})
	var id string
	for seed := uint64(1); id == ""; seed++ {
		if seed > 50 {
			b.Fatal("no game of 50 reached 1,000 answers")
		}
		// No round limit: a game of 60 rounds seldom has 1,000 answers.
		table := setup(seed, "human,shark,professor,hustler")
		table.Rules = ""
		s, err := m.Create(ctx, table)
		if err != nil {
			b.Fatal(err)
		}
		person, _ := agent.New("baseline", 0, seed)
		tok := s.Tokens().Seats[0]
		p, err := s.Advance(ctx, 0)
		for err == nil && !p.Over && p.Entries < 1000 {
			g := s.Game()
			p, err = s.Submit(ctx, tok, agent.Answer{Action: person.Decide(g.View(0), g.Pending())})
		}
		if err != nil {
			b.Fatal(err)
		}
		if p.Entries >= 1000 {
			f, err := m.Fork(ctx, s.ID(), 1000, nil)
			if err != nil {
				b.Fatal(err)
			}
			id = f.ID()
		}
	}
	for b.Loop() {
		s, err := session.NewManager(st, session.Options{}).Open(ctx, id)
		if err != nil || s.Status().Entries != 1000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionsOpen keeps 1,000 sessions open, each waiting for a
// person after the bots' first moves, and reports the process's resident
// memory (rss-MB) and the Go heap in use (heap-MB) with all of them open.
func BenchmarkSessionsOpen(b *testing.B) {
	const n = 1000
	for b.Loop() {
		// The sessions of the last iteration are garbage: give their
		// memory back, so that the resident size is this iteration's.
		debug.FreeOSMemory()
		m := session.NewManager(benchStore(b), session.Options{})
		open := make([]*session.Session, n)
		for i := range open {
			s, err := m.Create(ctx, setup(uint64(i), "human,shark,professor,hustler"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Advance(ctx, 0); err != nil {
				b.Fatal(err)
			}
			open[i] = s
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
		b.ReportMetric(rssMB(), "rss-MB")
		runtime.KeepAlive(open)
	}
}

// rssMB reads the process's resident set size (Linux; 0 elsewhere).
func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
