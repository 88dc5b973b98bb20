package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTournamentCLI runs gopoly tournament as a user would: the --json
// form, the files of --out, the same bytes for any number of workers,
// Ctrl-C, and bad input.
func TestTournamentCLI(t *testing.T) {
	dir := t.TempDir()
	// baseline holds three seats of four: two entries in the standings.
	args := []string{"tournament", "--bots", "baseline,random,baseline,baseline", "--games", "48",
		"--max-rounds", "60", "--seed", "5", "--bootstrap", "200", "--json"}

	var wantJSON, wantLines []byte
	for _, workers := range []string{"1", "2", "3"} {
		out := filepath.Join(dir, "w"+workers)
		stdout, stderr, code := cliRun(t, append(args, "--workers", workers, "--out", out)...)
		if code != 0 {
			t.Fatalf("%s workers: exit %d: %s", workers, code, stderr)
		}
		lines, err := os.ReadFile(filepath.Join(out, "games.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if wantJSON == nil {
			wantJSON, wantLines = []byte(stdout), lines
			continue
		}
		if stdout != string(wantJSON) {
			t.Errorf("%s workers: another --json output", workers)
		}
		if !bytes.Equal(lines, wantLines) {
			t.Errorf("%s workers: another games.jsonl", workers)
		}
	}

	t.Run("json", func(t *testing.T) {
		if ks := cliKeys(t, wantJSON); !slices.Equal(ks, []string{"bots", "games", "players"}) {
			t.Fatalf("keys %v", ks)
		}
		var res struct {
			Games   int               `json:"games"`
			Players int               `json:"players"`
			Bots    []json.RawMessage `json:"bots"`
		}
		if err := json.Unmarshal(wantJSON, &res); err != nil {
			t.Fatal(err)
		}
		if res.Games != 48 || res.Players != 4 || len(res.Bots) != 2 {
			t.Fatalf("%d games, %d players, %d bots", res.Games, res.Players, len(res.Bots))
		}
		wins, shares := 0.0, 0.0
		for i, raw := range res.Bots {
			if ks := cliKeys(t, raw); !slices.Equal(ks, []string{"behind", "behind_wins", "ci95", "groups", "name", "rating", "rating_ci95", "seats_played", "win_share", "wins"}) {
				t.Fatalf("bot keys %v", ks)
			}
			var b struct {
				Name        string     `json:"name"`
				SeatsPlayed int        `json:"seats_played"`
				Wins        float64    `json:"wins"`
				WinShare    float64    `json:"win_share"`
				CI95        [2]float64 `json:"ci95"`
				Rating      float64    `json:"rating"`
				RatingCI95  [2]float64 `json:"rating_ci95"`
			}
			json.Unmarshal(raw, &b)
			want := []struct {
				name  string
				seats int
			}{{"baseline", 3 * 48}, {"random", 48}}[i]
			if b.Name != want.name || b.SeatsPlayed != want.seats {
				t.Errorf("bot %d: %s with %d seats, want %s with %d", i, b.Name, b.SeatsPlayed, want.name, want.seats)
			}
			if math.Abs(b.WinShare-b.Wins/48) > 1e-12 || b.CI95[0] > b.WinShare || b.CI95[1] < b.WinShare {
				t.Errorf("%s: %v wins, share %v, CI %v", b.Name, b.Wins, b.WinShare, b.CI95)
			}
			if b.RatingCI95[0] > b.Rating || b.RatingCI95[1] < b.Rating {
				t.Errorf("%s: rating %v, CI %v", b.Name, b.Rating, b.RatingCI95)
			}
			wins += b.Wins
			shares += b.WinShare
		}
		if math.Abs(wins-48) > 1e-9 || math.Abs(shares-1) > 1e-9 {
			t.Errorf("wins sum to %v, shares to %v", wins, shares)
		}
	})

	t.Run("out", func(t *testing.T) {
		out := filepath.Join(dir, "w1")
		sc := bufio.NewScanner(bytes.NewReader(wantLines))
		var seatOf [4][4]int // entrant x seat
		n := 0
		for sc.Scan() {
			var g struct {
				Game     int      `json:"game"`
				Seed     uint64   `json:"seed"`
				Seating  []string `json:"seating"`
				Entrants []int    `json:"entrants"`
				Winner   *int     `json:"winner"`
				Tied     []int    `json:"tied"`
				Rounds   int      `json:"rounds"`
				Capped   *bool    `json:"capped"`
				NetWorth []int    `json:"net_worth"`
			}
			if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
				t.Fatalf("line %d: %v", n+1, err)
			}
			if g.Game != n || g.Seed == 0 || len(g.Seating) != 4 || len(g.NetWorth) != 4 || g.Winner == nil || g.Capped == nil || g.Rounds < 1 {
				t.Fatalf("line %d: %s", n+1, sc.Bytes())
			}
			if (*g.Winner < 0) != (len(g.Tied) > 1) {
				t.Fatalf("line %d: winner %d, tied %v", n+1, *g.Winner, g.Tied)
			}
			for s, e := range g.Entrants {
				seatOf[e][s]++
			}
			n++
		}
		if n != 48 {
			t.Fatalf("%d lines for 48 games", n)
		}
		for e := range seatOf {
			for s, k := range seatOf[e] {
				if k != 12 {
					t.Errorf("entrant %d held seat %d in %d of 48 games", e, s, k)
				}
			}
		}
		var sum struct {
			Games int `json:"games"`
			Bots  []struct {
				Name   string  `json:"name"`
				Rating float64 `json:"rating"`
				Parity float64 `json:"parity"`
			} `json:"bots"`
			Seats []json.RawMessage `json:"seats"`
		}
		data, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Games != 48 || len(sum.Bots) != 2 || len(sum.Seats) != 4 || sum.Bots[0].Parity != 0.75 {
			t.Errorf("summary.json: %s", data)
		}
		for _, name := range []string{"winrate", "rating"} {
			f, err := os.Open(filepath.Join(out, name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s.png: %v", name, err)
			}
			if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
				t.Errorf("%s.png: %v", name, b)
			}
			svg, err := os.ReadFile(filepath.Join(out, name+".svg"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("baseline")) || !bytes.Contains(svg, []byte("random")) {
				t.Errorf("%s.svg: %.200s", name, svg)
			}
		}
	})

	t.Run("text", func(t *testing.T) {
		out, stderr, code := cliRun(t, "tournament", "--bots", "random,baseline", "--games", "20", "--max-rounds", "40")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		// Ranked by rating: baseline first. Players default to two.
		if !strings.Contains(out, "in 2 seats") || !regexp.MustCompile(`(?m)^ +1  baseline +20 `).MatchString(out) || !regexp.MustCompile(`(?m)^ +2  random +20 `).MatchString(out) {
			t.Errorf("standings:\n%s", out)
		}
	})

	// Ctrl-C stops a tournament as it stops an experiment: the games
	// finished are written and reported, one line on stderr says so, and
	// the exit code is 130, with --json or without.
	t.Run("interrupt", func(t *testing.T) {
		for _, asJSON := range []bool{true, false} {
			out := filepath.Join(dir, fmt.Sprintf("int-%v", asJSON))
			args := []string{"tournament", "--bots", "baseline,random", "--players", "4", "--games", "100000000", "--workers", "1", "--out", out, "--bootstrap", "100"}
			if asJSON {
				args = append(args, "--json")
			}
			cmd := gopolyProcess(args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second)
			for {
				if st, err := os.Stat(filepath.Join(out, "games.jsonl")); err == nil && st.Size() > 0 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("no games written in 30 s")
				}
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("--json %v: exit %d, want 130 (%s)", asJSON, code, stderr.String())
			}
			games := 0
			if asJSON {
				var res struct {
					Games int `json:"games"`
				}
				if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
					t.Fatalf("%v: %s", err, stdout.String())
				}
				games = res.Games
			} else if m := regexp.MustCompile(`(?m)^games +(\d+) \(`).FindStringSubmatch(stdout.String()); m != nil {
				games, _ = strconv.Atoi(m[1])
			} else {
				t.Fatalf("no standings: %s", stdout.String())
			}
			lines, _ := os.ReadFile(filepath.Join(out, "games.jsonl"))
			if n := bytes.Count(lines, []byte("\n")); games == 0 || n != games {
				t.Errorf("--json %v: %d games reported, %d lines", asJSON, games, n)
			}
			want := fmt.Sprintf("gopoly: interrupted: %d of 100000000 games played and reported\n", games)
			if stderr.String() != want {
				t.Errorf("--json %v: stderr %q, want %q", asJSON, stderr.String(), want)
			}
		}
	})

	t.Run("bad-input", func(t *testing.T) {
		file := filepath.Join(dir, "file")
		os.WriteFile(file, nil, 0o644)
		for _, a := range [][]string{
			{"--bots", "baseline,nobody"},
			{"--bots", "baseline"},
			{"--bots", "baseline,baseline,baseline,baseline"},
			{"--bots", "baseline,random,baseline", "--players", "4"},
			{"--bots", "baseline,random", "--players", "9"},
			{"--bots", "baseline,random", "--players", "1"},
			{"--bots", "baseline,random", "--games", "0"},
			{"--bots", "baseline,random", "--bootstrap", "10"},
			{"--bots", "baseline,random", "--out", filepath.Join(file, "sub")},
			{"--bots", "baseline,random", "--rules", filepath.Join(dir, "missing.yaml")},
			{"--games", "10"},
		} {
			_, stderr, code := cliRun(t, append([]string{"tournament"}, a...)...)
			if code != 2 || !strings.HasPrefix(stderr, "gopoly: ") {
				t.Errorf("%v: exit %d, stderr %q", a, code, stderr)
			}
		}
	})
}
