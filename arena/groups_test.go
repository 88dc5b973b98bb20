package arena

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// The completions a game records are the groups that came whole, as the
// ownership after each action shows them, each named by the event that
// moved the last street: a purchase on landing, an auction won, a trade
// accepted (with its other side), or a bankrupt's property passing on.
// The watcher reads the decisions pending; the check reads the events.
func TestGroupCompletionsFollowEvents(t *testing.T) {
	kinds := map[string]int{}
	for _, r := range []*monopoly.Rules{monopoly.DefaultRules(), monopolytest.Rules(t, "deal_protocol: sealed\nmax_rounds: 500"),
		monopolytest.Rules(t, "deal_protocol: sealed\nraise_to_buy: true\nmax_rounds: 500")} {
		for _, bots := range [][]string{{"baseline", "exploiter", "baseline", "random"}, {"baseline", "cautious", "exploiter"}} {
			for seed := range uint64(12) {
				var w groupWatch
				var whole [monopoly.MaxPlayers]uint64
				watch := func(g *monopoly.Game) {
					n := len(w.out)
					w.Observe(g)
					got := w.out[n:]
					how, a, b := "", -1, -1
					for _, e := range g.TakeEvents() {
						switch e.Kind {
						case monopoly.EvBuy:
							how = ByLanding
						case monopoly.EvAuctionWon:
							how = ByAuction
						case monopoly.EvTradeAccepted:
							how, a, b = ByTrade, int(e.Player), int(e.Other)
						case monopoly.EvPropertyTransfer:
							how = ByBankruptcy
						}
					}
					var want []GroupCompletion
					for p := range g.Players() {
						now := r.WholeGroups(g.OwnedMask(p))
						for m := now &^ whole[p]; m != 0; m &= m - 1 {
							c := GroupCompletion{Group: r.Groups[bits.TrailingZeros64(m)].Name, Seat: p, Round: g.Round(), How: how, Partner: -1}
							switch p {
							case a:
								c.Partner = b
							case b:
								c.Partner = a
							}
							want = append(want, c)
							kinds[how]++
						}
						whole[p] = now
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%v seed %d round %d: recorded %+v, the events show %+v", bots, seed, g.Round(), got, want)
					}
				}
				seats := make([]Seat, len(bots))
				for i, b := range bots {
					seats[i] = Seat{Bot: b}
				}
				var tb Table
				if _, err := tb.Play(Match{Rules: r, Seats: seats, Seed: seed, Watch: watch}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// Games between these bots complete groups every way: a check that
	// never saw a kind would not have tested it.
	for _, how := range []string{ByLanding, ByAuction, ByTrade, ByBankruptcy} {
		if kinds[how] == 0 {
			t.Errorf("no group completed by %s in the games: %v", how, kinds)
		}
	}
}

func TestRivalLuckFirst(t *testing.T) {
	c := func(seat int, how string) GroupCompletion { return GroupCompletion{Seat: seat, How: how, Partner: -1} }
	for _, tc := range []struct {
		cs   []GroupCompletion
		seat int
		want bool
	}{
		{nil, 0, false},
		{[]GroupCompletion{c(1, ByLanding)}, 0, true},
		{[]GroupCompletion{c(1, ByAuction)}, 0, true},
		{[]GroupCompletion{c(1, ByLanding)}, 1, false},                   // its own luck
		{[]GroupCompletion{c(0, ByLanding), c(1, ByLanding)}, 0, false},  // it held one first
		{[]GroupCompletion{c(1, ByTrade), c(2, ByLanding)}, 0, true},     // a trade between others, then the dice
		{[]GroupCompletion{c(1, ByTrade), c(1, ByBankruptcy)}, 0, false}, // no luck of the dice
	} {
		if got := RivalLuckFirst(tc.cs, tc.seat); got != tc.want {
			t.Errorf("RivalLuckFirst(%+v, %d) = %v, want %v", tc.cs, tc.seat, got, tc.want)
		}
	}
}

// The summary counts each bot's completions and its games behind from
// the games' records.
func TestTournamentGroups(t *testing.T) {
	tn := newTournament(t, TournamentConfig{Rules: monopoly.DefaultRules(), Bots: []string{"baseline", "exploiter", "random"},
		Players: 3, Games: 30, Seed: 5})
	games, tally := playAll(t, tn)
	want := map[string]map[string]int{}
	behind := map[string]int{}
	for _, g := range games {
		for _, c := range g.Groups {
			name := g.Seating[c.Seat]
			if want[name] == nil {
				want[name] = map[string]int{}
			}
			want[name][c.How]++
		}
		for s, name := range g.Seating {
			if RivalLuckFirst(g.Groups, s) {
				behind[name]++
			}
		}
	}
	total := 0
	for _, b := range tally.Summary(10).Bots {
		if fmt.Sprint(b.Groups) != fmt.Sprint(want[b.Name]) || b.Behind != behind[b.Name] {
			t.Errorf("%s: groups %v, behind %d; the games give %v, %d", b.Name, b.Groups, b.Behind, want[b.Name], behind[b.Name])
		}
		if b.BehindWins > b.Wins || b.BehindWins > float64(b.Behind) {
			t.Errorf("%s: %v wins behind of %d games, %v wins in all", b.Name, b.BehindWins, b.Behind, b.Wins)
		}
		total += b.Behind
	}
	if total == 0 {
		t.Error("no bot was ever behind: the count was not tested")
	}

	// A record naming a seat the game did not have is refused whole.
	fresh := tn.NewTally()
	bad := games[0]
	bad.Groups = append(slices.Clone(bad.Groups), GroupCompletion{Group: "Brown", Seat: 3, How: ByLanding, Partner: -1})
	if err := fresh.Add(bad); err == nil || fresh.Games() != 0 || fresh.Summary(10).Bots[0].SeatsPlayed != 0 {
		t.Errorf("a completion by seat 3 of 3: error %v, %d games counted", err, fresh.Games())
	}
}
