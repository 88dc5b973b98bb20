// Package store keeps gopoly's sessions durably: it implements
// session.Store on an embedded SQLite database (the default, one file in a
// data directory) and on PostgreSQL (when given a postgres:// DSN).
//
// Both backends share one schema, created and upgraded by embedded goose
// migrations when a store is opened, and one implementation over
// database/sql: only the placeholders, the row locking and the error codes
// differ. Times are kept as nanoseconds since the Unix epoch in 64-bit
// integers, because PostgreSQL's timestamps stop at microseconds and SQLite
// has no time type at all; they come back in UTC.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopoly/gopoly/session"
)

// Options says where a store lives.
type Options struct {
	// DataDir is the directory of the SQLite database (gopoly.db), created
	// with mode 0700 if missing; empty means DefaultDataDir. It is not used
	// with a PostgreSQL DSN.
	DataDir string
	// DSN, when it starts with postgres:// or postgresql://, selects
	// PostgreSQL; empty selects SQLite in DataDir.
	DSN string
	// Logger receives the store's few messages (opening, migrations); nil
	// discards them.
	Logger *slog.Logger
}

// dbFile is the name of the SQLite database inside the data directory.
const dbFile = "gopoly.db"

// Open opens the store that o describes, creating it or upgrading its
// schema as needed. The store is safe for concurrent use, and several
// processes may open the same one.
func Open(ctx context.Context, o Options) (session.Store, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	switch {
	case isPostgres(o.DSN):
		return openPostgres(ctx, o.DSN, logger)
	case o.DSN != "":
		// Falling back to SQLite here would quietly put the sessions
		// somewhere other than where the user asked.
		return nil, errors.New("store: unsupported DSN: want postgres://... or postgresql://..., or none for SQLite")
	}
	dir, err := dataDir(o)
	if err != nil {
		return nil, err
	}
	return openSQLite(ctx, dir, sqliteSync, logger)
}

// DefaultDataDir returns where gopoly keeps its data when not told:
// $GOPOLY_HOME if set, else $XDG_DATA_HOME/gopoly, else
// ~/.local/share/gopoly.
func DefaultDataDir() (string, error) {
	if d := os.Getenv("GOPOLY_HOME"); d != "" {
		return d, nil
	}
	// The XDG spec says a relative XDG_DATA_HOME is invalid and must be
	// ignored, so a stray value cannot scatter data over working dirs.
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gopoly"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("store: no data directory: set GOPOLY_HOME: %w", err)
	}
	return filepath.Join(home, ".local", "share", "gopoly"), nil
}

// Describe names the store that o selects for messages, such as
// "sqlite /home/ann/.local/share/gopoly/gopoly.db" or
// "postgres db.example:5432/gopoly". It never includes a password.
func Describe(o Options) string {
	if isPostgres(o.DSN) {
		return "postgres " + describePostgres(o.DSN)
	}
	if o.DSN != "" {
		return "unsupported DSN"
	}
	dir, err := dataDir(o)
	if err != nil {
		return "sqlite (no data directory)"
	}
	return "sqlite " + filepath.Join(dir, dbFile)
}

// dataDir is o's SQLite directory, the default one if o has none.
func dataDir(o Options) (string, error) {
	if o.DataDir != "" {
		return o.DataDir, nil
	}
	return DefaultDataDir()
}

// isPostgres reports whether dsn selects PostgreSQL.
func isPostgres(dsn string) bool {
	l := strings.ToLower(dsn)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// describePostgres is host:port/database of a postgres URL, built from its
// parts rather than by cutting the password out of the string, so nothing
// secret can slip through an unusual spelling.
func describePostgres(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable DSN)"
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = "5432"
	}
	db := strings.TrimPrefix(u.Path, "/")
	if db == "" {
		db = u.User.Username()
	}
	return net.JoinHostPort(host, port) + "/" + db
}

// redactor removes a DSN's password from error messages: drivers quote
// connection strings in some of their errors, and store errors end up in
// logs and on screens.
type redactor struct{ secrets []string }

// newRedactor returns the redactor for dsn (one that does nothing when dsn
// has no password).
func newRedactor(dsn string) redactor {
	u, err := url.Parse(dsn)
	if err != nil {
		// An unparsable DSN may still hold a password somewhere: hide it
		// all rather than guess.
		return redactor{secrets: []string{dsn}}
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" {
		return redactor{}
	}
	return redactor{secrets: []string{pw, url.QueryEscape(pw), url.PathEscape(pw)}}
}

// wrap returns err with every secret in its message replaced; errors.Is
// and errors.As still see the original chain.
func (r redactor) wrap(err error) error {
	if err == nil || len(r.secrets) == 0 {
		return err
	}
	msg := err.Error()
	clean := msg
	for _, s := range r.secrets {
		if s != "" {
			clean = strings.ReplaceAll(clean, s, "xxxxx")
		}
	}
	if clean == msg {
		return err
	}
	return &redactedError{msg: clean, err: err}
}

// redactedError is an error whose message had a secret removed.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
