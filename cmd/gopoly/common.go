package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/internal/strictyaml"
	"github.com/gopoly/gopoly/monopoly"
)

// loadRules reads --rules (empty: the defaults) and applies the round
// limit maxRounds points to, if any (0: none), unless the file sets
// max_rounds and --max-rounds was not given. Problems in the file, and a
// negative limit, are bad input (exit 2); cmd names the command in
// messages.
func loadRules(cmd *cobra.Command, path string, maxRounds *int) (*monopoly.Rules, error) {
	var data []byte
	if path != "" {
		var err error
		// ParseRules refuses a document over MaxRulesBytes: so does
		// ReadFile, without reading a huge file all.
		if data, err = strictyaml.ReadFile(path); err != nil {
			return nil, usageErr(err)
		}
	}
	return parseRules(cmd, path, data, maxRounds)
}

// parseRules is loadRules for rules read already: data overlaid on the
// defaults, name naming it in errors (no name: the defaults alone).
func parseRules(cmd *cobra.Command, name string, data []byte, maxRounds *int) (*monopoly.Rules, error) {
	if maxRounds != nil && *maxRounds < 0 {
		return nil, usageErr(fmt.Errorf("%s: --max-rounds %d: want 0 (no limit) or more rounds", cmdName(cmd), *maxRounds))
	}
	r := monopoly.DefaultRules()
	if name != "" {
		var err error
		if r, err = monopoly.ParseRules(name, data); err != nil {
			return nil, usageErr(err)
		}
	}
	if maxRounds != nil && r.SetBy("max_rounds") != "" && !cmd.Flags().Changed("max-rounds") {
		return r, nil
	}
	if maxRounds != nil && *maxRounds != r.MaxRounds {
		var err error
		if r, err = r.WithOverrides("--max-rounds", fmt.Appendf(nil, "max_rounds: %d", *maxRounds)); err != nil {
			return nil, usageErr(err)
		}
	}
	return r, nil
}

// loadParams reads --params (empty: none). Problems in the file are bad
// input (exit 2).
func loadParams(path string) (agent.SeatParams, error) {
	if path == "" {
		return agent.SeatParams{}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return agent.SeatParams{}, usageErr(err)
	}
	p, err := agent.ParseSeatParams(path, data)
	if err != nil {
		return p, usageErr(err)
	}
	return p, nil
}

// loadGames reads what the games of a run of many are played by: --rules
// with --max-rounds (see loadRules) and --params.
func loadGames(cmd *cobra.Command, rulesPath string, maxRounds *int, paramsPath string) (*monopoly.Rules, agent.SeatParams, error) {
	rules, err := loadRules(cmd, rulesPath, maxRounds)
	if err != nil {
		return nil, agent.SeatParams{}, err
	}
	params, err := loadParams(paramsPath)
	return rules, params, err
}

// splitBots reads a --bots list: names separated by commas, spaces
// around them ignored, none empty (nil for an empty list).
func splitBots(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	names := strings.Split(list, ",")
	for i, n := range names {
		if names[i] = strings.TrimSpace(n); names[i] == "" {
			return nil, fmt.Errorf("--bots %q: name %d of %d is empty", list, i+1, len(names))
		}
	}
	return names, nil
}

// checkWorkers refuses a negative --workers (bad input, exit 2).
func checkWorkers(cmd *cobra.Command, n int) error {
	if n < 0 {
		return usageErr(fmt.Errorf("%s: --workers %d: want 0 (all cores) or more", cmdName(cmd), n))
	}
	return nil
}

// checkOutDir refuses an --out that names something other than a
// directory (bad input, exit 2), before anything is computed or made:
// creating the directory would fail only once the command is under way.
// A directory that does not exist yet is fine.
func checkOutDir(cmd *cobra.Command, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usageErr(fmt.Errorf("%s: --out: %w", cmdName(cmd), err))
	case !fi.IsDir():
		return usageErr(fmt.Errorf("%s: --out %s is not a directory: give a new or empty directory", cmdName(cmd), dir))
	}
	return nil
}

