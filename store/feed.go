package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gopoly/gopoly/session"
)

// pgdb is the PostgreSQL store: the shared implementation, and the feed
// of changes that LISTEN/NOTIFY makes cross-process.
type pgdb struct {
	*db
	conn *pgx.ConnConfig // the listening connection's configuration
}

var _ session.Feed = (*pgdb)(nil)

// pgChannel is the channel a store's appends are announced on: one per
// database and schema, as the store is, so that stores in other schemas
// of the same server are not heard.
func pgChannel(where string) string {
	return fmt.Sprintf("gopoly_%016x", pgHash("gopoly store changes", where))
}

// Reconnecting after a lost listening connection waits from
// followRetryMin, doubling to followRetryMax.
const (
	followRetryMin = 100 * time.Millisecond
	followRetryMax = 5 * time.Second
)

// Follow implements session.Feed, on a connection of its own (one per
// process: it waits in WaitForNotification, and the pool's connections
// stay free for queries). Once it listens, and again after a connection
// lost is made again, f is told that changes may have been missed: those
// committed before LISTEN took effect. Only a failure to make the first
// connection ends it with an error: the DSN or the server is wrong, and
// retrying would hide it.
func (s *pgdb) Follow(ctx context.Context, f func(session.Change)) error {
	wait := followRetryMin
	for first := true; ; first = false {
		err := s.listen(ctx, f)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case first && errors.Is(err, errNotListening):
			return s.fail("follow", err)
		case err == nil:
			wait = followRetryMin // it listened for a while: reconnect at once
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, followRetryMax)
	}
}

// errNotListening marks a failure before LISTEN took effect.
var errNotListening = errors.New("could not listen")

// listen listens on one connection until it fails, calling f for every
// notification, after a first call that says changes may have been
// missed. It returns nil once it has listened, whatever ended it, and
// errNotListening wrapped if it never did.
func (s *pgdb) listen(ctx context.Context, f func(session.Change)) error {
	conn, err := pgx.ConnectConfig(ctx, s.conn)
	if err != nil {
		return fmt.Errorf("%w: %w", errNotListening, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.d.channel}.Sanitize()); err != nil {
		return fmt.Errorf("%w: %w", errNotListening, err)
	}
	f(session.Change{})
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return nil
		}
		if c, ok := parseChange(n.Payload); ok {
			f(c)
		}
	}
}

// parseChange reads a notification's payload, "ID ENTRIES" (announce).
func parseChange(payload string) (session.Change, bool) {
	id, n, ok := strings.Cut(payload, " ")
	entries, err := strconv.Atoi(n)
	if !ok || id == "" || err != nil {
		return session.Change{}, false
	}
	return session.Change{ID: id, Entries: entries}, true
}
