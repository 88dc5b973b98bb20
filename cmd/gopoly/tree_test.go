package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

// inProcess runs the command line args in process, as main would, and
// returns stdout, stderr and the exit code.
func inProcess(args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := execute(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

// Every call of newRootCmd builds a tree of its own: flags given to one
// execution are not seen by the next, whatever ran before.
func TestCommandTreesShareNothing(t *testing.T) {
	a, b := newRootCmd(), newRootCmd()
	if a == b {
		t.Fatal("newRootCmd returned the same tree twice")
	}
	var walk func(a, b *cobra.Command)
	walk = func(a, b *cobra.Command) {
		if a == b || a.Flags() == b.Flags() {
			t.Errorf("%s: the same command or flag set in two trees", a.CommandPath())
		}
		ac, bc := a.Commands(), b.Commands()
		if len(ac) != len(bc) {
			t.Fatalf("%s: %d and %d subcommands", a.CommandPath(), len(ac), len(bc))
		}
		for i := range ac {
			walk(ac[i], bc[i])
		}
	}
	walk(a, b)

	// play: the same game twice, with a different one in between; the
	// flags of one run do not carry to the next (the text run after the
	// JSON ones prints text).
	play := []string{"play", "--seed", "3", "--json", "--max-rounds", "5"}
	first, stderr, code := inProcess(play...)
	if code != 0 || stderr != "" || !strings.Contains(first, `"kind":"standings"`) {
		t.Fatalf("%v: exit %d, stderr %q, stdout %q", play, code, stderr, first)
	}
	other, _, code := inProcess("play", "--seed", "4", "--json", "--max-rounds", "5", "--players", "3", "--bots", "baseline")
	if code != 0 || other == first {
		t.Fatalf("play --seed 4: exit %d, same output as seed 3: %v", code, other == first)
	}
	second, _, _ := inProcess(play...)
	if second != first {
		t.Errorf("play run twice differs:\n%s\n---\n%s", first, second)
	}
	text, _, code := inProcess("play", "--seed", "3", "--max-rounds", "5")
	if code != 0 || !strings.HasPrefix(text, "Monopoly: 4 players, seed 3, round limit 5\n") || strings.Contains(text, `"kind"`) {
		t.Errorf("play after play --json: exit %d:\n%s", code, text)
	}

	// sim: different seeds give different games, the same seed the same
	// ones, and the defaults come back after a run that changed them.
	sim := func(args ...string) arena.Summary {
		t.Helper()
		stdout, stderr, code := inProcess(append([]string{"sim", "--json", "--workers", "1"}, args...)...)
		var s arena.Summary
		if err := json.Unmarshal([]byte(stdout), &s); code != 0 || err != nil {
			t.Fatalf("sim %v: exit %d, %v, stderr %q", args, code, err, stderr)
		}
		return s
	}
	s1 := sim("--games", "5", "--seed", "1")
	s2 := sim("--games", "5", "--seed", "2", "--players", "3", "--max-rounds", "60")
	s1again := sim("--games", "5", "--seed", "1")
	if s1.Games != 5 || s2.Games != 5 || len(s1.WinRates) != 4 || len(s2.WinRates) != 3 {
		t.Errorf("sim: %d games of %d seats, %d of %d; want 5 of 4, 5 of 3", s1.Games, len(s1.WinRates), s2.Games, len(s2.WinRates))
	}
	if s1.Rolls == s2.Rolls && s1.Decisions == s2.Decisions {
		t.Error("sim with seeds 1 and 2 played the same games")
	}
	if s1again.Rolls != s1.Rolls || s1again.Decisions != s1.Decisions || s1again.RoundsMean != s1.RoundsMean {
		t.Errorf("sim --seed 1 twice: %d rolls, %d decisions, then %d, %d", s1.Rolls, s1.Decisions, s1again.Rolls, s1again.Decisions)
	}
	if s := sim("--games", "2"); s.Games != 2 || len(s.WinRates) != 4 {
		t.Errorf("sim after sim --players 3: %d games of %d seats, want 2 of 4", s.Games, len(s.WinRates))
	}

	// A command-line error is exit 2 whatever ran before, and a good
	// command line after it runs.
	if _, stderr, code := inProcess("sim", "--games", "x"); code != 2 || !strings.HasPrefix(stderr, "gopoly: ") {
		t.Errorf("sim --games x: exit %d, stderr %q; want 2", code, stderr)
	}
	if _, stderr, code := inProcess("play", "--seed", "3", "--max-rounds", "2", "--json"); code != 0 {
		t.Errorf("play after a bad command line: exit %d, %s", code, stderr)
	}
}

// gopoly --help, in process, lists every command with its summary.
func TestHelpListsCommands(t *testing.T) {
	stdout, stderr, code := inProcess("--help")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	names := []string{"play", "sim", "tournament", "experiment", "tune", "landing", "bench", "conformance", "deal",
		"sessions", "replay", "fork", "export", "import", "configs", "serve", "mcp", "version", "completion", "help"}
	cmds := newRootCmd().Commands()
	if len(cmds) != len(names)-2 { // completion and help come with Execute
		t.Errorf("%d commands in the tree, want %d", len(cmds), len(names)-2)
	}
	for _, c := range cmds {
		if want := "  " + c.Name() + strings.Repeat(" ", max(1, 12-len(c.Name()))) + c.Short + "\n"; !strings.Contains(stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	for _, n := range names {
		if !strings.Contains(stdout, "\n  "+n+" ") {
			t.Errorf("--help does not list %s:\n%s", n, stdout)
		}
	}
	// The subcommands are listed in their parents' help.
	for parent, subs := range map[string][]string{"deal": {"train", "eval", "play", "bench"}, "experiment": {"run", "merge", "show", "manifest", "submit", "status"}, "sessions": {"delete"}, "configs": {"save", "show", "delete"}} {
		stdout, _, code := inProcess(parent, "--help")
		for _, s := range subs {
			if code != 0 || !strings.Contains(stdout, "\n  "+s+" ") {
				t.Errorf("%s --help: exit %d, does not list %s", parent, code, s)
			}
		}
	}
}
