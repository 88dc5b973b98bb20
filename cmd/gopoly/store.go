package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// storeFlags are the flags of the commands that keep sessions: where the
// store is.
type storeFlags struct {
	data, db string
}

// register adds --data and --db to cmd.
func (f *storeFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.data, "data", "", "data directory of the session store (default: $GOPOLY_HOME, else $XDG_DATA_HOME/gopoly, else ~/.local/share/gopoly)")
	cmd.Flags().StringVar(&f.db, "db", "", "keep sessions in PostgreSQL instead: a postgres://... DSN (?pool_max_conns=N: at most N connections, default 8)")
}

// open opens the store and a manager of its sessions; close releases
// them. A store that cannot be opened is bad input (exit 2) when the
// flags name one that cannot be, such as an unsupported DSN.
func (f *storeFlags) open(ctx context.Context, cmd *cobra.Command) (m *session.Manager, close func(), err error) {
	return f.openWith(ctx, cmd, session.Options{})
}

// with opens the store, runs fn with a manager of its sessions, and
// closes the store.
func (f *storeFlags) with(cmd *cobra.Command, fn func(m *session.Manager) error) error {
	m, done, err := f.open(cmd.Context(), cmd)
	if err != nil {
		return err
	}
	defer done()
	return fn(m)
}

// openWith is open with a manager of options mo, such as the research
// view that replay --thoughts needs.
// Its sessions' exports are signed, and imports checked, with the data
// directory's key, whichever store keeps the sessions.
func (f *storeFlags) openWith(ctx context.Context, cmd *cobra.Command, mo session.Options) (m *session.Manager, close func(), err error) {
	dir, err := f.dataDir(cmd)
	if err != nil {
		return nil, nil, err
	}
	if mo.Key, err = session.LoadKey(dir); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cmdName(cmd), err)
	}
	st, err := store.Open(ctx, f.options())
	if err != nil {
		err = fmt.Errorf("%s: %s: %w", cmdName(cmd), f.describe(), err)
		if f.db != "" || f.data != "" {
			err = usageErr(err) // the store the flags name cannot be opened
		}
		return nil, nil, err
	}
	return session.NewManager(st, mo), func() { st.Close() }, nil
}

// follow keeps m's open sessions up with what other processes commit to
// its store (a PostgreSQL store's feed), until ctx ends. A feed that
// cannot start is a warning, not a failure: this process still serves,
// and a session that falls behind is refused its next append and
// reopened.
func follow(ctx context.Context, cmd *cobra.Command, m *session.Manager) {
	go func() {
		if err := m.Follow(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: warning: not following other processes' changes: %v\n", cmdName(cmd), err)
		}
	}()
}

func (f *storeFlags) options() store.Options { return store.Options{DataDir: f.data, DSN: f.db} }

// dataDir is the data directory, where the interactive front ends keep
// what is not a session (experiments, Monopoly Deal records) whichever
// store keeps the sessions.
func (f *storeFlags) dataDir(cmd *cobra.Command) (string, error) {
	if f.data != "" {
		return f.data, nil
	}
	d, err := store.DefaultDataDir()
	if err != nil {
		return "", fmt.Errorf("%s: %w", cmdName(cmd), err)
	}
	return d, nil
}

// openLab opens the experiments run in the background by the interactive
// front ends: in the data directory's experiments/, seating the bots of
// players, the front end's registry.
func (f *storeFlags) openLab(cmd *cobra.Command, players arena.Registry) (*lab.Manager, error) {
	dir, err := f.dataDir(cmd)
	if err != nil {
		return nil, err
	}
	m, err := lab.NewManager(filepath.Join(dir, "experiments"), 0, players)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdName(cmd), err)
	}
	return m, nil
}

// describe names the store for messages, without secrets.
func (f *storeFlags) describe() string { return store.Describe(f.options()) }

// flags gives the flags that select the same store again, for the hints
// commands print; a DSN is not repeated, since it may hold a password.
func (f *storeFlags) flags() string {
	switch {
	case f.db != "":
		return "--db DSN"
	case f.data != "":
		return "--data " + shellQuote(f.data)
	}
	return ""
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
