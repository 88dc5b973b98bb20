package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gopoly/gopoly/session"
)

// dialect is what differs between the two backends.
type dialect struct {
	// dollar says the driver wants $1, $2... instead of ?.
	dollar bool
	// lockRow is appended to the SELECT that starts an append: PostgreSQL
	// needs FOR UPDATE to serialize appends to one session, SQLite already
	// holds the database's write lock (transactions begin IMMEDIATE).
	lockRow string
	// readTx are the options of read transactions: read-only, so that
	// SQLite begins them DEFERRED (as a reader, beside the writer) and not
	// IMMEDIATE like writes; PostgreSQL must also be asked for one snapshot
	// for all their statements.
	readTx *sql.TxOptions
	// unique reports whether err is a primary key violation.
	unique func(err error) bool
	// now is the database's clock in nanoseconds since the Unix epoch, an
	// SQL expression: leases expire by it, so that the processes' clocks
	// need not agree.
	now string
	// channel is the channel every append is announced on (PostgreSQL's
	// NOTIFY, sent at commit); empty: none (SQLite).
	channel string
}

// db is session.Store on database/sql, for either dialect.
type db struct {
	sql    *sql.DB
	d      dialect
	redact redactor
}

var _ session.Store = (*db)(nil)

// entryCols is the number of columns of an entries row, which bounds how
// many rows one INSERT may carry (SQLite allows 32766 parameters,
// PostgreSQL 65535).
const entryCols = 9

// insertChunk is the number of entries per INSERT statement: its
// insertChunk*entryCols parameters stay far under both limits.
const insertChunk = 500

