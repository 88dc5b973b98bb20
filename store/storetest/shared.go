package storetest

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gopoly/gopoly/session"
)

// tailer is the part of session.Feed a store may have without a feed.
type tailer interface {
	LoadFrom(ctx context.Context, id string, from int) (session.Record, []session.Entry, error)
}

// testLoadFrom: the tail of a log, with the record as it is now; a start
// before the log is refused.
func testLoadFrom(t *testing.T, s session.Store) {
	tail, ok := s.(tailer)
	if !ok {
		t.Skip("the store does not load a log's tail")
	}
	log := entries("bot:a", 0, 7)
	must(t, "Create", s.Create(ctx(t), record("tail", base), log))
	got, gotLog, err := tail.LoadFrom(ctx(t), "tail", 5)
	must(t, "LoadFrom", err)
	if got.Status.Entries != 7 {
		t.Errorf("LoadFrom: the record counts %d entries, want 7", got.Status.Entries)
	}
	checkLog(t, "LoadFrom(5)", gotLog, log[5:])
	_, gotLog, err = tail.LoadFrom(ctx(t), "tail", 7)
	must(t, "LoadFrom at the end", err)
	if len(gotLog) != 0 {
		t.Errorf("LoadFrom(7) of 7 entries: %d entries, want none", len(gotLog))
	}
	if _, _, err := tail.LoadFrom(ctx(t), "tail", -1); err == nil {
		t.Error("LoadFrom(-1): no error")
	}
	_, _, err = tail.LoadFrom(ctx(t), "nothing", 0)
	wantErr(t, "LoadFrom of a missing session", err, session.ErrNotFound)
}

// testLeases: one owner at a time; the owner renews; an expired lease or
// a released one goes to the next who asks; racing owners get it once.
func testLeases(t *testing.T, s session.Store) {
	l, ok := s.(session.Leases)
	if !ok {
		t.Skip("the store keeps no leases")
	}
	take := func(name, owner string, ttl time.Duration, want bool) {
		t.Helper()
		got, err := l.Lease(ctx(t), name, owner, ttl)
		must(t, "Lease", err)
		if got != want {
			t.Fatalf("Lease(%s, %s): %v, want %v", name, owner, got, want)
		}
	}
	take("g1", "a", time.Minute, true)
	take("g1", "b", time.Minute, false)
	take("g1", "a", time.Minute, true) // renewed
	take("g2", "b", time.Minute, true) // another lease is free
	must(t, "Release by another", l.Release(ctx(t), "g1", "b"))
	take("g1", "b", time.Minute, false) // b's release did not free a's lease
	must(t, "Release", l.Release(ctx(t), "g1", "a"))
	take("g1", "b", 300*time.Millisecond, true)
	take("g1", "a", time.Minute, false)
	time.Sleep(400 * time.Millisecond)
	take("g1", "a", time.Minute, true) // b's expired
	for _, bad := range []struct {
		owner string
		ttl   time.Duration
	}{{"", time.Minute}, {"c", 0}} {
		if _, err := l.Lease(ctx(t), "g3", bad.owner, bad.ttl); err == nil {
			t.Errorf("Lease(g3, %q, %v): no error", bad.owner, bad.ttl)
		}
	}
	take("g3", "c", time.Minute, true) // the refused ones took nothing

	// Racing owners: exactly one gets it.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 8 {
		wg.Go(func() {
			ok, err := l.Lease(ctx(t), "race", string(rune('a'+i)), time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Errorf("8 owners racing for a lease: %d got it, want 1", won)
	}
}

// testSecrets: a secret is made once, kept, and differs by name.
func testSecrets(t *testing.T, s session.Store) {
	sec, ok := s.(session.Secrets)
	if !ok {
		t.Skip("the store keeps no secrets")
	}
	a, err := sec.Secret(ctx(t), "csrf")
	must(t, "Secret", err)
	if len(a) != 32 {
		t.Fatalf("Secret: %d bytes, want 32", len(a))
	}
	again, err := sec.Secret(ctx(t), "csrf")
	must(t, "Secret again", err)
	if !bytes.Equal(a, again) {
		t.Error("Secret: a second call made another secret")
	}
	other, err := sec.Secret(ctx(t), "other")
	must(t, "Secret other", err)
	if bytes.Equal(a, other) {
		t.Error("Secret: two names share a secret")
	}
}

// testPaces: a pace starts at 1×, playing; each change keeps what it
// does not name; steps are counted.
func testPaces(t *testing.T, s session.Store) {
	ps, ok := s.(session.Paces)
	if !ok {
		t.Skip("the store keeps no paces")
	}
	if _, ok, err := ps.Pace(ctx(t), "g"); err != nil || ok {
		t.Fatalf("Pace of a game never paced: %v, %v", ok, err)
	}
	fast, yes := 2.5, true
	check := func(what string, got session.Paced, err error, want session.Paced) {
		t.Helper()
		must(t, what, err)
		if got != want {
			t.Errorf("%s: %+v, want %+v", what, got, want)
		}
	}
	p, err := ps.SetPace(ctx(t), "g", nil, nil, true)
	check("a first step", p, err, session.Paced{Speed: 1, Steps: 1})
	p, err = ps.SetPace(ctx(t), "g", &fast, nil, false)
	check("a speed", p, err, session.Paced{Speed: 2.5, Steps: 1})
	p, err = ps.SetPace(ctx(t), "g", nil, &yes, true)
	check("a pause and a step", p, err, session.Paced{Speed: 2.5, Paused: true, Steps: 2})
	p, ok, err = ps.Pace(ctx(t), "g")
	if !ok {
		t.Error("Pace: none after SetPace")
	}
	check("Pace", p, err, session.Paced{Speed: 2.5, Paused: true, Steps: 2})
}
