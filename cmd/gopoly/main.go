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
	// Cobra calls this once it has parsed the command line and checked
	// its arguments, just before the command runs (no subcommand has
	// one of its own, which would replace it).
	PersistentPreRun: func(*cobra.Command, []string) { commandStarted = true },
}

// commandStarted tells the errors of a command from those cobra finds in
// the command line before any command starts.
var commandStarted bool

// execute runs the command line. An error in the command line itself (an
// unknown command or flag, a flag value that does not parse, a wrong
// number of arguments) is bad input, exit 2, as the commands' own checks
// of their input are.
func execute() error {
	commandStarted = false
	err := rootCmd.Execute()
	var ee *exitError
	if err != nil && !commandStarted && !errors.As(err, &ee) {
		err = usageErr(err)
	}
	return err
}

func main() {
	if err := execute(); err != nil {
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