// q returns query rebound for the dialect. Queries are written with ? and
// contain no ? in literals; rebinding on every call costs far less than
// the round trip it precedes.
func (s *db) q(query string) string {
	if !s.d.dollar {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fail returns err as a store error about op, without secrets.
func (s *db) fail(op string, err error) error {
	return s.redact.wrap(fmt.Errorf("store: %s: %w", op, err))
}

// sessionCols are the columns of a sessions row, in the order scanRecord
// reads them.
const sessionCols = `id, version, setup, tokens, parent, created,
	updated, entries, digest, turn, round, "over", winner, waiting, summary`

// Create implements session.Store. The stored Status.Entries is the
// length of log whatever rec says, so that the count Append checks can
// never disagree with the log.
func (s *db) Create(ctx context.Context, rec session.Record, log []session.Entry) error {
	op := fmt.Sprintf("create session %q", rec.ID)
	rec.Status.Entries = len(log)
	created, err := nanos(rec.Created)
	if err != nil {
		return s.fail(op, err)
	}
	updated, err := nanos(rec.Status.Updated)
	if err != nil {
		return s.fail(op, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, s.q(`SELECT 1 FROM sessions WHERE id = ?`), rec.ID).Scan(&one)
		if err == nil {
			return session.ErrExists
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		st := rec.Status
		_, err = tx.ExecContext(ctx, s.q(`INSERT INTO sessions (`+sessionCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			rec.ID, rec.Version, text(rec.Setup), text(rec.Tokens), rec.Parent, created,
			updated, st.Entries, st.Digest, st.Turn, st.Round, st.Over, st.Winner, st.Waiting, st.Summary)
		if err != nil {
			if s.d.unique(err) {
				// Another process created it between the check and the
				// insert (PostgreSQL does not lock absent rows).
				return session.ErrExists
			}
			return err
		}
		if err := s.insertEntries(ctx, tx, rec.ID, 0, log); err != nil {
			return err
		}
		return s.announce(ctx, tx, rec.ID, len(log))
	})
	if err != nil {
		return s.fail(op, err)
	}
	return nil
}

// Append implements session.Store. As in Create, the stored
// Status.Entries is the real length of the log (from+len(entries)).
func (s *db) Append(ctx context.Context, id string, from int, entries []session.Entry, st session.Status) error {
	op := fmt.Sprintf("append to session %q at %d", id, from)
	st.Entries = from + len(entries)
	updated, err := nanos(st.Updated)
	if err != nil {
		return s.fail(op, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		// The entries column, not a count of the entries table, is the
		// stored length: it is kept equal to it by every write, reading it
		// costs nothing however long the log, and on PostgreSQL reading it
		// FOR UPDATE is what makes racing appends take turns.
		var n int
		err := tx.QueryRowContext(ctx, s.q(`SELECT entries FROM sessions WHERE id = ?`+s.d.lockRow), id).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return session.ErrNotFound
		}
		if err != nil {
			return err
		}
		if n != from {
			return fmt.Errorf("the stored log holds %d entries: %w", n, session.ErrConflict)
		}
		if err := s.insertEntries(ctx, tx, id, from, entries); err != nil {
			if s.d.unique(err) {
				// Unreachable while every writer takes the lock above; kept
				// so a writer that does not still cannot duplicate seqs
				// silently.
				return fmt.Errorf("%w (%v)", session.ErrConflict, err)
			}
			return err
		}
		_, err = tx.ExecContext(ctx, s.q(`UPDATE sessions SET updated = ?, entries = ?, digest = ?,
			turn = ?, round = ?, "over" = ?, winner = ?, waiting = ?, summary = ? WHERE id = ?`),
			updated, st.Entries, st.Digest, st.Turn, st.Round, st.Over, st.Winner, st.Waiting, st.Summary, id)
		if err != nil {
			return err
		}
		return s.announce(ctx, tx, id, st.Entries)
	})
	if err != nil {
		return s.fail(op, err)
	}
	return nil
}

// insertEntries inserts entries as seqs from, from+1, ... in few
// statements: one round trip per entry would dominate an append to a
// remote PostgreSQL.
func (s *db) insertEntries(ctx context.Context, tx *sql.Tx, id string, from int, entries []session.Entry) error {
	for start := 0; start < len(entries); start += insertChunk {
		chunk := entries[start:min(start+insertChunk, len(entries))]
		var b strings.Builder
		b.WriteString(`INSERT INTO entries (session_id, seq, seat, action, speech, thought, "by", "at", research) VALUES `)
		args := make([]any, 0, len(chunk)*entryCols)
		for i, e := range chunk {
			at, err := nanos(e.At)
			if err != nil {
				return fmt.Errorf("entry %d: %w", from+start+i, err)
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, id, from+start+i, e.Seat, text(e.Action), e.Speech, e.Thought, e.By, at, string(e.Research))
		}
		if _, err := tx.ExecContext(ctx, s.q(b.String()), args...); err != nil {
			return err
		}
	}
	return nil
}

// Load implements session.Store.
func (s *db) Load(ctx context.Context, id string) (session.Record, []session.Entry, error) {
	return s.LoadFrom(ctx, id, 0)
}

// LoadFrom is Load with the log from entry from on (session.Feed). The
// record and the log are read in one transaction so that they agree even
// while another process appends.
func (s *db) LoadFrom(ctx context.Context, id string, from int) (session.Record, []session.Entry, error) {
	op := fmt.Sprintf("load session %q", id)
	if from > 0 {
		op = fmt.Sprintf("load session %q from %d", id, from)
	}
	if from < 0 {
		return session.Record{}, nil, s.fail(op, errors.New("a log starts at entry 0"))
	}
	var rec session.Record
	var log []session.Entry
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		rec, err = scanRecord(tx.QueryRowContext(ctx, s.q(`SELECT `+sessionCols+` FROM sessions WHERE id = ?`), id))
		if errors.Is(err, sql.ErrNoRows) {
			return session.ErrNotFound
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.q(`SELECT seat, action, speech, thought, "by", "at", research
			FROM entries WHERE session_id = ? AND seq >= ? ORDER BY seq`), id, from)
		if err != nil {
			return err
		}
		defer rows.Close()
		log = make([]session.Entry, 0, max(rec.Status.Entries-from, 0))
		for rows.Next() {
			var e session.Entry
			var action sql.NullString
			var at int64
			var research string
			if err := rows.Scan(&e.Seat, &action, &e.Speech, &e.Thought, &e.By, &at, &research); err != nil {
				return err
			}
			if research != "" {
				e.Research = json.RawMessage(research)
			}
			e.Action = raw(action)
			e.At = fromNanos(at)
			log = append(log, e)
		}
		return rows.Err()
	})
	if err != nil {
		return session.Record{}, nil, s.fail(op, err)
	}
	return rec, log, nil
}

// Entries is the length of session id's stored log (session.Feed).
func (s *db) Entries(ctx context.Context, id string) (int, error) {
	var n int
	err := s.sql.QueryRowContext(ctx, s.q(`SELECT entries FROM sessions WHERE id = ?`), id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		err = session.ErrNotFound
	}
	if err != nil {
		return 0, s.fail(fmt.Sprintf("entries of session %q", id), err)
	}
	return n, nil
}

// List implements session.Store.
func (s *db) List(ctx context.Context) ([]session.Record, error) {
	// Ties on updated fall back to created and then id so that a listing
	// is stable and the same on both backends.
	return queryAll(ctx, s, "list sessions", `SELECT `+sessionCols+` FROM sessions
		ORDER BY updated DESC, created DESC, id`, scanRecord)
}

// queryAll runs a query of many rows and scans each; op names it in errors.
func queryAll[T any](ctx context.Context, s *db, op, query string, scan func(scanner) (T, error)) ([]T, error) {
	rows, err := s.sql.QueryContext(ctx, query)
	if err != nil {
		return nil, s.fail(op, err)
	}
	defer rows.Close()
	var all []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, s.fail(op, err)
		}
		all = append(all, v)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(op, err)
	}
	return all, nil
}

