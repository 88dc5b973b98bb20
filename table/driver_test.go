package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// twoProcesses opens one store twice, as two processes sharing it do,
// with a manager on each.
func twoProcesses(t *testing.T) (a, b *session.Manager) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	open := func() *session.Manager {
		st, err := store.Open(ctx, store.Options{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return session.NewManager(st, session.Options{Players: Players(false, "no programs here")})
	}
	return open(), open()
}

// create makes a game of seats in m, capped at rounds.
func create(t *testing.T, m *session.Manager, seats string, seed uint64, rounds int) *session.Session {
	t.Helper()
	list, err := session.ParseSeats(seats)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Create(ctx, session.Setup{Seed: seed, Seats: list, Rules: fmt.Sprintf("max_rounds: %d\n", rounds)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// held reports whether d holds the lease of its pacer of game id.
func held(d *Drivers, id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.games[id]
	return p != nil && p.held
}

// played is the answers of game id in m's session of it: the one its
// driver plays on, which is a new one if a commit failed (a busy store)
// and the driver reopened the game.
func played(t *testing.T, m *session.Manager, id string) int {
	t.Helper()
	s, err := m.Open(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Status().Entries
}

// waitFor polls cond every 20ms for up to limit, and reports whether it
// came true.
func waitFor(limit time.Duration, cond func() bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// Two processes pace one game of bots: the one holding the lease plays,
// the other watches (and its advance_game is refused), and takes the game
// over once the first gives it up, from where the first left it.
func TestDriversOneLeaseholder(t *testing.T) {
	ma, mb := twoProcesses(t)
	sa := create(t, ma, "baseline,baseline", 9, 200)
	da, db := NewDrivers(nil), NewDrivers(nil)
	defer db.Close()
	if err := da.Begin(ctx, sa); err != nil {
		t.Fatal(err)
	}
	fast := float64(MaxSpeed)
	if _, err := da.Set(sa.ID(), &fast, nil, false); err != nil {
		t.Fatal(err)
	}
	if !waitFor(5*time.Second, func() bool { return held(da, sa.ID()) && sa.Status().Entries > 0 }) {
		t.Fatal("the first process did not take the lease and play")
	}
	sb, err := mb.Open(ctx, sa.ID())
	if err != nil {
		t.Fatal(err)
	}
	opened := sb.Status().Entries
	if err := db.Begin(ctx, sb); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Set(sb.ID(), &fast, nil, false); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Advance(ctx, sb, 1); err == nil || Classify(err).Name() != "driven_elsewhere" {
		t.Errorf("advance_game on the watching process: %v, want driven_elsewhere", err)
	}
	time.Sleep(2 * renewEvery) // the watcher asks for the lease twice meanwhile
	if held(db, sb.ID()) {
		t.Fatal("both processes hold the lease")
	}
	// No feed on SQLite: the watcher's session stays as it opened it,
	// unless it played.
	if n := sb.Status().Entries; n != opened {
		t.Errorf("the watching process played: %d answers in its session, %d when opened", n, opened)
	}
	da.Close() // gives the lease up
	stopped := sa.Status().Entries
	if !waitFor(2*renewEvery, func() bool { return held(db, sb.ID()) }) {
		t.Fatal("the second process did not take the lease over")
	}
	if !waitFor(5*time.Second, func() bool { return played(t, mb, sb.ID()) > stopped }) {
		t.Fatalf("the second process did not play on from %d answers: %d", stopped, played(t, mb, sb.ID()))
	}
	if sa.Status().Entries != stopped {
		t.Error("the first process played after it closed")
	}
}

// A pause, a step and a resume asked of the process that watches a game
// are played by the one that drives it.
func TestDriversSharePace(t *testing.T) {
	ma, mb := twoProcesses(t)
	sa := create(t, ma, "baseline,baseline", 4, 200)
	da, db := NewDrivers(nil), NewDrivers(nil)
	defer da.Close()
	defer db.Close()
	if err := da.Begin(ctx, sa); err != nil {
		t.Fatal(err)
	}
	// The first to ask drives: this process, before the other begins.
	if !waitFor(5*time.Second, func() bool { return held(da, sa.ID()) }) {
		t.Fatal("the first process did not take the lease")
	}
	sb, err := mb.Open(ctx, sa.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Begin(ctx, sb); err != nil {
		t.Fatal(err)
	}
	fast, yes, no := float64(MaxSpeed), true, false
	if _, err := db.Set(sb.ID(), &fast, nil, false); err != nil {
		t.Fatal(err)
	}
	if !waitFor(5*time.Second, func() bool { return da.Pace(sa.ID()).Speed == MaxSpeed }) {
		t.Fatalf("the driver's pace: %+v, want the speed asked of the other process", da.Pace(sa.ID()))
	}
	if _, err := db.Set(sb.ID(), nil, &yes, false); err != nil {
		t.Fatal(err)
	}
	if !waitFor(5*time.Second, func() bool { return da.Pace(sa.ID()).Paused }) {
		t.Fatal("the driver did not pause")
	}
	time.Sleep(Step / MaxSpeed * 2) // a beat under way ends
	paused := played(t, ma, sa.ID())
	time.Sleep(2 * renewEvery)
	if n := played(t, ma, sa.ID()); n != paused {
		t.Fatalf("the paused game went from %d to %d answers", paused, n)
	}
	if _, err := db.Set(sb.ID(), nil, nil, true); err != nil {
		t.Fatal(err)
	}
	// A paused pacer hears of the step at its next ask of the store (every
	// renewEvery); the margin is for a loaded machine.
	if !waitFor(4*renewEvery+5*time.Second, func() bool { return played(t, ma, sa.ID()) > paused }) {
		t.Fatal("a step asked of the other process was not played")
	}
	time.Sleep(Step / MaxSpeed * 2)
	stepped := played(t, ma, sa.ID())
	time.Sleep(2 * renewEvery)
	if n := played(t, ma, sa.ID()); n != stepped {
		t.Fatalf("one step played %d answers and then %d more", stepped-paused, n-stepped)
	}
	if _, err := db.Set(sb.ID(), nil, &no, false); err != nil {
		t.Fatal(err)
	}
	if !waitFor(4*renewEvery+5*time.Second, func() bool { return played(t, ma, sa.ID()) > stepped }) {
		t.Fatal("the game did not resume")
	}
}

// busyLeases is a store whose leases can be made to fail, as a store too
// busy to answer does.
type busyLeases struct {
	leasing
	busy atomic.Bool
}

// leasing is a store with leases and paces (SQLite's, here).
type leasing interface {
	session.Store
	session.Leases
	session.Paces
}

func (s *busyLeases) Lease(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	if s.busy.Load() {
		return false, errors.New("database is locked")
	}
	return s.leasing.Lease(ctx, name, owner, ttl)
}

// A step asked while the driver's store could not renew its lease is
// played once it can: no other process drove meanwhile.
func TestDriversStepThroughBusyStore(t *testing.T) {
	st, err := store.Open(ctx, store.Options{DataDir: filepath.Join(t.TempDir(), "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	busy := &busyLeases{leasing: st.(leasing)}
	m := session.NewManager(busy, session.Options{Players: Players(false, "no programs here")})
	s := create(t, m, "baseline,baseline", 5, 200)
	d := NewDrivers(slog.New(slog.DiscardHandler))
	defer d.Close()
	if err := d.Begin(ctx, s); err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := d.Set(s.ID(), nil, &yes, false); err != nil {
		t.Fatal(err)
	}
	if !waitFor(5*time.Second, func() bool { return held(d, s.ID()) }) {
		t.Fatal("the driver did not take the lease")
	}
	time.Sleep(Step * 2) // a beat under way ends
	paused := s.Status().Entries
	busy.busy.Store(true)
	if !waitFor(4*renewEvery+5*time.Second, func() bool { return !held(d, s.ID()) }) {
		t.Fatal("the driver holds a lease it could not renew")
	}
	if _, err := d.Set(s.ID(), nil, nil, true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(renewEvery)
	if n := s.Status().Entries; n != paused {
		t.Fatalf("a step was played without the lease: %d answers, %d before", n, paused)
	}
	busy.busy.Store(false)
	if !waitFor(4*renewEvery+5*time.Second, func() bool { return s.Status().Entries > paused }) {
		t.Fatal("the step asked while the store was busy was not played once it answered")
	}
}
