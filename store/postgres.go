package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/url"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// DefaultMaxConns is how many connections to PostgreSQL a store opens at
// most, unless its DSN says otherwise (pool_max_conns=N, the name pgxpool
// gives it); the feed's listening connection is one more. The server's
// max_connections (100 by default) is shared by every process of every
// client: ten processes of this many fill it. Requests beyond it wait for
// a connection rather than fail.
const DefaultMaxConns = 8

// poolParam is the DSN parameter that sets the pool's size; it is the
// store's, not sent to the server.
const poolParam = "pool_max_conns"

// openPostgres opens the PostgreSQL store at dsn. The DSN may name a
// schema through search_path (postgres://.../db?search_path=s): the store's
// tables then live in that schema.
func openPostgres(ctx context.Context, dsn string, logger *slog.Logger) (*pgdb, error) {
	r := newRedactor(dsn)
	desc := describePostgres(dsn)
	fail := func(err error) error {
		return r.wrap(fmt.Errorf("store: postgres %s: %w", desc, err))
	}
	dsn, conns, err := poolSize(dsn)
	if err != nil {
		return nil, fail(err)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fail(err)
	}
	// database/sql rather than pgxpool: goose migrates through a *sql.DB,
	// and one implementation serves both backends.
	sdb := stdlib.OpenDB(*cfg)
	sdb.SetMaxOpenConns(conns)
	sdb.SetMaxIdleConns(conns)
	if err := sdb.PingContext(ctx); err != nil {
		sdb.Close()
		return nil, fail(err)
	}
	where, err := pgWhere(ctx, sdb)
	if err != nil {
		sdb.Close()
		return nil, fail(err)
	}
	locker, err := pgLocker(where)
	if err != nil {
		sdb.Close()
		return nil, fail(err)
	}
	if err := migrate(ctx, sdb, goose.DialectPostgres, locker, logger); err != nil {
		sdb.Close()
		return nil, fail(err)
	}
	logger.Debug("store: opened", "store", "postgres "+desc)
	return &pgdb{db: &db{
		sql: sdb,
		d: dialect{
			dollar:  true,
			lockRow: " FOR UPDATE",
			// Load reads the record and then the log: without one snapshot
			// for both, an append committed in between would show entries
			// the record does not count.
			readTx: &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
			unique: pgUnique,
			// clock_timestamp, not now(): now() is the transaction's start,
			// and a lease is judged at the moment it is asked for.
			now:     `(extract(epoch from clock_timestamp()) * 1000000000)::bigint`,
			channel: pgChannel(where),
		},
		redact: r,
	}, conn: cfg}, nil
}

// pgWhere names the database and schema sdb works in: what a lock or a
// channel of one store (and not of another schema's) is named after.
func pgWhere(ctx context.Context, sdb *sql.DB) (string, error) {
	var where string
	err := sdb.QueryRowContext(ctx, `SELECT current_database() || '.' || coalesce(current_schema(), '')`).Scan(&where)
	return where, err
}

// pgHash is a 64-bit hash of what, in a namespace of its own.
func pgHash(namespace, what string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(namespace + " " + what))
	return h.Sum64()
}

// pgLocker returns goose's advisory-lock locker for the database and
// schema where (pgWhere). The lock id is derived from them because the
// lock is database-wide: stores in different schemas (as tests make)
// need not wait for each other's migrations.
func pgLocker(where string) (lock.SessionLocker, error) {
	// Retry every second for up to five minutes: a migration holding the
	// lock is short, a longer wait means a stuck process to look at.
	return lock.NewPostgresSessionLocker(lock.WithLockID(int64(pgHash("gopoly store migrations", where))), lock.WithLockTimeout(1, 300))
}

// pgUnique reports whether err is a unique violation (SQLSTATE 23505).
func pgUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// poolSize takes pool_max_conns out of dsn and returns its value, or
// DefaultMaxConns.
func poolSize(dsn string) (string, int, error) {
	u, err := url.Parse(dsn)
	if err != nil || !u.Query().Has(poolParam) {
		return dsn, DefaultMaxConns, nil // pgx says what is wrong with the DSN
	}
	q := u.Query()
	n, err := strconv.Atoi(q.Get(poolParam))
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("%s=%q: want a whole number from 1", poolParam, q.Get(poolParam))
	}
	q.Del(poolParam)
	u.RawQuery = q.Encode()
	return u.String(), n, nil
}
