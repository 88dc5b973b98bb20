package arena

import "github.com/gopoly/gopoly/monopoly"

// SeatMetrics is how one player behaved in one game, counted from the
// game's events (see Metrics).
type SeatMetrics struct {
	// MeanCash is the player's cash averaged over samples taken at the
	// start of every turn (anyone's) and at the end of the game, while
	// the player is still in the game.
	MeanCash float64 `json:"mean_cash"`
	// MinCash is the least cash the player held after any action while
	// in the game (a bankrupt player's last holding before it failed).
	MinCash int `json:"min_cash"`

	PropertiesBought int `json:"properties_bought"` // bought from the bank on landing
	AuctionBids      int `json:"auction_bids"`
	AuctionsWon      int `json:"auctions_won"`

	// Trades: proposals it made, and how many were accepted; proposals
	// made to it, and how many it accepted. Counter-offers are counted
	// apart: a counter is an answer, not a proposal or an acceptance.
	TradesProposed             int `json:"trades_proposed"`
	TradesAccepted             int `json:"trades_accepted"`
	TradesReceived             int `json:"trades_received"`
	TradesAcceptedWhenReceived int `json:"trades_accepted_when_received"`
	CounterOffers              int `json:"counter_offers"`          // counter-offers it made
	CounterOffersAccepted      int `json:"counter_offers_accepted"` // ... that were accepted

	HousesBuilt   int `json:"houses_built"`
	HotelsBuilt   int `json:"hotels_built"`
	BuildingsSold int `json:"buildings_sold"` // building levels sold back, bankruptcy included
	// FirstBuildRound is the round of its first building; 0: it never
	// built.
	FirstBuildRound int `json:"first_build_round"`

	JailTurnsServed int `json:"jail_turns_served"` // turns ended in jail after failing to roll doubles
	JailFinesPaid   int `json:"jail_fines_paid"`   // fines paid to leave, forced ones included
	JailCardsUsed   int `json:"jail_cards_used"`

	Mortgages    int   `json:"mortgages"`
	Unmortgages  int   `json:"unmortgages"`
	RentPaid     int64 `json:"rent_paid"`
	RentReceived int64 `json:"rent_received"`

	Bankrupt int `json:"bankrupt"`  // 1 if it went bankrupt
	NetWorth int `json:"net_worth"` // at the end of the game
}

// Metrics collects SeatMetrics for every player of one game from the
// game's events. Use it as a Match's watcher:
//
//	var m Metrics
//	m.Reset(players)
//	res, err := table.Play(Match{..., Watch: m.Watch})
//	m.Finish(table.Game())
//
// It keeps fixed arrays per seat, so observing a game allocates nothing.
type Metrics struct {
	n       int
	begun   bool
	round   int
	counter bool // the offer on the table is a counter-offer
	cashSum [monopoly.MaxPlayers]int64
	samples [monopoly.MaxPlayers]int64
	seat    [monopoly.MaxPlayers]SeatMetrics
}

// Reset prepares m for a new game of the given number of players.
func (m *Metrics) Reset(players int) {
	*m = Metrics{n: players}
}

// Watch takes the events g recorded since the last call and counts them:
// it has the signature of Match.Watch. A game's events must reach the
// collector through Watch or Observe, not both.
func (m *Metrics) Watch(g *monopoly.Game) { m.Observe(g, g.TakeEvents()) }

// Observe counts events, the events of the last action applied to g (g
// is in the state that action left it in).
func (m *Metrics) Observe(g *monopoly.Game, events []monopoly.Event) {
	if !m.begun {
		m.begun = true
		m.round = g.Round()
		for p := range m.n {
			m.seat[p].MinCash = g.Cash(p)
		}
		// The turn that opens a game starts before anyone watches (a
		// table turns recording on only after setting up): sample it
		// here unless its event was seen.
		if len(events) == 0 || events[0].Kind != monopoly.EvTurnStart {
			m.sampleCash(g)
		}
	}
	for i := range events {
		e := &events[i]
		p := int(e.Player)
		if p < 0 || p >= m.n {
			continue // a tied game's end, or no player
		}
		s := &m.seat[p]
		switch e.Kind {
		case monopoly.EvTurnStart:
			// Nothing follows a turn's start within an action, so the
			// cash now is the cash at the start of the turn.
			m.round = int(e.Amount)
			m.sampleCash(g)
		case monopoly.EvBuy:
			s.PropertiesBought++
		case monopoly.EvBid:
			s.AuctionBids++
		case monopoly.EvAuctionWon:
			s.AuctionsWon++
		case monopoly.EvTradeProposed:
			// One offer is on the table at a time, so its answer is to
			// the last one proposed.
			m.counter = e.Flag
			if e.Flag {
				s.CounterOffers++
			} else if s.TradesProposed++; e.Other >= 0 && int(e.Other) < m.n {
				m.seat[e.Other].TradesReceived++
			}
		case monopoly.EvTradeAccepted:
			if m.counter {
				s.CounterOffersAccepted++
			} else if s.TradesAccepted++; e.Other >= 0 && int(e.Other) < m.n {
				m.seat[e.Other].TradesAcceptedWhenReceived++
			}
		case monopoly.EvBuild:
			if e.Other == 5 {
				s.HotelsBuilt++
			} else {
				s.HousesBuilt++
			}
			if s.FirstBuildRound == 0 {
				s.FirstBuildRound = m.round
			}
		case monopoly.EvSellBuilding:
			s.BuildingsSold++
		case monopoly.EvStayInJail:
			s.JailTurnsServed++
		case monopoly.EvPay:
			if e.Reason == monopoly.ReasonJailFine {
				s.JailFinesPaid++
			}
		case monopoly.EvUseJailCard:
			s.JailCardsUsed++
		case monopoly.EvMortgage:
			s.Mortgages++
		case monopoly.EvUnmortgage:
			s.Unmortgages++
		case monopoly.EvRent:
			s.RentPaid += e.Amount
			if o := int(e.Other); o >= 0 && o < m.n {
				m.seat[o].RentReceived += e.Amount
			}
		case monopoly.EvBankrupt:
			s.Bankrupt = 1
		}
	}
	if len(events) == 0 {
		return // cash never moves without an event
	}
	for p := range m.n {
		if s := &m.seat[p]; s.Bankrupt == 0 {
			s.MinCash = min(s.MinCash, g.Cash(p))
		}
	}
}

// sampleCash adds every solvent player's cash to its mean.
func (m *Metrics) sampleCash(g *monopoly.Game) {
	for p := range m.n {
		if m.seat[p].Bankrupt == 0 {
			m.cashSum[p] += int64(g.Cash(p))
			m.samples[p]++
		}
	}
}

// Finish takes the end-of-game sample and net worths from g, the game
// as it ended.
func (m *Metrics) Finish(g *monopoly.Game) {
	m.sampleCash(g)
	for p := range m.n {
		s := &m.seat[p]
		if m.samples[p] > 0 {
			s.MeanCash = float64(m.cashSum[p]) / float64(m.samples[p])
		}
		s.NetWorth = g.NetWorth(p)
	}
}

// Seat returns the metrics of the player in seat p (after Finish).
func (m *Metrics) Seat(p int) SeatMetrics { return m.seat[p] }

// Players returns the number of players the collector was reset for.
func (m *Metrics) Players() int { return m.n }
