package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/session"
)

// newConfigsCmd returns gopoly configs: rules configs saved in the store
// under an id, for games to be played by (play --config ID).
func newConfigsCmd() *cobra.Command {
	var (
		sf     storeFlags
		asJSON bool
		name   string
	)
	cmd := &cobra.Command{
		Use:   "configs",
		Short: "List, save, show and delete saved rules configs",
		Long: `A config is a rules file kept in the session store under a short id, so
that games can be played by it with play --config ID. It is checked as a
rules file is when it is saved; a game made from it keeps its own copy,
so changing or deleting the config later changes no game.

  gopoly configs                        list them
  gopoly configs save ID FILE [--name]  save (or replace) one from a rules file
  gopoly configs show ID                print its YAML
  gopoly configs delete ID              delete it`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var cs []session.Config
			err := sf.with(cmd, func(m *session.Manager) (err error) {
				cs, err = m.Configs(cmd.Context())
				return err
			})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				type config struct {
					ID      string    `json:"id"`
					Name    string    `json:"name"`
					YAML    string    `json:"yaml"`
					Created time.Time `json:"created"`
				}
				list := []config{}
				for _, c := range cs {
					list = append(list, config{c.ID, c.Name, c.YAML, c.Created})
				}
				b, _ := json.MarshalIndent(list, "", "  ")
				fmt.Fprintf(out, "%s\n", b)
				return nil
			}
			if len(cs) == 0 {
				fmt.Fprintf(out, "No saved configs in %s; gopoly configs save ID FILE saves one.\n", sf.describe())
				return nil
			}
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tNAME\tSAVED")
			for _, c := range cs {
				fmt.Fprintf(w, "%s\t%s\t%s\n", c.ID, c.Name, c.Created.Local().Format("2006-01-02 15:04"))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the configs, YAML included, as a JSON array")
	sf.register(cmd)

	save := &cobra.Command{
		Use:   "save ID FILE",
		Short: "Save a rules file as a config (replacing one of the same id)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[1])
			if err != nil {
				return usageErr(err)
			}
			err = sf.with(cmd, func(m *session.Manager) error {
				if _, err := m.SaveConfig(cmd.Context(), args[0], name, string(data)); err != nil {
					return usageErr(fmt.Errorf("configs save: %s: %w", args[1], err))
				}
				return nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Saved config %s; play by it with: gopoly play --config %s\n", args[0], args[0])
			return nil
		},
	}
	save.Flags().StringVar(&name, "name", "", "a name for people, such as \"House rules\"")
	sf.register(save)

	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print a saved config's YAML",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sf.with(cmd, func(m *session.Manager) error {
				c, err := m.Config(cmd.Context(), args[0])
				if err != nil {
					return sf.lookupErr(cmd, "config", strconv.Quote(args[0]), err)
				}
				fmt.Fprint(cmd.OutOrStdout(), c.YAML)
				return nil
			})
		},
	}
	sf.register(show)

	del := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a saved config (games made from it keep their rules)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sf.with(cmd, func(m *session.Manager) error {
				return sf.lookupErr(cmd, "config", strconv.Quote(args[0]), m.DeleteConfig(cmd.Context(), args[0]))
			})
		},
	}
	sf.register(del)
	cmd.AddCommand(save, show, del)
	return cmd
}
