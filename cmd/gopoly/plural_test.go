package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/arena"
)

// One worker is "1 worker" in what the commands print.
func TestWorkersPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 workers"}, {1, "1 worker"}, {2, "2 workers"}} {
		if got := plural(c.n, "worker"); got != c.want {
			t.Errorf("plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	stdout, stderr, code := inProcess("sim", "--games", "2", "--workers", "1", "--max-rounds", "20")
	if code != 0 || !strings.Contains(stdout, " CPU on 1 worker\n") {
		t.Errorf("sim --workers 1: exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
}

// The summary's tables widen for long bot names: every row's columns
// line up with the header's.
func TestSummaryTablesWiden(t *testing.T) {
	long := "exec:python3 sdk/python/example_bot.py"
	s := arena.Summary{Games: 2, WinRates: []arena.SeatWins{{Seat: 0, Bot: long, Wins: 1}, {Seat: 1, Bot: "baseline", Wins: 1}},
		ByBot: map[string]arena.BotWR{long: {Seats: 1, Wins: 1}, "baseline": {Seats: 1, Wins: 1}}}
	var out bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetOut(&out)
	printSummary(cmd, s, 0)
	var tables [][]string
	for _, block := range strings.Split(out.String(), "\n\n")[1:] {
		tables = append(tables, strings.Split(strings.TrimSpace(block), "\n"))
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables:\n%s", len(tables), out.String())
	}
	for _, rows := range tables {
		col := strings.Index(rows[0], "wins") + len("wins") // right-aligned under its header
		for _, r := range rows[1:] {
			if len(r) < col || r[col-1] != '1' || (col < len(r) && r[col] != ' ') {
				t.Errorf("the wins column does not line up:\n%s", strings.Join(rows, "\n"))
			}
		}
	}
}
