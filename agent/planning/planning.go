// Package planning holds the look-ahead players: planning, which forks the
// game and scores candidate actions by rollouts, and adaptive, which plans
// only where a decision matters.
//
// Both see only their view. At a decision they plan, they fork the game
// from the view (View.Fork: the deck order and the dice drawn afresh from
// the player's own generator, so hidden information is resampled),
// apply each candidate course of action, play the game on with every seat
// answering as the baseline bot (their model of the opponents, and of
// themselves later on), and score the outcome. All candidates are played
// from the same forks, so they are compared on the same dice and cards,
// and a candidate replaces the baseline's own answer only when its lead
// is clear of the noise (Params.Confidence).
//
// The decisions planned and their candidates: buying (buy, decline);
// an auction, once (the most it bids: the baseline's limit, nothing, or
// a half, one, one and a half or two times the price); jail (roll, pay,
// use a card); an offer (accept, reject); building at the end of its
// turn (as much as its cash allows, none, or a third, half or two thirds
// of that); raising cash (the baseline's answer, or selling a property to
// the opponent who pays most for it); and once a turn before its roll,
// trades, against proposing none: buying from one opponent the streets
// that complete one of its colour groups, stop another opponent
// completing one, or are a step in a group split between two owners
// (for cash, or for a property it has no use for and cash), and selling
// a street that completes an opponent's group. Each offer is priced by
// asking a baseline in a copy of the position for the least cash it
// takes (or the most it pays). No offer it makes, sale it plays out or
// offer it accepts fails trade.Fair. It builds only at the end of its
// turn, and answers everything else as the baseline.
package planning

import (
	"math/rand/v2"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

func init() {
	planning := append(bots.BaselineKnobs(), "rollouts", "horizon", "win_weight", "net_worth_weight", "cash_weight",
		"monopoly_weight", "plan_property_weight", "bankruptcy_penalty", "confidence")
	agent.Register(agent.Bot{Name: "planning", Doc: "plays out every real choice in forked games (rollouts) and takes the best; hunts trades",
		Defaults: PlanningParams(), Reads: planning,
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent { return NewPlanner(p, seed) }})
	agent.Register(agent.Bot{Name: "adaptive", Doc: "plans high-leverage choices, plays cautious when cash is tight, baseline otherwise",
		Defaults: AdaptiveParams(), Reads: append(planning[:len(planning):len(planning)], "tight_cash", "thin_cash"),
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent { return NewAdaptive(p, seed) }})
}

// PlanningParams are the planning player's parameters: the baseline's
// for the decisions it answers by rule, and the planning knobs. Of the
// baseline's it also reads CashReserve (the least cash it keeps after a
// purchase or bid it tries: alternatives that leave less are not played
// out), TradeReserve (kept after paying cash in a trade), BuildReserve
// (kept after building) and RetryTurns (turns before it asks again for,
// or offers again, a square of a refused trade).
func PlanningParams() agent.Params {
	p := bots.BaselineParams()
	p.Rollouts = 32
	p.Horizon = 20
	p.WinWeight = 1
	p.NetWorthWeight = 1
	p.BankruptcyPenalty = 0
	p.Confidence = 1
	return p
}

// Planner is the planning player, and with selective set the adaptive
// one. Where it does not plan it answers as the baseline with its
// parameters (adaptive: as the cautious player while its cash is tight).
type Planner struct {
	P         agent.Params
	selective bool           // adaptive: plan only high-leverage decisions
	rng       rand.PCG       // draws the forks' seeds
	base      *bots.Baseline // answers the decisions it does not plan
	careful   *bots.Baseline // adaptive: answers them while cash is tight
	sim       *simulator

	// The rest of the course of action chosen in a manage phase.
	plan      [maxSteps]monopoly.Action
	planN     int
	planI     int
	planTurn  int
	planPhase monopoly.Phase

	// The limit chosen for the auction in progress.
	bidSq, bidTurn, bidLimit int

	// Trade proposals: the turn it last looked for one, the offer made
	// (Action.Offer points here), and when an offer for each square was
	// last refused.
	tradeTurn int
	offer     monopoly.TradeOffer
	proposed  bool
	refusedAt [monopoly.MaxSquares]int
	// Each opponent's answers to its swaps, refused and taken, by kind
	// (noSwaps).
	swapsRefused, swapsTaken [monopoly.MaxPlayers][4]int

	cands []candidate
	moves []monopoly.Action // a movement decision's legal moves
	stats Stats
}

// Stats counts a player's work in the current game, for measurements.
type Stats struct {
	Decisions int // decisions answered
	Planned   int // decisions decided by rollouts
	Rollouts  int // rollouts played
}

// Stats returns the work done in the current game.
func (pl *Planner) Stats() Stats { return pl.stats }

// NewPlanner returns a planning player with parameters p whose rollouts
// draw from seed.
func NewPlanner(p agent.Params, seed uint64) *Planner {
	pl := &Planner{P: p, base: bots.NewBaseline(p), sim: newSimulator(p), cands: make([]candidate, 0, maxCandidates)}
	pl.Reset(0, seed)
	return pl
}

// Reset implements agent.Resetter.
func (pl *Planner) Reset(seat int, seed uint64) {
	pl.rng.Seed(seed, seed^0x2545f4914f6cdd1d)
	pl.base.Reset(seat, seed)
	if pl.careful != nil {
		pl.careful.Reset(seat, seed)
	}
	pl.planN, pl.planI = 0, 0
	pl.bidSq, pl.bidTurn = -1, -1
	pl.tradeTurn, pl.proposed = -1, false
	pl.refusedAt = [monopoly.MaxSquares]int{}
	pl.swapsRefused, pl.swapsTaken = [monopoly.MaxPlayers][4]int{}, [monopoly.MaxPlayers][4]int{}
	pl.stats = Stats{}
}

// Decide implements agent.Agent.
func (pl *Planner) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	pl.stats.Decisions++
	if a, ok := pl.planned(v, d); ok {
		return a
	}
	if pl.proposed && d.Kind != monopoly.DecisionTradeResponse {
		pl.noteAnswer(v, d.Player)
	}
	switch d.Kind {
	case monopoly.DecisionBuy:
		if pl.plans(v, d) {
			return pl.decideBuy(v, d)
		}
	case monopoly.DecisionBid:
		if pl.plans(v, d) || d.Square == pl.bidSq && v.Turn() == pl.bidTurn {
			return pl.decideBid(v, d)
		}
	case monopoly.DecisionJail:
		if pl.plans(v, d) {
			return pl.decideJail(v, d)
		}
	case monopoly.DecisionTradeResponse:
		pl.base.Offered(v)
		if pl.careful != nil {
			pl.careful.Offered(v)
		}
		if pl.plans(v, d) {
			return pl.decideTrade(v, d)
		}
	case monopoly.DecisionMovement:
		if pl.plans(v, d) {
			return pl.decideMovement(v, d)
		}
	case monopoly.DecisionManage:
		return pl.manage(v, d)
	case monopoly.DecisionRaiseCash:
		return pl.raiseCash(v, d)
	}
	return pl.fallback(v, d.Player).Decide(v, d)
}

