package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gopoly/gopoly/session"
)

var (
	_ session.Leases  = (*db)(nil)
	_ session.Secrets = (*db)(nil)
	_ session.Paces   = (*db)(nil)
)

// Lease implements session.Leases. One statement takes a free or expired
// lease, renews the owner's own and leaves another's alone: the row's lock
// makes two processes asking at once take turns, and the second sees the
// first's lease.
func (s *db) Lease(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	op := fmt.Sprintf("lease %q for %q", name, owner)
	if owner == "" || ttl <= 0 {
		return false, s.fail(op, errors.New("a lease needs an owner and a positive duration"))
	}
	var took bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO leases (name, owner, expires) VALUES (?, ?, `+s.d.now+` + ?)
			ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
			WHERE leases.owner = excluded.owner OR leases.expires < `+s.d.now),
			name, owner, int64(ttl))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		took = n > 0
		return err
	})
	if err != nil {
		return false, s.fail(op, err)
	}
	return took, nil
}

// Release implements session.Leases.
func (s *db) Release(ctx context.Context, name, owner string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q(`DELETE FROM leases WHERE name = ? AND owner = ?`), name, owner)
		return err
	})
	if err != nil {
		return s.fail(fmt.Sprintf("release lease %q of %q", name, owner), err)
	}
	return nil
}

// Secret implements session.Secrets. The first process to ask stores a
// random one; any other that asks at the same time keeps the first's
// (the insert does nothing) and reads it.
func (s *db) Secret(ctx context.Context, name string) ([]byte, error) {
	op := fmt.Sprintf("secret %q", name)
	var fresh [32]byte
	rand.Read(fresh[:])
	var value string
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`),
			name, hex.EncodeToString(fresh[:])); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, s.q(`SELECT value FROM secrets WHERE name = ?`), name).Scan(&value)
	})
	if err != nil {
		return nil, s.fail(op, err)
	}
	b, err := hex.DecodeString(value)
	if err != nil {
		return nil, s.fail(op, fmt.Errorf("stored value: %w", err))
	}
	return b, nil
}

// SetPace implements session.Paces, in one transaction: the row is made
// or changed, then read back.
func (s *db) SetPace(ctx context.Context, name string, speed *float64, paused *bool, step bool) (session.Paced, error) {
	var p session.Paced
	steps := 0
	if step {
		steps = 1
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO paces (name, speed, paused, steps) VALUES (?, COALESCE(?, 1.0), COALESCE(?, FALSE), ?)
			ON CONFLICT (name) DO UPDATE SET speed = COALESCE(?, paces.speed), paused = COALESCE(?, paces.paused), steps = paces.steps + ?`),
			name, speed, paused, steps, speed, paused, steps)
		if err != nil {
			return err
		}
		p, err = scanPace(tx.QueryRowContext(ctx, s.q(`SELECT speed, paused, steps FROM paces WHERE name = ?`), name))
		return err
	})
	if err != nil {
		return session.Paced{}, s.fail(fmt.Sprintf("set pace %q", name), err)
	}
	return p, nil
}

// Pace implements session.Paces.
func (s *db) Pace(ctx context.Context, name string) (session.Paced, bool, error) {
	p, err := scanPace(s.sql.QueryRowContext(ctx, s.q(`SELECT speed, paused, steps FROM paces WHERE name = ?`), name))
	if errors.Is(err, sql.ErrNoRows) {
		return session.Paced{}, false, nil
	}
	if err != nil {
		return session.Paced{}, false, s.fail(fmt.Sprintf("pace %q", name), err)
	}
	return p, true, nil
}

// scanPace reads a paces row's speed, paused and steps.
func scanPace(r scanner) (session.Paced, error) {
	var p session.Paced
	err := r.Scan(&p.Speed, &p.Paused, &p.Steps)
	return p, err
}

// announce tells the processes following the store that session id's log
// now holds entries answers. PostgreSQL delivers the notification when tx
// commits, and not at all if it rolls back: a listener never hears of an
// answer that is not stored.
func (s *db) announce(ctx context.Context, tx *sql.Tx, id string, entries int) error {
	if s.d.channel == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, s.d.channel, id+" "+strconv.Itoa(entries))
	return err
}
