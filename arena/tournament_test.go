package arena

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

func newTournament(t *testing.T, c TournamentConfig) *Tournament {
	t.Helper()
	tn, err := NewTournament(c)
	if err != nil {
		t.Fatal(err)
	}
	return tn
}

// Every cycle of SeatCycle games seats each entrant once in every seat;
// every OrderCycle games, every ordered table of entrants comes up
// equally often.
func TestTournamentSeatBalance(t *testing.T) {
	for _, tc := range []struct {
		bots    string
		players int
		entries int
		orders  int // expected OrderCycle
	}{
		{"a,b,c,d", 4, 4, 24},
		{"a,b,b,b", 4, 4, 24},
		{"a,b,c", 3, 3, 6},
		{"a,b", 2, 2, 2},
		{"a,b,c,d,e,f", 4, 6, 720},
		{"a,b,c,d,e", 2, 5, 120},
		{"a,b", 4, 4, 24},                      // repeated: two seats each
		{"a,b,c,d,e,f,g,h,a,b,c,d", 4, 12, 0},  // circles drawn at random
		{"a,b,c,d,e,f,g,h", 8, 8, 40320},       // every seating of eight
		{"a,b,c,d,e,f,g,h,a", 6, 9, 9 * 40320}, // the largest enumerated
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.bots, tc.players), func(t *testing.T) {
			// Seating is by entrant, whatever the bots: letters stand
			// for two registered bots, and balance is checked by
			// entrant index.
			names := strings.Split(tc.bots, ",")
			for i, l := range names {
				names[i] = map[bool]string{true: "baseline", false: "random"}[l[0]%2 == 0]
			}
			tn := newTournament(t, TournamentConfig{Bots: names, Players: tc.players, Games: 1, Seed: 42})
			m := len(tn.Entrants())
			if m != tc.entries || tn.SeatCycle() != m || tn.OrderCycle() != tc.orders {
				t.Fatalf("%d entrants, seat cycle %d, order cycle %d", m, tn.SeatCycle(), tn.OrderCycle())
			}
			cycles := 3
			games := m * cycles
			if tc.orders > 0 && tc.orders <= 40320 {
				games = tc.orders
			}
			tables := map[string]int{}
			var count [][]int // entrant x seat, within the current cycle
			var seats []int
			for i := range games {
				if i%m == 0 {
					count = make([][]int, m)
					for e := range count {
						count[e] = make([]int, tc.players)
					}
				}
				seats = tn.Seating(i, seats)
				if len(seats) != tc.players {
					t.Fatalf("game %d: %d seats", i, len(seats))
				}
				for s, e := range seats {
					if slices.Index(seats, e) != s {
						t.Fatalf("game %d: entrant %d twice in %v", i, e, seats)
					}
					count[e][s]++
				}
				tables[fmt.Sprint(seats)]++
				if i%m == m-1 {
					for e := range count {
						for s, n := range count[e] {
							if n != 1 {
								t.Fatalf("cycle ending at game %d: entrant %d held seat %d %d times", i, e, s, n)
							}
						}
					}
				}
			}
			if tc.orders > 0 && games == tc.orders {
				// m!/(m-P)! ordered tables, each (m-P)! times.
				want := factorial(m - tc.players)
				if len(tables) != tc.orders/want {
					t.Fatalf("%d distinct tables in %d games", len(tables), games)
				}
				for k, n := range tables {
					if n != want {
						t.Fatalf("table %s played %d times, want %d", k, n, want)
					}
				}
			}
		})
	}
}

// The seating is a function of the run seed and the game index: the same
// seed repeats it, another seed plays the circles in another order.
func TestTournamentSeatingSeed(t *testing.T) {
	bots := []string{"baseline", "random", "baseline", "random", "baseline"}
	for _, players := range []int{4, 5} {
		seat := func(tn *Tournament, from, to int) string {
			var b strings.Builder
			for i := from; i < to; i++ {
				fmt.Fprint(&b, tn.Seating(i, nil))
			}
			return b.String()
		}
		plan := func(seed uint64, from, to int) string {
			return seat(newTournament(t, TournamentConfig{Bots: bots, Players: players, Games: 1, Seed: seed}), from, to)
		}
		tn := newTournament(t, TournamentConfig{Bots: bots, Players: players, Games: 1, Seed: 1})
		first := seat(tn, 0, 200)
		if seat(tn, 0, 200) != first {
			t.Error("asked again, the tournament seated differently")
		}
		if plan(1, 0, 200) != first {
			t.Error("the same seed seated differently")
		}
		if first == plan(2, 0, 200) {
			t.Error("seeds 1 and 2 seat the same")
		}
		if !strings.HasSuffix(first, plan(1, 150, 200)) {
			t.Error("a game's seating depends on the games before it")
		}
	}
}

