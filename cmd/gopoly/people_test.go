package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
)

// cashState is a table where every player has the same cash.
type cashState int

func (c cashState) Cash(int) int     { return int(c) }
func (c cashState) Position(int) int { return 0 }
func (c cashState) InJail(int) bool  { return false }

// raiseState is a table under raise_to_buy where every player has the
// same cash and could raise $900 by mortgaging.
type raiseState struct{ cashState }

func (raiseState) Funds(int) int { return 900 }

// When the rules decide for a player (no purchase it cannot pay for, no
// bid above its cash), the log says why in one sentence; a choice stays
// told as it was, also by a player short of cash who could mortgage to
// pay (raise_to_buy).
func TestPlayLogExplainsAutomaticOutcomes(t *testing.T) {
	r := monopoly.DefaultRules()
	var out bytes.Buffer
	l := newTextPlayLog(&out, r, seatNames[:2], []string{"you", "shark"}, 1, false)
	out.Reset()
	bo := int8(25) // B&O Railroad, $200
	evs := []monopoly.Event{
		{Kind: monopoly.EvDecline, Player: 0, Square: bo},
		{Kind: monopoly.EvAuctionStart, Square: bo},
		{Kind: monopoly.EvBid, Player: 1, Square: bo, Amount: 160},
		{Kind: monopoly.EvDropOut, Player: 0, Square: bo},
	}
	l.events(cashState(157), evs, make([]int, len(evs)))
	for _, want := range []string{
		"Ann can't afford B&O Railroad ($200, has $157): it goes to auction",
		"Ann drops out of the auction: $157 can't top the high bid of $160",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	for _, g := range []tableState{cashState(900), raiseState{157}} {
		out.Reset()
		l.events(g, evs, make([]int, len(evs)))
		if got := out.String(); strings.Contains(got, "can't") || !strings.Contains(got, "Ann does not buy B&O Railroad") || !strings.Contains(got, "Ann drops out of the auction\n") {
			t.Errorf("a player who could pay (cash $%d, funds $%d) chose; the log says\n%s", g.Cash(0), funds(g, 0), got)
		}
	}
}

// On a terminal of a given width, event lines wrap under their indent
// and no line is wider.
func TestPlayLogWraps(t *testing.T) {
	var out bytes.Buffer
	l := newTextPlayLog(&out, monopoly.DefaultRules(), seatNames[:2], []string{"shark", "turtle"}, 1, false)
	l.width = 40
	out.Reset()
	l.line("Ann proposes to Bob: gives Baltic Avenue and Mediterranean Avenue for Boardwalk and $100")
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("not wrapped: %q", out.String())
	}
	for i, line := range lines {
		if utf8.RuneCountInString(line) > 40 || (i > 0 && !strings.HasPrefix(line, "      ")) {
			t.Errorf("line %d %q: wider than 40 or not indented", i, line)
		}
	}
}

// The standings keep their columns whatever a seat's label: a long one
// (a program's command line) is cut short.
func TestStandingsColumns(t *testing.T) {
	var out bytes.Buffer
	labels := []string{"exec:python3 /home/ann/bots/my_very_long_bot.py --level 3", "shark"}
	l := newTextPlayLog(&out, monopoly.DefaultRules(), seatNames[:2], labels, 1, false)
	out.Reset()
	l.standings(playStandings{Winner: 1, Players: []playerStand{
		{Rank: 1, Seat: 1, Name: "Bob", Bot: "shark", Cash: 1500, NetWorth: 2500, Winner: true},
		{Rank: 2, Seat: 0, Name: "Ann", Bot: labels[0], Cash: 12, NetWorth: 40},
	}})
	var rows []string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "$") && !strings.HasPrefix(line, "Winner") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("rows %q", rows)
	}
	// The cash column ends at the same place on every row.
	end := func(s string) int {
		cash := s[strings.Index(s, "$"):]
		return utf8.RuneCountInString(s) - utf8.RuneCountInString(cash) + strings.Index(cash, " ")
	}
	if end(rows[0]) != end(rows[1]) {
		t.Errorf("the columns break:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "…") {
		t.Errorf("the long label is not cut short:\n%s", out.String())
	}
}

// Commands keep the exit codes and messages the docs promise.
func TestPeoplesExitCodes(t *testing.T) {
	dir := t.TempDir()
	m := sessionStore(t, dir)
	s := newStoredSession(t, m, 3, "human,baseline", 5)
	unwritable := filepath.Join(dir, "no", "such", "dir", "x.json")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay"}, 2, "gopoly replay: accepts 1 arg(s), received 0 (usage: gopoly replay ID"},
		{[]string{"export", s.ID(), "-o", unwritable, "--data", dir}, 2, "export: -o: "},
		{[]string{"sessions", "--db", "mysql://x"}, 2, "unsupported DSN"},
		{[]string{"play", "--seats", "", "--data", dir}, 2, "--seats is empty"},
	} {
		_, stderr, code := inProcess(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(unwritable); err == nil {
		t.Error("the export wrote where it could not")
	}
	// HUMAN is a person too: the game waits for it at once.
	out, stderr, code := inProcess("play", "--seats", "HUMAN,baseline", "--delay", "0", "--data", dir)
	if code != 0 || !strings.Contains(out, "Ann: $1500, on GO") {
		t.Errorf("--seats HUMAN,baseline: exit %d, stderr %q, out %q", code, stderr, tail(out, 300))
	}
}
