package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tournamentGame is a line of games.jsonl, as the tests read it.
type tournamentGame struct {
	Seating   []string `json:"seating"`
	Winner    int      `json:"winner"`
	Tied      []int    `json:"tied"`
	NetWorth  []int    `json:"net_worth"`
	Fallbacks []int    `json:"fallbacks"`
	Retired   []int    `json:"retired"`
}

// readGames reads the games.jsonl of a tournament's --out.
func readGames(t *testing.T, out string) ([]tournamentGame, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var games []tournamentGame
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var g tournamentGame
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		games = append(games, g)
	}
	return games, data
}

// A program that fails to start is not scored as if it had played: every
// game's record names its seat retired and counts its fallback's
// answers, summary.json and the --json standings carry the counts with
// its wins all won while retired, and the table shows them with a
// warning. A table of bots alone has none of it.
func TestTournamentProgramFaults(t *testing.T) {
	dir := t.TempDir()
	prog := "exec:log=" + filepath.Join(dir, "bot.log") + " false" // exits at once
	out := filepath.Join(dir, "out")
	args := []string{"tournament", "--bots", prog + ",baseline,random", "--players", "3", "--games", "6",
		"--max-rounds", "30", "--bootstrap", "100", "--workers", "2", "--out", out}
	text, stderr, code := cliRun(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	games, _ := readGames(t, out)
	fallbacks, wins := 0, 0.0
	for i, g := range games {
		s := slices.Index(g.Seating, prog)
		if s < 0 || !slices.Equal(g.Retired, []int{s}) || len(g.Fallbacks) != 3 {
			t.Fatalf("game %d: the program in seat %d, retired %v, fallbacks %v", i, s, g.Retired, g.Fallbacks)
		}
		for seat, n := range g.Fallbacks {
			if (n > 0) != (seat == s) {
				t.Errorf("game %d: fallbacks %v, want answers in seat %d alone", i, g.Fallbacks, s)
			}
		}
		fallbacks += g.Fallbacks[s]
		if g.Winner == s {
			wins++
		} else if slices.Contains(g.Tied, s) {
			wins += 1 / float64(len(g.Tied))
		}
	}
	if len(games) != 6 {
		t.Fatalf("%d games", len(games))
	}

	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Bots []struct {
			Name             string  `json:"name"`
			Wins             float64 `json:"wins"`
			Fallbacks        int     `json:"fallbacks"`
			Retirements      int     `json:"retirements"`
			WinsWhileRetired float64 `json:"wins_while_retired"`
		} `json:"bots"`
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	p := sum.Bots[0]
	if p.Name != prog || p.Fallbacks != fallbacks || p.Retirements != 6 || p.Wins != wins || p.WinsWhileRetired != wins {
		t.Errorf("summary.json: %+v; want %d fallbacks, 6 retirements, %v wins all while retired", p, fallbacks, wins)
	}
	for _, b := range sum.Bots[1:] {
		if b.Fallbacks != 0 || b.Retirements != 0 || bytes.Contains(data, []byte(`"fallbacks": 0`)) {
			t.Errorf("summary.json: a bot with faults: %s", data)
		}
	}

	var row []string // the program's line of the table
	for _, l := range strings.Split(text, "\n") {
		if regexp.MustCompile(`^ +\d  `).MatchString(l) && strings.Contains(l, prog) {
			row = strings.Fields(l)
		}
	}
	if !strings.Contains(text, "fallbacks retired") || row == nil || row[len(row)-2] != strconv.Itoa(fallbacks) || row[len(row)-1] != "6" {
		t.Errorf("no fallbacks and retired columns (want %d and 6):\n%s", fallbacks, text)
	}
	if !strings.Contains(text, "warning: "+prog+": its fallback gave ") || !strings.Contains(text, "in the 6 seat-games it was retired in") {
		t.Errorf("no warning:\n%s", text)
	}

	stdout, stderr, code := cliRun(t, append(slices.Clone(args[:len(args)-2]), "--json")...)
	var st struct {
		Bots []struct {
			Retirements      int     `json:"retirements"`
			WinsWhileRetired float64 `json:"wins_while_retired"`
		} `json:"bots"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); code != 0 || err != nil || st.Bots[0].Retirements != 6 || st.Bots[0].WinsWhileRetired != wins {
		t.Errorf("--json: exit %d, %v: %s %s", code, err, stdout, stderr)
	}

	bots, stderr, code := cliRun(t, "tournament", "--bots", "baseline,random", "--games", "4", "--max-rounds", "30", "--bootstrap", "100")
	if code != 0 || strings.Contains(bots, "fallbacks") || strings.Contains(bots, "warning") {
		t.Errorf("bots alone: exit %d, %s %s", code, bots, stderr)
	}
}

// --params and --rules change a tournament's games, and bad files are
// refused (exit 2) with the file, line and field, before any game.
func TestTournamentParamsAndRules(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(name string, extra ...string) ([]tournamentGame, []byte, string) {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append([]string{"tournament", "--bots", "baseline,planning", "--games", "4", "--max-rounds", "25",
			"--bootstrap", "100", "--seed", "3", "--out", out}, extra...)
		_, stderr, code := cliRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		games, lines := readGames(t, out)
		summary, _ := os.ReadFile(filepath.Join(out, "summary.json"))
		return games, lines, string(summary)
	}
	plain, plainLines, plainSum := run("plain")

	// A baseline that keeps a reserve of $100,000 never buys: other games.
	_, lines, sum := run("params", "--params", write("p.yaml", "all:\n  cash_reserve: 100000\n"))
	if bytes.Equal(lines, plainLines) {
		t.Error("--params changed no game")
	}
	if !strings.Contains(sum, `"cash_reserve": 100000`) || strings.Contains(plainSum, `"params"`) {
		t.Errorf("summary.json does not give the parameters:\n%s", sum)
	}

	// Two players starting with $20,000 each end 25 rounds worth far
	// more together than two starting with the default $1,500.
	rich, _, _ := run("rules", "--rules", write("r.yaml", "starting_cash: 20000\n"))
	worth := func(g tournamentGame) int {
		n := 0
		for _, w := range g.NetWorth {
			n += w
		}
		return n
	}
	for i := range plain {
		if worth(plain[i]) > 15000 || worth(rich[i]) < 30000 {
			t.Errorf("game %d: worth %d together under the default rules, %d starting with $20,000", i, worth(plain[i]), worth(rich[i]))
		}
	}

	for _, c := range []struct {
		flag, name, text, want string
	}{
		{"--params", "bad.yaml", "all:\n  cash_reserv: 5\n", "bad.yaml:2: all.cash_reserv: unknown parameter"},
		{"--params", "seat.yaml", "all: {}\nseats:\n  2: {cash_reserve: 5}\n", "seat.yaml:3: seats.2: parameters for bot 2, but the tournament's bots are numbered from 0 to 1"},
		{"--rules", "bad.yaml", "max_rounds: 3\nstarting_cash: lots\n", "bad.yaml:2: starting_cash: want an integer"},
	} {
		out := filepath.Join(dir, "refused")
		_, stderr, code := cliRun(t, "tournament", "--bots", "baseline,random", "--games", "2", "--out", out, c.flag, write(c.name, c.text))
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %s: exit %d, %q; want exit 2 and %q", c.flag, c.text, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s %s: the refused tournament made %s", c.flag, c.text, out)
		}
	}
}

// sim --json and its table give, per seat, a failing program's fallback
// answers and retirements, with a warning; bots alone have none of it.
func TestSimProgramFaults(t *testing.T) {
	prog := "exec:log=" + filepath.Join(t.TempDir(), "bot.log") + " false"
	args := []string{"sim", "--bots", prog + ",baseline", "--players", "2", "--games", "3", "--max-rounds", "20", "--workers", "1"}
	stdout, stderr, code := cliRun(t, append(args, "--json")...)
	var s struct {
		WinRates []json.RawMessage `json:"win_rates"`
	}
	if err := json.Unmarshal([]byte(stdout), &s); code != 0 || err != nil || len(s.WinRates) != 2 {
		t.Fatalf("exit %d, %v: %s %s", code, err, stdout, stderr)
	}
	var seat struct {
		Wins             int     `json:"wins"`
		Fallbacks        int     `json:"fallbacks"`
		Retirements      int     `json:"retirements"`
		WinsWhileRetired float64 `json:"wins_while_retired"`
	}
	json.Unmarshal(s.WinRates[0], &seat)
	if seat.Fallbacks == 0 || seat.Retirements != 3 || seat.WinsWhileRetired != float64(seat.Wins) {
		t.Errorf("the program's seat: %s", s.WinRates[0])
	}
	if ks := cliKeys(t, s.WinRates[1]); !slices.Equal(ks, []string{"bot", "ci95", "rate", "seat", "wins"}) {
		t.Errorf("the bot's seat has keys %v", ks)
	}

	text, stderr, code := cliRun(t, args...)
	if code != 0 || !strings.Contains(text, "fallbacks retired") || !strings.Contains(text, "warning: seat 0 "+prog+": its fallback gave ") {
		t.Errorf("exit %d: %s %s", code, text, stderr)
	}
	text, stderr, code = cliRun(t, "sim", "--bots", "baseline,random", "--players", "2", "--games", "3", "--max-rounds", "20")
	if code != 0 || strings.Contains(text, "fallbacks") || strings.Contains(text, "warning") {
		t.Errorf("bots alone: exit %d: %s %s", code, text, stderr)
	}
}