func TestNewTournamentErrors(t *testing.T) {
	for _, tc := range []struct {
		c    TournamentConfig
		want string
	}{
		{TournamentConfig{Bots: []string{"baseline", "nobody"}, Players: 2, Games: 1}, `unknown bot "nobody"`},
		{TournamentConfig{Bots: []string{"baseline", "random"}, Players: 1, Games: 1}, "1 players"},
		{TournamentConfig{Bots: []string{"baseline", "random"}, Players: 9, Games: 1}, "9 players"},
		{TournamentConfig{Bots: []string{"baseline", "random"}, Players: 2, Games: 0}, "games must be"},
		{TournamentConfig{Players: 2, Games: 1}, "no bots"},
		{TournamentConfig{Bots: []string{"baseline", "baseline"}, Players: 2, Games: 1}, "two different bots"},
		{TournamentConfig{Bots: []string{"baseline", "random", "baseline"}, Players: 4, Games: 1}, "3 bots for 4 seats"},
	} {
		_, err := NewTournament(tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "a") {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
}

// playAll plays tn and returns its games and tally.
func playAll(t *testing.T, tn *Tournament) ([]TournamentGame, *Tally) {
	t.Helper()
	var games []TournamentGame
	tally := tn.NewTally()
	err := tn.Play(context.Background(), func(g TournamentGame) error {
		games = append(games, g)
		return tally.Add(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	return games, tally
}

// The records and the summary are the same, byte for byte, on 1, 2 and 3
// workers, and any game replays alone.
func TestTournamentWorkers(t *testing.T) {
	// Ten rounds: short games, the richest wins, and random wins some.
	c := TournamentConfig{Rules: monopolytest.Rules(t, "max_rounds: 10"), Bots: []string{"baseline", "random", "baseline", "random"},
		Players: 4, Games: 60, Seed: 9}
	var want string
	for _, w := range []int{1, 2, 3} {
		c.Workers = w
		tn := newTournament(t, c)
		games, tally := playAll(t, tn)
		out, err := json.Marshal(struct {
			G []TournamentGame
			S TournamentSummary
		}{games, tally.Summary(200)})
		if err != nil {
			t.Fatal(err)
		}
		if w == 1 {
			want = string(out)
			// Every game replays alone at a fresh table: the tables a
			// worker reuses change nothing.
			for i, rg := range games {
				g, err := tn.PlayGame(i, nil)
				if err != nil {
					t.Fatal(err)
				}
				if a, b := fmt.Sprint(g), fmt.Sprint(rg); a != b {
					t.Fatalf("game %d alone: %s\nin the run: %s", i, a, b)
				}
			}
			continue
		}
		if string(out) != want {
			t.Fatalf("%d workers gave another result", w)
		}
	}
}

// Wins, draws shared, add up to the games, and win shares to one; a tied
// timed game is shared by the solvent seats of highest net worth.
func TestTournamentScoring(t *testing.T) {
	// One round: buying a property leaves net worth where it was, so
	// many games end tied.
	tn := newTournament(t, TournamentConfig{Rules: monopolytest.Rules(t, "max_rounds: 1"),
		Bots: []string{"baseline", "random", "baseline"}, Players: 3, Games: 300, Seed: 3})
	games, tally := playAll(t, tn)
	ties := 0
	for _, g := range games {
		if !g.Capped || g.Rounds != 1 {
			t.Fatalf("game %d: capped %v after %d rounds of a one-round game", g.Game, g.Capped, g.Rounds)
		}
		sum := 0.0
		for _, s := range g.Shares() {
			sum += s
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("game %d: shares sum to %v", g.Game, sum)
		}
		best := slices.Max(g.NetWorth)
		if g.Winner >= 0 {
			if g.Tied != nil || g.NetWorth[g.Winner] != best {
				t.Fatalf("game %d: winner %d with %v, tied %v", g.Game, g.Winner, g.NetWorth, g.Tied)
			}
			if n := len(slices.DeleteFunc(slices.Clone(g.NetWorth), func(w int) bool { return w != best })); n != 1 {
				t.Fatalf("game %d: a winner among %d equal net worths %v", g.Game, n, g.NetWorth)
			}
			continue
		}
		ties++
		if len(g.Tied) < 2 {
			t.Fatalf("game %d: tied %v, capped %v", g.Game, g.Tied, g.Capped)
		}
		for s, w := range g.NetWorth {
			if slices.Contains(g.Tied, s) != (w == best) {
				t.Fatalf("game %d: tied %v with net worths %v", g.Game, g.Tied, g.NetWorth)
			}
		}
	}
	if ties < 10 {
		t.Fatalf("only %d ties in %d one-round games: the test needs more", ties, len(games))
	}
	s := tally.Summary(100)
	if s.Ties != ties || s.Games != 300 || s.Capped != 300 {
		t.Fatalf("summary: %d ties, %d games, %d capped", s.Ties, s.Games, s.Capped)
	}
	wins, shares, parity, seatWins := 0.0, 0.0, 0.0, 0.0
	for _, b := range s.Bots {
		wins += b.Wins
		shares += b.WinShare
		parity += b.Parity
		if b.CI95[0] > b.WinShare || b.WinShare > b.CI95[1] || b.PerSeatCI95[0] > b.PerSeat || b.PerSeat > b.PerSeatCI95[1] {
			t.Errorf("%s: share %v in %v, per seat %v in %v", b.Name, b.WinShare, b.CI95, b.PerSeat, b.PerSeatCI95)
		}
		if b.RatingCI95[0] > b.Rating || b.Rating > b.RatingCI95[1] {
			t.Errorf("%s: rating %v outside %v", b.Name, b.Rating, b.RatingCI95)
		}
	}
	for _, r := range s.Seats {
		seatWins += r.Wins
	}
	if math.Abs(wins-300) > 1e-9 || math.Abs(shares-1) > 1e-12 || math.Abs(parity-1) > 1e-12 || math.Abs(seatWins-300) > 1e-9 {
		t.Errorf("wins %v, shares %v, parity %v, seat wins %v", wins, shares, parity, seatWins)
	}
	// Shared wins are exact: every total is the float nearest a whole
	// number of sixths (shares of 1, 1/2 and 1/3), not a sum's rounding
	// noise.
	exact := func(w float64) bool { return w == math.Round(w*6)/6 }
	for _, b := range s.Bots {
		if !exact(b.Wins) {
			t.Errorf("%s: %v wins", b.Name, b.Wins)
		}
	}
	for _, r := range s.Seats {
		if !exact(r.Wins) {
			t.Errorf("seat %d: %v wins", r.Seat, r.Wins)
		}
	}
	// Three-way ties: a third each, 300 times, is 100 wins each.
	thirds := newTournament(t, TournamentConfig{Bots: []string{"baseline", "random", "cautious"}, Players: 3, Games: 300, Seed: 3}).NewTally()
	for i := range 300 {
		if err := thirds.Add(TournamentGame{Game: i, Entrants: []int{0, 1, 2}, Seating: []string{"baseline", "random", "cautious"},
			Winner: -1, Tied: []int{0, 1, 2}, Capped: true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range thirds.Summary(100).Bots {
		if b.Wins != 100 || b.WinShare != 1.0/3 {
			t.Errorf("%s: %v wins, share %v; want 100 and 1/3", b.Name, b.Wins, b.WinShare)
		}
	}
	// baseline holds two of three seats in every game.
	if b := s.Bots[0]; b.Name != "baseline" || b.SeatsPlayed != 600 || b.GamesPlayed != 300 || math.Abs(b.Parity-2.0/3) > 1e-12 {
		t.Errorf("baseline: %+v", b)
	}
}

// A bot that is stronger scores more and rates higher; a tally refuses a
// game out of order.
func TestTournamentStrongerBot(t *testing.T) {
	tn := newTournament(t, TournamentConfig{Bots: []string{"random", "baseline"}, Players: 2, Games: 60, Seed: 5})
	_, tally := playAll(t, tn)
	s := tally.Summary(200)
	r, b := s.Bots[0], s.Bots[1]
	if r.Name != "random" || b.WinShare < 0.8 || b.Rating-r.Rating < 200 || b.RatingCI95[0] < r.RatingCI95[1] {
		t.Errorf("random %+v\nbaseline %+v", r, b)
	}
	if err := tn.NewTally().Add(TournamentGame{Game: 1, Entrants: []int{0, 1}, Seating: []string{"random", "baseline"}, Winner: 0}); err == nil {
		t.Error("game 1 counted first")
	}
}

// BenchmarkTournamentGame plays games of a baseline/random tournament on
// one worker, as gopoly tournament does (a game per iteration);
// BenchmarkTournamentSimGame plays the same bots in fixed seats, as
// gopoly sim does: the difference is the cost of rotating seats and
// recording the games. (b.N, not b.Loop: the games of a run go through
// one Play, which keeps its tables from game to game.)
func BenchmarkTournamentGame(b *testing.B) {
	tn, err := NewTournament(TournamentConfig{Rules: benchRules(b), Bots: []string{"baseline", "random", "baseline", "random"},
		Players: 4, Games: b.N, Seed: 7, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := tn.Play(context.Background(), func(TournamentGame) error { return nil }); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkTournamentSimGame(b *testing.B) {
	benchGames(b, benchRules(b), "baseline", "random", "baseline", "random")
}

// With more entrants than seats, each bot sits out some games: seats and
// games played follow the plan (4 of every 5 games for each entrant).
func TestTournamentSubsets(t *testing.T) {
	tn := newTournament(t, TournamentConfig{Rules: monopolytest.Rules(t, "max_rounds: 8"),
		Bots: []string{"random", "baseline", "random", "random", "random"}, Players: 4, Games: 50, Seed: 2})
	_, tally := playAll(t, tn)
	s := tally.Summary(100)
	r, b := s.Bots[0], s.Bots[1]
	if b.Name != "baseline" || b.SeatsPlayed != 40 || b.GamesPlayed != 40 || r.SeatsPlayed != 160 || r.GamesPlayed != 50 {
		t.Fatalf("random %+v\nbaseline %+v", r, b)
	}
	if math.Abs(b.Parity-0.2) > 1e-12 || math.Abs(b.WinShare+r.WinShare-1) > 1e-12 {
		t.Errorf("baseline parity %v, shares %v + %v", b.Parity, b.WinShare, r.WinShare)
	}
	// Ten games without baseline all go to random, and say nothing of
	// the two bots' difference; baseline still rates higher.
	if r.Wins < 10 || b.Rating <= r.Rating {
		t.Errorf("random %v wins, rated %.0f; baseline %.0f", r.Wins, r.Rating, b.Rating)
	}
}

// A bot's own overrides (seats: N in a tournament, N its index in Bots)
// go with it to every seat it sits in: each game is the match that seats
// it there with them, and the others without. They are refused for a bot
// out of range or named more than once.
func TestTournamentBotParams(t *testing.T) {
	r := monopolytest.Rules(t, "max_rounds: 60")
	sp, err := agent.ParseSeatParams("test.yaml", []byte("all: {cash_reserve: 80}\nseats:\n  1: {cash_reserve: 900}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bots := []string{"random", "baseline", "cautious"}
	tn, err := NewTournament(TournamentConfig{Rules: r, Bots: bots, Players: 3, Games: 6, Seed: 4, Params: sp})
	if err != nil {
		t.Fatal(err)
	}
	rich, plain := paramSpec(t, "{cash_reserve: 900}"), paramSpec(t, "{cash_reserve: 80}")
	differs := 0
	for i := range tn.Games {
		g, err := tn.PlayGame(i, nil)
		if err != nil {
			t.Fatal(err)
		}
		seats := make([]Seat, len(g.Seating))
		same := make([]Seat, len(g.Seating))
		for s, b := range g.Seating {
			seats[s], same[s] = Seat{Bot: b, Params: plain}, Seat{Bot: b, Params: plain}
			if b == "baseline" {
				seats[s].Params = rich
			}
		}
		want, err := (&Table{}).Play(Match{Rules: r, Seats: seats, Seed: g.Seed})
		if err != nil {
			t.Fatal(err)
		}
		if g.Winner != want.Winner || g.Rounds != want.Rounds || g.Decisions != want.Decisions {
			t.Errorf("game %d (%v): winner %d after %d rounds and %d decisions; the match seating the baseline with its overrides: %d, %d, %d",
				i, g.Seating, g.Winner, g.Rounds, g.Decisions, want.Winner, want.Rounds, want.Decisions)
		}
		if without, err := (&Table{}).Play(Match{Rules: r, Seats: same, Seed: g.Seed}); err == nil && without.Decisions != g.Decisions {
			differs++
		}
	}
	if differs == 0 {
		t.Error("the overrides changed no game: the test cannot tell them from none")
	}
	if got := tn.NewTally().Summary(100).BotParams; fmt.Sprint(got) != "map[baseline:map[cash_reserve:900]]" {
		t.Errorf("summary bot_params %v, want the baseline's as written", got)
	}
	for _, tc := range []struct {
		bots []string
		src  string
		want string
	}{
		{[]string{"random", "baseline"}, "seats:\n  2: {cash_reserve: 9}\n", "test.yaml:2: seats.2: parameters for bot 2, but the tournament's bots are numbered from 0 to 1"},
		{[]string{"random", "baseline", "baseline"}, "seats:\n  1: {cash_reserve: 9}\n", "test.yaml:2: seats.1: parameters for bot 1, baseline, which is named 2 times"},
	} {
		sp, err := agent.ParseSeatParams("test.yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = NewTournament(TournamentConfig{Rules: r, Bots: tc.bots, Players: 3, Games: 1, Params: sp})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v with %q: %v, want %q", tc.bots, tc.src, err, tc.want)
		}
	}
}