// checkOutFile refuses an output file, given by flag, that could not be
// written (bad input, exit 2), before the work whose result it takes:
// its directory must exist and take new files, and the path must not be
// a directory. The check leaves nothing behind.
func checkOutFile(cmd *cobra.Command, flag, path string) error {
	bad := func(format string, args ...any) error {
		return usageErr(fmt.Errorf("%s: --%s %s%s", cmdName(cmd), flag, path, fmt.Sprintf(format, args...)))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return bad(": directory %s does not exist", dir)
	case err != nil:
		return bad(": %v", err)
	case !fi.IsDir():
		return bad(": %s is not a directory", dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return bad(" is a directory")
	}
	// Only writing tells whether the directory takes a file.
	f, err := os.CreateTemp(dir, ".gopoly-check-*")
	if err != nil {
		return bad(": %v", err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// cmdName is how messages name a command: "sim", "experiment run".
func cmdName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// endings says how games ended, for the text reports: by bankruptcies,
// at the round limit (none without one) and, only when some were,
// adjourned by the arena (capped counts them too).
func endings(finished, capped, stalled, maxRounds int) string {
	s := fmt.Sprintf("%d finished", finished)
	if maxRounds > 0 || capped > stalled {
		s += fmt.Sprintf(", %d at the %d-round limit", capped-stalled, maxRounds)
	}
	if stalled > 0 {
		s += fmt.Sprintf(", %d adjourned after %d decisions", stalled, arena.MaxDecisions)
	}
	return s
}

// warnUnread warns, on w, of parameter overrides that change nothing for
// the bots seated (bots: the bot of each seat).
func warnUnread(w io.Writer, p agent.SeatParams, bots []string) {
	for _, line := range p.Unread(bots) {
		fmt.Fprintln(w, "gopoly: warning:", line)
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress returns a progress bar on w (a command's stderr) when it is
// a terminal, or nil.
func newProgress(w io.Writer, total int, what string) *progressbar.ProgressBar {
	if !isTerminal(w) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// lazyProgress returns a progress callback for a run's Progress, whose
// bar (on a terminal) is made at the first report, so that the rate and
// the time left count only the work of this run (a resumed run starts
// part done), and the function that finishes the bar.
func lazyProgress(w io.Writer, what string) (progress func(done, total int), finish func()) {
	var bar *progressbar.ProgressBar
	progress = func(done, total int) {
		if bar == nil {
			if bar = newProgress(w, total-done+1, what); bar == nil {
				return
			}
		}
		bar.Add(1)
	}
	finish = func() {
		if bar != nil {
			bar.Finish()
		}
	}
	return progress, finish
}

// resumable is the context of a run that a later run resumes: cancelled
// by the first Ctrl-C or SIGTERM, so that the run stops cleanly, while a
// second Ctrl-C kills at once (a resume repairs what a kill leaves).
func resumable(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// gamesStopped is how a run of games that reports the games it played
// ends, stopped by err (nil: it was not) after played of games: an
// interruption (Ctrl-C, SIGTERM) exits with code 130; any other error
// says that the games before it are reported, unless none was.
func gamesStopped(cmd *cobra.Command, err error, played, games int) error {
	interrupted := errors.Is(err, context.Canceled)
	switch {
	case err == nil:
		return nil
	case played == 0 && interrupted:
		return &exitError{code: 130, err: fmt.Errorf("%s: interrupted before any game finished", cmdName(cmd))}
	case played == 0:
		return err
	case interrupted:
		return &exitError{code: 130, err: fmt.Errorf("interrupted: %d of %d games played and reported", played, games)}
	}
	return fmt.Errorf("%w\n(the %d games finished before it are reported above)", err, played)
}

// cpuTime returns the CPU time (user + system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeJSON prints v as indented JSON: the --json output of every command.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// plural writes n of a thing whose plural takes an s: "1 worker",
// "2 workers".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// serveUntil serves hs on ln until ctx ends (Ctrl-C, SIGTERM), then
// shuts it down, giving requests under way five seconds; before, it
// calls stop (nil: none), which ends what would keep a request open (a
// stream). An error of the server comes back named by the command.
func serveUntil(ctx context.Context, cmd *cobra.Command, hs *http.Server, ln net.Listener, stop func()) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("%s: %w", cmdName(cmd), err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if stop != nil {
		stop()
	}
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", cmdName(cmd), err)
	}
	return nil
}
