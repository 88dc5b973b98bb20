package session_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// eachShared runs test on two handles of one store, on each backend, as
// two processes sharing it have; feed says the store tells one handle of
// the other's changes.
func eachShared(t *testing.T, test func(t *testing.T, a, b session.Store, feed bool)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		open := func() session.Store {
			st, err := store.Open(ctx, store.Options{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}
		test(t, open(), open(), false)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgSchemaDSN(t, postgresDSN(t))
		test(t, openDSN(t, dsn), openDSN(t, dsn), true)
	})
}

// TestSyncAcrossManagers: a game played in one process is caught up in
// another that holds it open (by the feed, or Sync where there is none),
// its watchers told, and that process's next answer is accepted rather
// than refused as a conflict.
func TestSyncAcrossManagers(t *testing.T) {
	eachShared(t, func(t *testing.T, a, b session.Store, feed bool) {
		ma, mb := session.NewManager(a, session.Options{}), session.NewManager(b, session.Options{})
		sa, err := ma.Create(ctx, setup(7, "human,baseline,baseline"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sa.Advance(ctx, 0); err != nil {
			t.Fatal(err)
		}
		sb, err := mb.Open(ctx, sa.ID())
		if err != nil {
			t.Fatal(err)
		}
		changed, stop := sb.Subscribe()
		defer stop()
		fctx, cancel := context.WithCancel(ctx)
		followed := make(chan error, 1)
		go func() { followed <- mb.Follow(fctx) }()
		defer func() {
			cancel()
			if err := <-followed; err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("Follow: %v", err)
			}
		}()

		stands := map[int]agent.Agent{0: stand(t, "baseline", 7, 0)}
		playThrough(t, sa, stands, 5)
		want := sa.Status()
		if feed {
			deadline := time.After(10 * time.Second)
			for sb.Status().Entries < want.Entries {
				select {
				case <-changed:
				case <-deadline:
					t.Fatalf("after 10s the other process holds %d answers, want %d", sb.Status().Entries, want.Entries)
				}
			}
		} else {
			if err := sb.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			select {
			case <-changed:
			default:
				t.Error("Sync caught up without telling the watchers")
			}
		}
		got := sb.Status()
		if got.Entries != want.Entries || got.Digest != want.Digest {
			t.Fatalf("the other process: %d answers, digest %s; want %d, %s", got.Entries, got.Digest, want.Entries, want.Digest)
		}
		// Its next answer continues the stored log.
		playThrough(t, sb, stands, 1)
		if err := sa.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if sa.Status().Digest != sb.Status().Digest {
			t.Error("the first process did not catch up with the second's answer")
		}
	})
}
