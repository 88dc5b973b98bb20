package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/conformance"
)

func newConformanceCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "conformance PATH...",
		Short: "Run rules scenarios (YAML files or directories) against the engine",
		Long: `Runs every rules scenario given (directories recursively), printing PASS or
FAIL per scenario and a last line "N passed, N failed". Exits 1 if any
failed and 2 if a file could not be read or parsed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			failed, bad := conformance.RunPaths(cmd.OutOrStdout(), args)
			switch {
			case bad:
				return &exitError{code: 2, err: errors.New("")}
			case failed > 0:
				return &exitError{code: 1, err: errors.New("")}
			}
			return nil
		},
	}
}
