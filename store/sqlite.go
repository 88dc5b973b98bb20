package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteSync is the synchronous pragma of SQLite stores.
//
// A process killed at any moment must lose no acknowledged answer, and
// with WAL both FULL and NORMAL give that: the commit is in the OS's page
// cache before Append returns. They differ on power loss or a kernel
// crash, which NORMAL may roll back to some earlier commits and FULL does
// not, since FULL fsyncs the WAL at every commit. FULL is chosen because
// it stays well within the 3 ms p99 budget of an answer at the table: on
// the 2-core development machine (ext4 on a virtual disk), an Append of 4
// entries took 0.30 ms/op with a p99 of 0.57-0.87 ms under FULL, against
// 0.09 ms/op and a p99 of 0.40 ms under NORMAL (BenchmarkAppend in
// bench_test.go, three runs). A disk whose fsync is much slower than that
// is the case to measure again.
const sqliteSync = "FULL"

// busyTimeoutMS is how long a connection waits for another one (of this
// process or another) to release the write lock. Writes are short, so
// waiting this long means something is stuck rather than busy.
const busyTimeoutMS = 10000

// lockFile is the file a process locks while it migrates the schema of a
// data directory.
const lockFile = "gopoly.lock"

// openSQLite opens the SQLite store in dir with the given synchronous
// pragma (a parameter only so that benchmarks can compare the modes).
func openSQLite(ctx context.Context, dir, sync string, logger *slog.Logger) (*db, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: data directory: %w", err)
	}
	path := filepath.Join(dir, dbFile)
	// Two processes opening a new data directory at once would both run
	// the first migration and one would fail on the tables the other made
	// (goose has no SQLite locker, and a SQLite lock cannot be held on the
	// connection goose migrates with), and the first connection's switch
	// to WAL takes a lock for which SQLite may answer SQLITE_BUSY at once
	// rather than wait: a file lock keeps both in turn.
	unlock, err := lockDir(filepath.Join(dir, lockFile))
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", dir, err)
	}
	defer unlock()
	sdb, err := sql.Open("sqlite", sqliteDSN(path, sync))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Writers queue on SQLite's single write lock anyway; a few
	// connections let reads (WAL readers do not block) proceed meanwhile.
	sdb.SetMaxOpenConns(8)
	sdb.SetMaxIdleConns(4)
	if err := sdb.PingContext(ctx); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := migrate(ctx, sdb, goose.DialectSQLite3, nil, logger); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	logger.Debug("store: opened", "store", "sqlite "+path, "synchronous", sync)
	return &db{
		sql: sdb,
		d: dialect{
			readTx: &sql.TxOptions{ReadOnly: true},
			unique: sqliteUnique,
			// julianday's days since noon of 24 November 4714 BC, moved to
			// the Unix epoch; a double, exact to about a millisecond.
			now: `CAST((julianday('now') - 2440587.5) * 86400000000000.0 AS INTEGER)`,
		},
	}, nil
}

// sqliteDSN is the modernc.org/sqlite DSN of the database at path.
func sqliteDSN(path, sync string) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeoutMS))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", sync)
	// SQLite leaves foreign keys off unless asked, on every connection;
	// the entries of a deleted session go by ON DELETE CASCADE.
	q.Set("_foreign_keys", "1")
	// A deferred transaction that reads and then writes cannot wait for
	// the write lock (SQLITE_BUSY at once, whatever the busy timeout, once
	// another writer committed after its read): write transactions take
	// the lock when they begin. Read-only ones stay deferred.
	q.Set("_txlock", "immediate")
	// A file: URI so that any character of the path (even ? or #) is
	// escaped rather than taken for the start of the parameters.
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

// sqliteUnique reports whether err is a primary key or unique violation.
func sqliteUnique(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code()
	return c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || c == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}
