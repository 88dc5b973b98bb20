package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// TestMain lets a test run the test binary as the gopoly command (with
// GOPOLY_TEST_MAIN=1), so that it can signal a real process without
// building one.
func TestMain(m *testing.M) {
	if os.Getenv("GOPOLY_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// gopolyProcess returns the gopoly command with args, run by the test
// binary.
func gopolyProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GOPOLY_TEST_MAIN=1")
	return cmd
}

// cliRun runs the gopoly command as a process and returns its stdout,
// stderr and exit code.
func cliRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return cliRunEnv(t, []string{"NO_COLOR="}, args...)
}

// cliRunEnv is cliRun with more environment variables (the later of two
// of the same name counts).
func cliRunEnv(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := gopolyProcess(args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), errOut.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("%v: %v", args, err)
	}
	return out.String(), errOut.String(), 0
}

// cliKeys returns the keys of a JSON object, sorted.
func cliKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestCLI runs play, sim and landing as a user would.
func TestCLI(t *testing.T) {
	dir := t.TempDir()

	t.Run("play", func(t *testing.T) {
		out, stderr, code := cliRun(t, "play", "--seed", "7")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{"── Round 1 ", "Final standings", "Winner: "} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in the output", want)
			}
		}
		if strings.Contains(out, "\x1b[") {
			t.Error("colour codes in output to a pipe")
		}
		ranks := regexp.MustCompile(`(?m)^ +[1-4]  (Ann|Bob|Cat|Dan) +(shark|professor|hustler|turtle) `).FindAllString(out, -1)
		if len(ranks) != 4 {
			t.Errorf("standings rows: %q", ranks)
		}
		again, _, _ := cliRun(t, "play", "--seed", "7")
		if again != out {
			t.Error("the same seed played a different game")
		}
		other, _, _ := cliRun(t, "play", "--seed", "8")
		if other == out {
			t.Error("seeds 7 and 8 played the same game")
		}
	})

	// A rules file that sets max_rounds keeps it unless --max-rounds is
	// given; without either the limit is the flag's default, 500.
	t.Run("max-rounds", func(t *testing.T) {
		short := filepath.Join(dir, "short.yaml")
		if err := os.WriteFile(short, []byte("max_rounds: 3\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args   []string
			rounds float64
		}{{[]string{"--rules", short}, 3}, {[]string{"--rules", short, "--max-rounds", "6"}, 6}, {nil, 0}} {
			out, stderr, code := cliRun(t, append([]string{"sim", "--games", "8", "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
			}
			var res struct {
				Capped     int     `json:"capped"`
				RoundsMean float64 `json:"rounds_mean"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if capped := res.Capped == 8 && res.RoundsMean == tc.rounds; capped != (tc.rounds > 0) {
				t.Errorf("%v: %d of 8 games capped, mean %.1f rounds; want a limit of %v rounds", tc.args, res.Capped, res.RoundsMean, tc.rounds)
			}
		}
	})

	t.Run("play-personalities", func(t *testing.T) {
		bots := "shark,professor,hustler,turtle"
		out, stderr, code := cliRun(t, "play", "--seed", "5", "--bots", bots, "--max-rounds", "40")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		said := regexp.MustCompile(`(?m)^    (Ann|Bob|Cat|Dan): ".+"$`).FindAllString(out, -1)
		if len(said) < 20 {
			t.Errorf("%d lines of speech at the table, want many", len(said))
		}
		if strings.Contains(out, " thinks: ") {
			t.Error("private thoughts shown without --thoughts")
		}
		withThoughts, _, _ := cliRun(t, "play", "--seed", "5", "--bots", bots, "--max-rounds", "40", "--thoughts")
		thought := regexp.MustCompile(`(?m)^    (Ann|Bob|Cat|Dan) thinks: .+$`).FindAllString(withThoughts, -1)
		if len(thought) < len(said) {
			t.Errorf("%d thoughts with --thoughts, %d lines of speech", len(thought), len(said))
		}
		// The JSON log carries the words; the thoughts only when asked.
		js, _, _ := cliRun(t, "play", "--seed", "5", "--bots", bots, "--max-rounds", "40", "--json")
		if !strings.Contains(js, `"kind":"speech"`) || strings.Contains(js, `"thought":`) {
			t.Error("--json: want speech events and no thoughts")
		}
		js, _, _ = cliRun(t, "play", "--seed", "5", "--bots", bots, "--max-rounds", "40", "--json", "--thoughts")
		if !strings.Contains(js, `"thought":`) {
			t.Error("--json --thoughts: no thoughts")
		}
	})

	t.Run("play-json", func(t *testing.T) {
		out, stderr, code := cliRun(t, "play", "--seed", "3", "--json", "--players", "3", "--bots", "baseline,random")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		kinds := map[string]int{}
		for _, l := range lines[:len(lines)-1] {
			var e struct {
				Kind string `json:"kind"`
				Text string `json:"text"`
			}
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			kinds[e.Kind]++
		}
		for _, k := range []string{"turn_start", "roll", "move", "roll_resolved", "game_over"} {
			if kinds[k] == 0 {
				t.Errorf("no %s event (%v)", k, kinds)
			}
		}
		var st playStandings
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &st); err != nil {
			t.Fatal(err)
		}
		if st.Kind != "standings" || len(st.Players) != 3 || st.Seed != 3 {
			t.Fatalf("standings %+v", st)
		}
		winners := 0
		for i, p := range st.Players {
			if p.Rank != i+1 {
				t.Errorf("rank %d at position %d", p.Rank, i)
			}
			if p.Winner {
				winners++
				if p.Seat != st.Winner || i != 0 {
					t.Errorf("winner seat %d ranked %d; standings say %d", p.Seat, p.Rank, st.Winner)
				}
			}
		}
		if winners != 1 {
			t.Errorf("%d winners", winners)
		}
	})

	t.Run("landing-json", func(t *testing.T) {
		out, stderr, code := cliRun(t, "landing", "--rolls", "200000", "--jail", "stay", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if ks := cliKeys(t, []byte(out)); !slices.Equal(ks, []string{"in_jail", "jail", "rolls", "squares"}) {
			t.Fatalf("keys %v", ks)
		}
		var res struct {
			Rolls   int64             `json:"rolls"`
			Jail    string            `json:"jail"`
			Squares []json.RawMessage `json:"squares"`
			InJail  float64           `json:"in_jail"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.Rolls != 200000 || res.Jail != "stay" || len(res.Squares) != 40 {
			t.Fatalf("rolls %d, jail %q, %d squares", res.Rolls, res.Jail, len(res.Squares))
		}
		sum := res.InJail
		for i, raw := range res.Squares {
			if ks := cliKeys(t, raw); !slices.Equal(ks, []string{"index", "name", "probability"}) {
				t.Fatalf("square keys %v", ks)
			}
			var sq landingSquare
			json.Unmarshal(raw, &sq)
			if sq.Index != i || sq.Name != monopoly.DefaultRules().Squares[i].Name {
				t.Errorf("square %d: %+v", i, sq)
			}
			sum += sq.Probability
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("probabilities sum to %v", sum)
		}
		// Rolling for doubles keeps players in jail for up to three rolls.
		if res.InJail < 0.08 {
			t.Errorf("in jail %v with --jail stay", res.InJail)
		}
	})

	t.Run("landing-text", func(t *testing.T) {
		out, stderr, code := cliRun(t, "landing", "--rolls", "100000")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		sc := bufio.NewScanner(strings.NewReader(out))
		idx := -1
		for sc.Scan() {
			var n int
			var rest string
			if _, err := fmt.Sscan(sc.Text(), &n, &rest); err == nil && n == idx+1 && idx < 39 {
				idx = n
			}
		}
		if idx != 39 {
			t.Errorf("the table by board index stops at %d", idx)
		}
		for _, want := range []string{"In Jail", "jail corner", "top 10", "10. "} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in the output", want)
			}
		}
	})

	t.Run("landing-plot", func(t *testing.T) {
		pngPath := filepath.Join(dir, "board.png")
		if _, stderr, code := cliRun(t, "landing", "--rolls", "50000", "--plot", pngPath); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		f, err := os.Open(pngPath)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() < 800 || b.Dx() != b.Dy() {
			t.Errorf("image %v", b)
		}
		svgPath := filepath.Join(dir, "board.svg")
		if _, stderr, code := cliRun(t, "landing", "--rolls", "50000", "--plot", svgPath, "--json"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		svg, err := os.ReadFile(svgPath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("Illinois")) {
			t.Errorf("not a board SVG: %.200s", svg)
		}
	})

	t.Run("params", func(t *testing.T) {
		// A seat that keeps a reserve larger than anyone's cash never buys,
		// whether it is given under seats: or, as in an experiment's
		// params, by its bare index.
		for _, tc := range []struct {
			doc  string
			seat float64
		}{
			{"seats:\n  1: {cash_reserve: 100000, complete_reserve: 100000}\n", 1},
			{"2: {cash_reserve: 100000, complete_reserve: 100000}\n", 2},
		} {
			params := filepath.Join(dir, "params.yaml")
			if err := os.WriteFile(params, []byte(tc.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := cliRun(t, "play", "--seed", "4", "--json", "--params", params)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			buys := map[float64]int{}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var e map[string]any
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("%v: %s", err, line)
				}
				if e["kind"] == "buy" {
					buys[e["player"].(float64)]++
				}
			}
			if buys[tc.seat] != 0 || buys[0] == 0 {
				t.Fatalf("%q: purchases per seat %v: seat %v must buy nothing", tc.doc, buys, tc.seat)
			}
			if stderr != "" {
				t.Errorf("a knob the seat reads: stderr %q", stderr)
			}
		}
	})

	t.Run("unread-params", func(t *testing.T) {
		// Knobs the seated bots ignore are run with a warning each.
		params := filepath.Join(dir, "unread.yaml")
		if err := os.WriteFile(params, []byte("all: {rollouts: 8}\nseats:\n  1: {valuation_bias: 0.5, hurdle: 0.1}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"sim", "--games", "10", "--bots", "baseline", "--params", params, "--json"},
			{"play", "--bots", "baseline", "--params", params, "--json"},
		} {
			_, stderr, code := cliRun(t, args...)
			want := "gopoly: warning: all seats: rollouts is read by none of the bots seated\n" +
				"gopoly: warning: seat 1: hurdle is not read by baseline\n"
			if code != 0 || stderr != want {
				t.Errorf("%v: exit %d, stderr %q, want %q", args, code, stderr, want)
			}
		}
	})

	t.Run("params-refused", func(t *testing.T) {
		// Values the bots cannot play with, and seats the table lacks,
		// are refused with the file, the line and the field before
		// anything is played or printed.
		spec := filepath.Join(dir, "neg-spec.yaml")
		os.WriteFile(spec, []byte("name: neg\nseeds: {start: 1, count: 5}\nvariants:\n  - name: a\n    seats: [baseline, baseline]\n    params:\n      all:\n        cash_reserve: -100\n"), 0o644)
		for _, c := range []struct {
			doc, cmd, want string
		}{
			{"all: {cash_reserve: -100}\n", "sim", ":1: all.cash_reserve: -100 is out of range"},
			{"all: {complete_reserve: -100}\n", "sim", ":1: all.complete_reserve: -100 is out of range"},
			{"all: {rich_factor: -100}\n", "sim", ":1: all.rich_factor: -100 is out of range"},
			{"all:\n  cash_reserve: {mean: -100, std: 0}\n", "sim", ":2: all.cash_reserve.mean: -100 is out of range"},
			{"all: {rollouts: -5}\n", "sim", ":1: all.rollouts: -5 is out of range"},
			{"all: {rollouts: 2.5}\n", "sim", ":1: all.rollouts: rollouts takes whole numbers"},
			{"all: {rich_factor: 2}\nseats:\n  7: {cash_reserve: 1}\n", "sim", ":3: seats.7: parameters for seat 7, but the seats go from 0 to 3"},
			{"7: {cash_reserve: 1}\n", "play", ":1: 7: parameters for seat 7, but the seats go from 0 to 3"},
			{"all: {cash_reserve: -100}\n", "play", ":1: all.cash_reserve"},
		} {
			file := filepath.Join(dir, "refused.yaml")
			if err := os.WriteFile(file, []byte(c.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{c.cmd, "--params", file}
			if c.cmd == "sim" {
				args = append(args, "--games", "20")
			}
			stdout, stderr, code := cliRun(t, args...)
			if code != 2 || !strings.Contains(stderr, "gopoly: "+file+c.want) || stdout != "" {
				t.Errorf("%s with %q: exit %d, stdout %.200q, stderr %q; want 2, nothing on stdout and %q", c.cmd, c.doc, code, stdout, stderr, file+c.want)
			}
		}
		out := filepath.Join(dir, "neg-run")
		_, stderr, code := cliRun(t, "experiment", "run", spec, "--out", out)
		if code != 2 || !strings.Contains(stderr, spec+":8: variants[0].params.all.cash_reserve: -100 is out of range") {
			t.Errorf("experiment: exit %d, %q", code, stderr)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused experiment made its directory: %v", err)
		}
	})

	t.Run("bad-input", func(t *testing.T) {
		txt := filepath.Join(dir, "x.txt")
		badParams := filepath.Join(dir, "bad-params.yaml")
		if err := os.WriteFile(badParams, []byte("seats:\n  1: {cash_reservoir: 1}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		seat5 := filepath.Join(dir, "seat5.yaml")
		if err := os.WriteFile(seat5, []byte("seats:\n  5: {cash_reserve: 1}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"sim", "--games", "10", "--params", badParams},
			{"play", "--params", badParams},
			{"sim", "--games", "10", "--players", "3", "--params", seat5},
			{"play", "--players", "3", "--params", seat5},
			{"landing", "--rolls", "1000", "--jail", "pay"},
			{"landing", "--rolls", "1000", "--plot", txt},
			{"landing", "--rolls", "0"},
			{"play", "--bots", "nobody"},
			{"play", "--players", "9"},
		} {
			_, stderr, code := cliRun(t, args...)
			if code != 2 {
				t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr)
			}
			if !strings.HasPrefix(stderr, "gopoly: ") {
				t.Errorf("%v: stderr %q", args, stderr)
			}
		}
		if _, err := os.Stat(txt); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the refused plot file exists: %v", err)
		}
	})
}

// TestPlayColor: with colour on, the log is the plain log with ANSI
// styles added, and players and money are styled.
func TestPlayColor(t *testing.T) {
	limit := 30
	rules, err := loadRules(newRootCmd(), "", &limit)
	if err != nil {
		t.Fatal(err)
	}
	seats := []string{"baseline", "baseline", "baseline"}
	render := func(color bool) string {
		var b bytes.Buffer
		log := newTextPlayLog(&b, rules, seatNames[:len(seats)], seats, 11, color)
		st, err := playGame(rules, seats, agent.SeatParams{}, 11, false, defaultPlayOptions().maxDecisions, log)
		if err != nil {
			t.Fatal(err)
		}
		log.standings(st)
		return b.String()
	}
	plain, colored := render(false), render(true)
	for _, want := range []string{seatColors[0] + "Ann" + ansiReset, seatColors[2] + "Cat" + ansiReset, ansiMoney + "$"} {
		if !strings.Contains(colored, want) {
			t.Errorf("no %q in the coloured log", want)
		}
	}
	stripped := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(colored, "")
	if stripped != plain {
		t.Error("the coloured log says something else than the plain one")
	}
	if strings.Contains(plain, "\x1b") {
		t.Error("escape codes in the plain log")
	}
}