// fallback is the rule-based player answering where it does not plan.
func (pl *Planner) fallback(v monopoly.View, me int) *bots.Baseline {
	if pl.careful != nil && v.Cash(me) < pl.P.TightCash {
		return pl.careful
	}
	return pl.base
}

// planned returns the next action of the course chosen earlier in this
// manage phase, if it is still legal.
func (pl *Planner) planned(v monopoly.View, d monopoly.Decision) (monopoly.Action, bool) {
	if pl.planI >= pl.planN {
		return monopoly.Action{}, false
	}
	if d.Kind != monopoly.DecisionManage || v.Turn() != pl.planTurn || v.Phase() != pl.planPhase {
		pl.planN = 0
		return monopoly.Action{}, false
	}
	a := pl.plan[pl.planI]
	pl.planI++
	if v.Check(a) != nil {
		pl.planN = 0
		return monopoly.Action{}, false
	}
	return a, true
}

// choose evaluates the candidates, the first being the default, and
// starts the best one's course of action.
func (pl *Planner) choose(v monopoly.View, cands []candidate) monopoly.Action {
	c := &cands[pl.pick(v, cands)]
	if c.n > 1 {
		copy(pl.plan[:], c.acts[1:c.n])
		pl.planN, pl.planI = c.n-1, 0
		pl.planTurn, pl.planPhase = v.Turn(), v.Phase()
	}
	a := c.acts[0]
	if a.Kind == monopoly.ActProposeTrade {
		pl.offer, pl.proposed = c.offer, true
		a.Offer = &pl.offer
	}
	return a
}

// pick returns the index of the candidate to take: the default unless
// rollouts show another to be better.
func (pl *Planner) pick(v monopoly.View, cands []candidate) int {
	if len(cands) < 2 {
		return 0
	}
	pl.stats.Planned++
	return pl.evaluate(v, cands)
}
