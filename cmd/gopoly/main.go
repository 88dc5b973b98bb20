// Command gopoly plays Monopoly and Monopoly Deal with AI agents: single
// games in the terminal, fast bot-only simulation, rules conformance runs,
// and Monopoly Deal training and evaluation.
//
// # Adding a command
//
// Every command is built by a constructor, newXxxCmd, that returns a new
// *cobra.Command with its flags bound to locals of the constructor (or of
// a struct it makes), never to package variables; newRootCmd calls each
// constructor, so that every call builds a command tree of its own and
// two trees share nothing. To add a command, write its constructor and
// add it to the list in newRootCmd (a subcommand to its parent's
// constructor, as newDealCmd does). A command writes to cmd.OutOrStdout()
// and cmd.ErrOrStderr() and reads cmd.InOrStdin(), never os.Stdout,
// os.Stderr or os.Stdin, so that execute can run it in process on buffers
// (see tree_test.go). It reports bad input with usageErr (exit 2) and other
// exit codes with exitError; cobra's own command-line errors are exit 2.
package main

import (
	"errors"
	"fmt"
	"io"
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

// newRootCmd returns a new gopoly command tree.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "gopoly",
		Short:         "AI agents playing Monopoly and Monopoly Deal",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		newPlayCmd(defaultPlayOptions()),
		newSimCmd(),
		newTournamentCmd(),
		newExperimentCmd(),
		newTuneCmd(),
		newLandingCmd(),
		newBenchCmd(),
		newConformanceCmd(),
		newDealCmd(),
		newConfigsCmd(),
		newSessionsCmd(),
		newReplayCmd(),
		newForkCmd(),
		newExportCmd(),
		newImportCmd(),
		newServeCmd(),
		newMCPCmd(),
		newVersionCmd(),
	)
	nameArgs(root)
	return root
}

// nameArgs makes every command's complaint about its arguments name the
// command and how it is used: cobra's own ("accepts 1 arg(s), received
// 0") names neither.
func nameArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return fmt.Errorf("%s: %v (usage: %s)", c.CommandPath(), err, c.UseLine())
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		nameArgs(sub)
	}
}

// newCommandTree returns a new gopoly command tree, and a function that
// tells whether one of its commands has started: cobra had parsed the
// command line and checked its arguments, so that an error since is the
// command's own.
func newCommandTree() (*cobra.Command, func() bool) {
	root := newRootCmd()
	started := false
	// Cobra calls this once it has parsed the command line and checked
	// its arguments, just before the command runs (no subcommand has one
	// of its own, which would replace it).
	root.PersistentPreRun = func(*cobra.Command, []string) { started = true }
	return root, func() bool { return started }
}

// run runs the command line args (without the program's name) on a new
// command tree with the streams given, and returns the error main
// reports, if any. An error in the command line itself (an unknown
// command or flag, a flag value that does not parse, a wrong number of
// arguments) is bad input, exit 2, as the commands' own checks of their
// input are.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	root, started := newCommandTree()
	if args == nil {
		args = []string{} // nil would have cobra read os.Args
	}
	root.SetArgs(args)
	// The process's own streams are left unset: cobra prints a few
	// messages of its own (an unknown help topic and the usage after it)
	// to stderr when no output is set, but to the output when one is.
	if stdin != os.Stdin {
		root.SetIn(stdin)
	}
	if stdout != os.Stdout {
		root.SetOut(stdout)
	}
	if stderr != os.Stderr {
		root.SetErr(stderr)
	}
	err := root.Execute()
	var ee *exitError
	if err != nil && !started() && !errors.As(err, &ee) {
		err = usageErr(err)
	}
	return err
}

// execute runs the command line args as run does, prints the error, if
// any, on stderr, and returns the process's exit code: 0, that of an
// exitError, or 1.
func execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := run(args, stdin, stdout, stderr)
	if err == nil {
		return 0
	}
	code := 1
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if code != 0 && err.Error() != "" {
		fmt.Fprintln(stderr, "gopoly:", err)
	}
	return code
}

func main() {
	if code := execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); code != 0 {
		os.Exit(code)
	}
}
