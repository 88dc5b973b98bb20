package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gopoly/gopoly/session"
)

// TestPostgresFeed: an append committed through one store (another
// process's) is heard by a store following the same schema, with the
// session and its new length; a refused append is not heard; a store of
// another schema hears nothing.
func TestPostgresFeed(t *testing.T) {
	dsn := pgSchema(t, postgresDSN(t))
	open := func(dsn string) session.Store {
		s, err := Open(t.Context(), Options{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	writer, reader := open(dsn), open(dsn)
	other := open(pgSchema(t, postgresDSN(t)))
	follow := func(s session.Store) <-chan session.Change {
		feed, ok := s.(session.Feed)
		if !ok {
			t.Fatal("the PostgreSQL store has no feed")
		}
		ch := make(chan session.Change, 16)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- feed.Follow(ctx, func(c session.Change) { ch <- c }) }()
		// Once it listens, the feed says changes may have been missed.
		select {
		case c := <-ch:
			if c != (session.Change{}) {
				t.Fatalf("first change %+v, want the empty one", c)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the feed did not start in 10s")
		}
		t.Cleanup(func() {
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("Follow ended with %v, want context.Canceled", err)
			}
		})
		return ch
	}
	heard, heardElsewhere := follow(reader), follow(other)
	rec := session.Record{ID: "fed", Version: 1, Setup: json.RawMessage(`{}`), Tokens: json.RawMessage(`{}`)}
	if err := writer.Create(t.Context(), rec, nil); err != nil {
		t.Fatal(err)
	}
	expect := func(want session.Change) {
		t.Helper()
		select {
		case c := <-heard:
			if c != want {
				t.Fatalf("heard %+v, want %+v", c, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%+v not heard in 10s", want)
		}
	}
	expect(session.Change{ID: "fed", Entries: 0})
	entry := session.Entry{Seat: 0, Action: json.RawMessage(`{"kind":"roll"}`), By: "bot:x"}
	if err := writer.Append(t.Context(), "fed", 0, []session.Entry{entry}, session.Status{}); err != nil {
		t.Fatal(err)
	}
	expect(session.Change{ID: "fed", Entries: 1})
	if err := writer.Append(t.Context(), "fed", 0, []session.Entry{entry}, session.Status{}); !errors.Is(err, session.ErrConflict) {
		t.Fatalf("an append at 0 of 1 entry: %v, want ErrConflict", err)
	}
	if err := writer.Append(t.Context(), "fed", 1, []session.Entry{entry, entry}, session.Status{}); err != nil {
		t.Fatal(err)
	}
	// Had the refused append been announced, it would be heard first.
	expect(session.Change{ID: "fed", Entries: 3})
	select {
	case c := <-heardElsewhere:
		t.Errorf("a store of another schema heard %+v", c)
	default:
	}
}

// TestParseChange: notifications other than "ID ENTRIES" are ignored.
func TestParseChange(t *testing.T) {
	for payload, want := range map[string]bool{"abc 12": true, "abc": false, " 12": false, "abc x": false, "": false} {
		c, ok := parseChange(payload)
		if ok != want {
			t.Errorf("parseChange(%q): %v, want %v", payload, ok, want)
		}
		if ok && (c.ID != "abc" || c.Entries != 12) {
			t.Errorf("parseChange(%q) = %+v", payload, c)
		}
	}
}

// TestPoolSize: pool_max_conns sets the pool and is not sent to the
// server; a bad value is refused.
func TestPoolSize(t *testing.T) {
	dsn, n, err := poolSize("postgres://u@h/db?pool_max_conns=3&search_path=s")
	if err != nil || n != 3 || dsn != "postgres://u@h/db?search_path=s" {
		t.Errorf("poolSize: %q, %d, %v", dsn, n, err)
	}
	if _, n, err := poolSize("postgres://u@h/db"); err != nil || n != DefaultMaxConns {
		t.Errorf("poolSize without the parameter: %d, %v", n, err)
	}
	for _, bad := range []string{"0", "x", "-2", ""} {
		if _, _, err := poolSize("postgres://u@h/db?pool_max_conns=" + bad); err == nil {
			t.Errorf("pool_max_conns=%q: no error", bad)
		}
	}
}
