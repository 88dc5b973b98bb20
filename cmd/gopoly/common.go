package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// loadRules reads --rules (empty: the defaults) and applies a round limit
// when maxRounds >= 0. Problems in the file are bad input (exit 2).
func loadRules(path string, maxRounds int) (*monopoly.Rules, error) {
	r := monopoly.DefaultRules()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, usageErr(err)
		}
		if r, err = monopoly.ParseRules(path, data); err != nil {
			return nil, usageErr(err)
		}
	}
	if maxRounds >= 0 && maxRounds != r.MaxRounds {
		var err error
		if r, err = r.WithOverrides("--max-rounds", fmt.Appendf(nil, "max_rounds: %d", maxRounds)); err != nil {
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

// newProgress returns a progress bar on stderr when it is a terminal, or
// nil.
func newProgress(total int, what string) *progressbar.ProgressBar {
	if !isTerminal(os.Stderr) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
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