// Delete implements session.Store. The entries go with their session by
// the foreign key's ON DELETE CASCADE.
func (s *db) Delete(ctx context.Context, id string) error {
	return s.deleteOne(ctx, fmt.Sprintf("delete session %q", id), `DELETE FROM sessions WHERE id = ?`, id)
}

// deleteOne runs a DELETE of one row by id, failing with
// session.ErrNotFound when there is none.
func (s *db) deleteOne(ctx context.Context, op, query, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(query), id)
		if err != nil {
			return err
		}
		return mustAffect(res)
	})
	if err != nil {
		return s.fail(op, err)
	}
	return nil
}

// SaveConfig implements session.Store.
func (s *db) SaveConfig(ctx context.Context, c session.Config) error {
	op := fmt.Sprintf("save config %q", c.ID)
	created, err := nanos(c.Created)
	if err != nil {
		return s.fail(op, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO configs (id, name, yaml, created) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, yaml = excluded.yaml, created = excluded.created`),
			c.ID, c.Name, c.YAML, created)
		return err
	})
	if err != nil {
		return s.fail(op, err)
	}
	return nil
}

// Config implements session.Store.
func (s *db) Config(ctx context.Context, id string) (session.Config, error) {
	c, err := scanConfig(s.sql.QueryRowContext(ctx, s.q(`SELECT id, name, yaml, created FROM configs WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		err = session.ErrNotFound
	}
	if err != nil {
		return session.Config{}, s.fail(fmt.Sprintf("config %q", id), err)
	}
	return c, nil
}

// Configs implements session.Store.
func (s *db) Configs(ctx context.Context) ([]session.Config, error) {
	return queryAll(ctx, s, "list configs", `SELECT id, name, yaml, created FROM configs ORDER BY id`, scanConfig)
}

// DeleteConfig implements session.Store.
func (s *db) DeleteConfig(ctx context.Context, id string) error {
	return s.deleteOne(ctx, fmt.Sprintf("delete config %q", id), `DELETE FROM configs WHERE id = ?`, id)
}

// Close implements session.Store.
func (s *db) Close() error {
	if err := s.sql.Close(); err != nil {
		return s.fail("close", err)
	}
	return nil
}

// write runs fn in a write transaction and commits it. On SQLite the
// commit is durable as configured by the synchronous pragma; on PostgreSQL
// as by synchronous_commit (on by default).
func (s *db) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// read runs fn in a read-only transaction.
func (s *db) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.sql.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return err
	}
	// A read-only transaction has nothing to commit: rolling it back is
	// how it ends, whatever fn did.
	defer tx.Rollback()
	return fn(tx)
}

// mustAffect turns a delete of nothing into ErrNotFound.
func mustAffect(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return session.ErrNotFound
	}
	return nil
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanRecord reads a row of sessionCols.
func scanRecord(r scanner) (session.Record, error) {
	var rec session.Record
	var setup, tokens sql.NullString
	var created, updated int64
	st := &rec.Status
	err := r.Scan(&rec.ID, &rec.Version, &setup, &tokens, &rec.Parent, &created,
		&updated, &st.Entries, &st.Digest, &st.Turn, &st.Round, &st.Over, &st.Winner, &st.Waiting, &st.Summary)
	if err != nil {
		return session.Record{}, err
	}
	rec.Setup, rec.Tokens = raw(setup), raw(tokens)
	rec.Created, st.Updated = fromNanos(created), fromNanos(updated)
	return rec, nil
}

// scanConfig reads a configs row.
func scanConfig(r scanner) (session.Config, error) {
	var c session.Config
	var created int64
	if err := r.Scan(&c.ID, &c.Name, &c.YAML, &created); err != nil {
		return session.Config{}, err
	}
	c.Created = fromNanos(created)
	return c, nil
}

// zeroNanos stands for the zero time.Time, whose UnixNano is undefined;
// being the smallest value, it also sorts a never-updated session last.
const zeroNanos = math.MinInt64

// Bounds of the times a store keeps: those whose UnixNano is defined.
var (
	minTime = time.Unix(0, math.MinInt64+1)
	maxTime = time.Unix(0, math.MaxInt64)
)

// nanos is t as stored.
func nanos(t time.Time) (int64, error) {
	if t.IsZero() {
		return zeroNanos, nil
	}
	if t.Before(minTime) || t.After(maxTime) {
		return 0, fmt.Errorf("time %v out of range (years 1678 to 2262)", t)
	}
	return t.UnixNano(), nil
}

// fromNanos is a stored time, in UTC.
func fromNanos(n int64) time.Time {
	if n == zeroNanos {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// text is JSON as stored: nil stays NULL so that it comes back nil.
func text(j json.RawMessage) any {
	if j == nil {
		return nil
	}
	return string(j)
}

// raw is stored JSON back.
func raw(s sql.NullString) json.RawMessage {
	if !s.Valid {
		return nil
	}
	return json.RawMessage(s.String)
}
