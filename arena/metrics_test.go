package arena

import (
	"fmt"
	"math/bits"
	"testing"
	"time"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/monopoly/monopolytest"
)

// cashGame returns a game whose players hold the given cash, to show the
// collector chosen balances.
func cashGame(t *testing.T, cash ...int) *monopoly.Game {
	t.Helper()
	ps := make([]monopoly.PlayerSetup, len(cash))
	for i, c := range cash {
		ps[i].Cash = c
	}
	g, err := monopoly.NewFromSetup(monopoly.DefaultRules(), monopoly.Setup{Players: ps, HouseSupply: -1, HotelSupply: -1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A hand-made event sequence gives the counts it should: each event kind
// moves its own counter, for the right player.
func TestMetricsHandMade(t *testing.T) {
	type ev = monopoly.Event
	g := cashGame(t, 1500, 1500, 1500)
	var m Metrics
	m.Reset(3)
	m.Observe(g, nil) // the game's start: first cash sample
	steps := [][]ev{
		{{Kind: monopoly.EvBuy, Player: 0, Square: 1, Amount: 60}, {Kind: monopoly.EvDecline, Player: 1, Square: 3}},
		{{Kind: monopoly.EvAuctionStart, Player: 1, Square: 3}, {Kind: monopoly.EvBid, Player: 1, Amount: 10},
			{Kind: monopoly.EvBid, Player: 2, Amount: 20}, {Kind: monopoly.EvBid, Player: 1, Amount: 30},
			{Kind: monopoly.EvDropOut, Player: 2}, {Kind: monopoly.EvAuctionWon, Player: 1, Square: 3, Amount: 30}},
		{{Kind: monopoly.EvTradeProposed, Player: 2, Other: 0}, {Kind: monopoly.EvTradeRejected, Player: 2, Other: 0}},
		{{Kind: monopoly.EvTradeProposed, Player: 2, Other: 1}, {Kind: monopoly.EvTradeAccepted, Player: 2, Other: 1}},
		{{Kind: monopoly.EvTradeProposed, Player: 0, Other: 1}, {Kind: monopoly.EvTradeAccepted, Player: 0, Other: 1}},
		// 0 proposes to 2, 2 counters, 0 counters back, 2 accepts 0's counter.
		{{Kind: monopoly.EvTradeProposed, Player: 0, Other: 2}},
		{{Kind: monopoly.EvTradeProposed, Player: 2, Other: 0, Flag: true}},
		{{Kind: monopoly.EvTradeProposed, Player: 0, Other: 2, Flag: true}},
		{{Kind: monopoly.EvTradeAccepted, Player: 0, Other: 2}},
		// 1 proposes to 2, 2 counters, 1 rejects the counter.
		{{Kind: monopoly.EvTradeProposed, Player: 1, Other: 2}},
		{{Kind: monopoly.EvTradeProposed, Player: 2, Other: 1, Flag: true}},
		{{Kind: monopoly.EvTradeRejected, Player: 2, Other: 1}},
		{{Kind: monopoly.EvTurnStart, Player: 1, Amount: 4}},
		{{Kind: monopoly.EvBuild, Player: 1, Square: 6, Other: 1}, {Kind: monopoly.EvBuild, Player: 1, Square: 8, Other: 1}},
		{{Kind: monopoly.EvTurnStart, Player: 2, Amount: 4}},
		{{Kind: monopoly.EvStayInJail, Player: 2, Amount: 1}},
		{{Kind: monopoly.EvTurnStart, Player: 0, Amount: 5}},
		{{Kind: monopoly.EvBuild, Player: 1, Square: 6, Other: 5}, {Kind: monopoly.EvSellBuilding, Player: 1, Square: 6, Other: 4}},
		{{Kind: monopoly.EvPay, Player: 2, Other: monopoly.Bank, Amount: 50, Reason: monopoly.ReasonJailFine},
			{Kind: monopoly.EvPay, Player: 2, Other: monopoly.Bank, Amount: 200, Reason: monopoly.ReasonTax},
			{Kind: monopoly.EvPay, Player: 0, Other: monopoly.Bank, Amount: 100, Reason: monopoly.ReasonTax},
			{Kind: monopoly.EvPay, Player: 1, Other: 0, Amount: 50, Reason: monopoly.ReasonCard}},
		{{Kind: monopoly.EvUseJailCard, Player: 0}, {Kind: monopoly.EvMortgage, Player: 0, Square: 1},
			{Kind: monopoly.EvMortgage, Player: 0, Square: 3}, {Kind: monopoly.EvUnmortgage, Player: 0, Square: 3}},
		{{Kind: monopoly.EvRent, Player: 0, Other: 1, Square: 6, Amount: 250}, {Kind: monopoly.EvRent, Player: 2, Other: 1, Square: 6, Amount: 50}},
		{{Kind: monopoly.EvBankrupt, Player: 2, Other: monopoly.Bank}},
		{{Kind: monopoly.EvGameOver, Player: -1}},
	}
	for _, s := range steps {
		m.Observe(g, s)
	}
	m.Finish(g)
	want := [3]SeatMetrics{
		{MeanCash: 1500, MinCash: 1500, PropertiesBought: 1, TradesProposed: 2, TradesAccepted: 1, TradesReceived: 1,
			CounterOffers: 1, CounterOffersAccepted: 1,
			JailCardsUsed: 1, Mortgages: 2, Unmortgages: 1, RentPaid: 250, NetWorth: 1500},
		{MeanCash: 1500, MinCash: 1500, AuctionBids: 2, AuctionsWon: 1, TradesProposed: 1, TradesReceived: 2, TradesAcceptedWhenReceived: 2,
			HousesBuilt: 2, HotelsBuilt: 1, BuildingsSold: 1, FirstBuildRound: 4, RentReceived: 300, NetWorth: 1500},
		{MeanCash: 1500, MinCash: 1500, AuctionBids: 1, TradesProposed: 2, TradesAccepted: 1, TradesReceived: 2, CounterOffers: 2, JailTurnsServed: 1,
			JailFinesPaid: 1, RentPaid: 50, Bankrupt: 1, NetWorth: 1500},
	}
	for p := range 3 {
		if got := m.Seat(p); got != want[p] {
			t.Errorf("seat %d:\n got %+v\nwant %+v", p, got, want[p])
		}
	}
}

// Mean cash samples every turn start and the end; the minimum follows
// every action; a bankrupt player's cash no longer counts.
func TestMetricsCash(t *testing.T) {
	turn := []monopoly.Event{{Kind: monopoly.EvTurnStart, Player: 1, Amount: 1}}
	var m Metrics
	m.Reset(2)
	m.Observe(cashGame(t, 1000, 400), nil)                                                              // sample 1: 1000, 400
	m.Observe(cashGame(t, 10, 900), []monopoly.Event{{Kind: monopoly.EvPay, Player: 0, Amount: 990}})   // no sample; minimum 10
	m.Observe(cashGame(t, 600, 800), turn)                                                              // sample 2: 600, 800
	m.Observe(cashGame(t, 500, 0), []monopoly.Event{{Kind: monopoly.EvBankrupt, Player: 1, Other: -1}}) // 1 leaves
	m.Observe(cashGame(t, 200, 0), turn)                                                                // sample 3: 200 only
	m.Finish(cashGame(t, 800, 0))                                                                       // sample 4: 800 only
	if got := m.Seat(0); got.MeanCash != (1000+600+200+800)/4.0 || got.MinCash != 10 {
		t.Errorf("seat 0: mean %v, min %v", got.MeanCash, got.MinCash)
	}
	if got := m.Seat(1); got.MeanCash != (400+800)/2.0 || got.MinCash != 400 || got.Bankrupt != 1 {
		t.Errorf("seat 1: mean %v, min %v, bankrupt %d", got.MeanCash, got.MinCash, got.Bankrupt)
	}
}

// recount rebuilds the metrics a second way, from the game's state
// before and after every action rather than from its events, where the
// state shows them.
type recount struct {
	n                     int
	owner                 [monopoly.MaxSquares]int
	level                 [monopoly.MaxSquares]int
	mortgaged             uint64
	jailTurns             [monopoly.MaxPlayers]int
	turn                  int
	fromBank              [monopoly.MaxPlayers]int // squares gained from the bank (bought or won at auction)
	houses, hotels        [monopoly.MaxPlayers]int // building levels raised
	firstBuild            [monopoly.MaxPlayers]int
	mortgages, served     [monopoly.MaxPlayers]int
	cashSum, samples      [monopoly.MaxPlayers]int
	minCash               [monopoly.MaxPlayers]int
	proposed, received    [monopoly.MaxPlayers]int
	tradesIn, tradesOut   [monopoly.MaxPlayers]int // squares moved by accepted trades
	transferIn, lostBkrpt [monopoly.MaxPlayers]int // squares moved by bankruptcy
	bids, won             [monopoly.MaxPlayers]int
}

func newRecount(g *monopoly.Game) *recount {
	r := &recount{n: g.Players(), turn: g.Turn(), mortgaged: g.MortgagedMask()}
	for sq := range g.Rules().Squares {
		r.owner[sq], r.level[sq] = g.Owner(sq), g.Houses(sq)
	}
	for p := range r.n {
		r.minCash[p] = g.Cash(p)
		r.cashSum[p] += g.Cash(p)
		r.samples[p]++
	}
	return r
}

func (r *recount) step(g *monopoly.Game, events []monopoly.Event) {
	for sq := range g.Rules().Squares {
		o := g.Owner(sq)
		if r.owner[sq] < 0 && o >= 0 {
			r.fromBank[o]++
		}
		if lv := g.Houses(sq); lv > r.level[sq] {
			for l := r.level[sq] + 1; l <= lv; l++ {
				if l == 5 {
					r.hotels[o]++
				} else {
					r.houses[o]++
				}
			}
			if r.firstBuild[o] == 0 {
				r.firstBuild[o] = g.Round()
			}
		}
		if bit := uint64(1) << sq; g.MortgagedMask()&bit != 0 && r.mortgaged&bit == 0 && o == r.owner[sq] {
			r.mortgages[o]++
		}
		r.owner[sq], r.level[sq] = o, g.Houses(sq)
	}
	r.mortgaged = g.MortgagedMask()
	for p := range r.n {
		// The last failure of a stay forces the fine: not a turn served.
		if jt := g.JailTurns(p); jt > r.jailTurns[p] && g.InJail(p) && jt < g.Rules().JailTurns {
			r.served[p] += jt - r.jailTurns[p]
		}
		r.jailTurns[p] = g.JailTurns(p)
	}
	if g.Turn() != r.turn && !g.Over() {
		r.turn = g.Turn()
		for p := range r.n {
			if !g.Bankrupt(p) {
				r.cashSum[p] += g.Cash(p)
				r.samples[p]++
			}
		}
	}
	for p := range r.n {
		if !g.Bankrupt(p) {
			r.minCash[p] = min(r.minCash[p], g.Cash(p))
		}
	}
	for _, e := range events {
		switch e.Kind {
		case monopoly.EvTradeProposed:
			if !e.Flag {
				r.proposed[e.Player]++
				r.received[e.Other]++
			}
		case monopoly.EvTradeAccepted:
			r.tradesOut[e.Trade.From] += bits.OnesCount64(e.Trade.GiveSquares)
			r.tradesIn[e.Trade.From] += bits.OnesCount64(e.Trade.GetSquares)
			r.tradesOut[e.Trade.To] += bits.OnesCount64(e.Trade.GetSquares)
			r.tradesIn[e.Trade.To] += bits.OnesCount64(e.Trade.GiveSquares)
		case monopoly.EvPropertyTransfer:
			r.lostBkrpt[e.Player]++
			if e.Other >= 0 {
				r.transferIn[e.Other]++
			}
		case monopoly.EvBid:
			r.bids[e.Player]++
		case monopoly.EvAuctionWon:
			r.won[e.Player]++
		}
	}
}

// check compares the collector with the recount and the final state.
func (r *recount) check(g *monopoly.Game, m *Metrics) error {
	for p := range r.n {
		s := m.Seat(p)
		if !g.Bankrupt(p) {
			r.cashSum[p] += g.Cash(p)
			r.samples[p]++
		}
		owned := bits.OnesCount64(g.OwnedMask(p))
		standing, hotels := 0, 0
		for sq := range g.Rules().Squares {
			if g.Owner(sq) == p {
				standing += g.Houses(sq)
				if g.Houses(sq) == 5 {
					hotels++
				}
			}
		}
		bankrupt := 0
		if g.Bankrupt(p) {
			bankrupt = 1
		}
		for _, c := range []struct {
			what      string
			got, want any
		}{
			{"properties bought + auctions won", s.PropertiesBought + s.AuctionsWon, r.fromBank[p]},
			{"what it owns (bought + won + traded + inherited)", s.PropertiesBought + s.AuctionsWon + r.tradesIn[p] - r.tradesOut[p] + r.transferIn[p] - r.lostBkrpt[p], owned},
			{"auctions won", s.AuctionsWon, r.won[p]},
			{"auction bids", s.AuctionBids, r.bids[p]},
			{"houses built", s.HousesBuilt, r.houses[p]},
			{"hotels built", s.HotelsBuilt, r.hotels[p]},
			{"first build round", s.FirstBuildRound, r.firstBuild[p]},
			{"mortgages", s.Mortgages, r.mortgages[p]},
			{"jail turns served", s.JailTurnsServed, r.served[p]},
			{"trades proposed", s.TradesProposed, r.proposed[p]},
			{"trades received", s.TradesReceived, r.received[p]},
			{"min cash", s.MinCash, r.minCash[p]},
			{"mean cash", s.MeanCash, float64(r.cashSum[p]) / float64(r.samples[p])},
			{"bankrupt", s.Bankrupt, bankrupt},
			{"net worth", s.NetWorth, g.NetWorth(p)},
		} {
			if c.got != c.want {
				return fmt.Errorf("seat %d: %s: collector %v, recount %v", p, c.what, c.got, c.want)
			}
		}
		if !g.Bankrupt(p) && (s.HousesBuilt+s.HotelsBuilt-s.BuildingsSold < standing || s.HotelsBuilt < hotels) {
			return fmt.Errorf("seat %d: built %d+%d, sold %d, but %d levels and %d hotels stand", p, s.HousesBuilt, s.HotelsBuilt, s.BuildingsSold, standing, hotels)
		}
		if s.TradesAccepted > s.TradesProposed || s.TradesAcceptedWhenReceived > s.TradesReceived || s.AuctionsWon > s.AuctionBids {
			return fmt.Errorf("seat %d: more accepted or won than proposed or bid: %+v", p, s)
		}
	}
	return nil
}

// The collector agrees with a recount from the game's state on games of
// random and baseline bots, 2 to 4 players, with and without auctions.
func TestMetricsRecount(t *testing.T) {
	variants := []string{"max_rounds: 150", "{max_rounds: 150, auctions: false}", "{max_rounds: 150, free_parking_jackpot: true}"}
	seatings := [][]string{{"baseline", "baseline", "baseline", "baseline"}, {"random", "baseline", "random"}, {"baseline", "random"}}
	games, built, traded, bankrupt := 0, 0, 0, 0
	for vi, v := range variants {
		rules := monopolytest.Rules(t, v)
		for si, bots := range seatings {
			for k := range 4 {
				seats := make([]Seat, len(bots))
				for i, b := range bots {
					seats[i] = Seat{Bot: b}
				}
				var (
					m  Metrics
					rc *recount
					tb Table
				)
				m.Reset(len(seats))
				watch := func(g *monopoly.Game) {
					ev := g.TakeEvents()
					if rc == nil {
						rc = newRecount(g)
					} else {
						rc.step(g, ev)
					}
					m.Observe(g, ev)
				}
				seed := uint64(100*vi + 10*si + k + 1)
				if _, err := tb.Play(Match{Rules: rules, Seats: seats, Seed: seed, Watch: watch}); err != nil {
					t.Fatal(err)
				}
				m.Finish(tb.Game())
				if err := rc.check(tb.Game(), &m); err != nil {
					t.Fatalf("rules %s, bots %v, seed %d: %v", v, bots, seed, err)
				}
				games++
				for p := range len(seats) {
					s := m.Seat(p)
					built += s.HousesBuilt + s.HotelsBuilt
					traded += s.TradesAccepted
					bankrupt += s.Bankrupt
				}
			}
		}
	}
	t.Logf("%d games: %d buildings, %d trades, %d bankruptcies", games, built, traded, bankrupt)
	// The games must exercise what they check.
	if built == 0 || traded == 0 || bankrupt == 0 {
		t.Fatalf("%d games: %d buildings, %d trades, %d bankruptcies", games, built, traded, bankrupt)
	}
}

// Watching a game with the collector allocates nothing once the table's
// buffers have grown.
func TestMetricsAllocs(t *testing.T) {
	seats := []Seat{{Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}}
	var (
		tb Table
		m  Metrics
	)
	watch := m.Watch
	seed := uint64(0)
	play := func() {
		seed++
		m.Reset(4)
		if _, err := tb.Play(Match{Rules: monopoly.DefaultRules(), Seats: seats, Seed: seed, Watch: watch}); err != nil {
			t.Fatal(err)
		}
		m.Finish(tb.Game())
	}
	for range 20 {
		play() // grow the event buffer
	}
	if a := testing.AllocsPerRun(20, play); a > 0.5 {
		t.Errorf("%.1f allocations per watched game", a)
	}
}

// BenchmarkWatchedGame is BenchmarkGame with the behaviour metrics
// collected: one full 4-player baseline game per iteration, events
// recorded and counted. The difference is the cost of the metrics.
func BenchmarkWatchedGame(b *testing.B) {
	rules := benchRules(b)
	seats := []Seat{{Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}}
	var (
		tb Table
		m  Metrics
	)
	watch := m.Watch
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		m.Reset(4)
		if _, err := tb.Play(Match{Rules: rules, Seats: seats, Seed: GameSeed(7, i), Watch: watch}); err != nil {
			b.Fatal(err)
		}
		m.Finish(tb.Game())
		i++
	}
}

// BenchmarkMetricsOverhead plays each game twice, bare and watched by
// the metrics collector, alternately on the same seeds, so that a busy
// machine slows both alike; it reports the time of each and their ratio.
func BenchmarkMetricsOverhead(b *testing.B) {
	rules := benchRules(b)
	seats := []Seat{{Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}, {Bot: "baseline"}}
	var (
		bare, watched Table
		m             Metrics
		tBare, tWatch time.Duration
	)
	watch := m.Watch
	i := 0
	for b.Loop() {
		seed := GameSeed(7, i)
		t0 := time.Now()
		if _, err := bare.Play(Match{Rules: rules, Seats: seats, Seed: seed}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		m.Reset(4)
		if _, err := watched.Play(Match{Rules: rules, Seats: seats, Seed: seed, Watch: watch}); err != nil {
			b.Fatal(err)
		}
		m.Finish(watched.Game())
		tWatch += time.Since(t1)
		tBare += t1.Sub(t0)
		i++
	}
	b.ReportMetric(float64(tBare.Nanoseconds())/float64(i), "bare-ns/game")
	b.ReportMetric(float64(tWatch.Nanoseconds())/float64(i), "watched-ns/game")
	b.ReportMetric(float64(tWatch)/float64(tBare), "watched/bare")
}
