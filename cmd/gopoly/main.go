// Command gopoly plays Monopoly and Monopoly Deal with AI agents: single
// games in the terminal, fast bot-only simulation, rules conformance runs,
// and Monopoly Deal training and evaluation.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// exitError carries a process exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr marks an error as bad input (exit code 2).
func usageErr(err error) error { return &exitError{code: 2, err: err} }

var rootCmd = &cobra.Command{
	Use:           "gopoly",
	Short:         "AI agents playing Monopoly and Monopoly Deal",
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	if err := rootCmd.Execute(); err != nil {
		code := 1
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		if code != 0 && err.Error() != "" {
			fmt.Fprintln(os.Stderr, "gopoly:", err)
		}
		os.Exit(code)
	}
}
