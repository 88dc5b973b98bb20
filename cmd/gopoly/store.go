package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

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
	cmd.Flags().StringVar(&f.db, "db", "", "keep sessions in PostgreSQL instead: a postgres://... DSN")
}

// open opens the store and a manager of its sessions; close releases
// them. A store that cannot be opened is bad input (exit 2) when the
// flags name one that cannot be, such as an unsupported DSN.
func (f *storeFlags) open(ctx context.Context, cmd *cobra.Command) (m *session.Manager, close func(), err error) {
	o := store.Options{DataDir: f.data, DSN: f.db}
	st, err := store.Open(ctx, o)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %w", cmdName(cmd), store.Describe(o), err)
	}
	return session.NewManager(st, session.Options{}), func() { st.Close() }, nil
}
