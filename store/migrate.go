package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// migrations is the schema, one directory for both dialects: the SQL in it
// is portable, so a second copy would only be a chance to diverge.
//
//go:embed migrations/*.sql
var migrations embed.FS

// versionTable is goose's bookkeeping table, named for gopoly so that a
// PostgreSQL database shared with another goose user keeps both apart.
const versionTable = "gopoly_goose_version"

// migrate brings db's schema up to date. locker, if not nil, keeps two
// processes from migrating at once (PostgreSQL); SQLite callers hold a file
// lock around the call instead.
func migrate(ctx context.Context, db *sql.DB, d goose.Dialect, locker lock.SessionLocker, logger *slog.Logger) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	opts := []goose.ProviderOption{
		goose.WithTableName(versionTable),
		// Go migrations registered globally by some other package of the
		// binary are not ours to run.
		goose.WithDisableGlobalRegistry(true),
		goose.WithSlog(logger),
	}
	if locker != nil {
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(d, db, fsys, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, r := range results {
		logger.Info("store: schema migrated", "version", r.Source.Version, "took", r.Duration)
	}
	return nil
}
