package planning

import (
	"math"
	"math/bits"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/agent/worth"
	"github.com/gopoly/gopoly/monopoly"
)

// maxSteps bounds the actions of one candidate: a run of builds and the
// action that ends the phase.
const maxSteps = 48

// maxCandidates bounds the candidates of one decision.
const maxCandidates = 24

// fullRollout is how many rounds a rollout to the end plays at most: a
// game between baselines that is still on after that (long games come
// under rules that starve building) is scored as at a horizon.
const fullRollout = 200

// rolloutDecisions bounds one rollout: baseline games end in about 650
// decisions, so this is reached only by a game going round in circles.
const rolloutDecisions = 20_000

// candidate is one course of action: actions applied in order from the
// decision, and for a bid, the most it will pay in this auction.
type candidate struct {
	acts  [maxSteps]monopoly.Action
	n     int
	limit int                 // bids: the highest bid it makes in this auction (0: drop out)
	offer monopoly.TradeOffer // the offer of a propose_trade action
}

func (c *candidate) add(a monopoly.Action) {
	if c.n < maxSteps {
		c.acts[c.n] = a
		c.n++
	}
}

// roller plays the planner's own seat in rollouts: the baseline with the
// planner's parameters, except that in the auction being decided it bids
// up to the candidate's limit.
type roller struct {
	bots.Baseline
	auctionSq    int // -1: none
	auctionLimit int
	auctionTurn  int
}

func (r *roller) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if d.Kind == monopoly.DecisionBid && d.Square == r.auctionSq && v.Turn() == r.auctionTurn {
		return bidUpTo(v, d, r.auctionLimit)
	}
	return r.Baseline.Decide(v, d)
}

// bidUpTo raises the high bid by a tenth of the price, never beyond limit
// nor what it can pay (Funds), or drops out when the high bid has reached
// it.
func bidUpTo(v monopoly.View, d monopoly.Decision, limit int) monopoly.Action {
	limit = min(limit, v.Funds(d.Player))
	if d.Amount >= limit {
		return monopoly.Action{Kind: monopoly.ActDropOut, Player: d.Player}
	}
	step := max(1, v.Rules().Squares[d.Square].Price/10)
	return monopoly.Action{Kind: monopoly.ActBid, Player: d.Player, Arg: min(limit, d.Amount+step)}
}

// simulator evaluates candidates by rollouts. It keeps its games and one
// set of players, reset for every sample and rollout, so that planning
// allocates nothing.
type simulator struct {
	fork    monopoly.Game // the position with what the player cannot know drawn afresh
	sim     monopoly.Game // a fork with a candidate played out
	probe   monopoly.Game // the position, for asking the opponent model about offers
	scratch monopoly.Game // a copy of probe with an offer made
	model   bots.Baseline // the opponent model answering offers
	me      roller
	others  [monopoly.MaxPlayers]*bots.Baseline
	agents  [monopoly.MaxPlayers]agent.Agent
	offer   monopoly.TradeOffer // the offer a rollout proposes (Action.Offer points here)
	sum, sq []float64           // per candidate: sum and sum of squares of its lead over candidate 0
	dead    []bool              // per candidate: illegal in a fork
	legal   []monopoly.Action   // a buffer for anyLegal
}

func newSimulator(own agent.Params) *simulator {
	s := &simulator{}
	s.me.Baseline = *bots.NewBaseline(own)
	s.model = *bots.NewBaseline(bots.BaselineParams())
	for i := range s.others {
		s.others[i] = bots.NewBaseline(bots.BaselineParams())
	}
	return s
}

// evaluate plays rollouts of every candidate from forks of v and returns
// the index of the one to take. Candidates share the forks, so they are
// compared on the same dice and cards; candidate 0 is the default (what
// the baseline would do), and another is taken only when its mean lead
// over the default exceeds Confidence standard errors of the paired
// differences, so that noise does not talk the planner out of a sound
// move.
func (pl *Planner) evaluate(v monopoly.View, cands []candidate) int {
	s := pl.sim
	n := len(cands)
	if cap(s.sum) < n {
		s.sum, s.sq, s.dead = make([]float64, n), make([]float64, n), make([]bool, n)
	}
	s.sum, s.sq, s.dead = s.sum[:n], s.sq[:n], s.dead[:n]
	for i := range n {
		s.sum[i], s.sq[i], s.dead[i] = 0, 0, false
	}
	me := v.Me()
	k := max(1, pl.P.Rollouts)
	for range k {
		v.ForkInto(&s.fork, pl.rng.Uint64())
		base := 0.0
		for i := range cands {
			if s.dead[i] {
				continue
			}
			s.sim.CopyFrom(&s.fork)
			if !s.apply(me, &cands[i]) {
				s.dead[i] = true
				continue
			}
			x := s.rollout(&pl.P, me, v.Round())
			if i == 0 {
				base = x
			}
			d := x - base
			s.sum[i] += d
			s.sq[i] += d * d
		}
	}
	pl.stats.Rollouts += k * n
	best, lead := 0, 0.0
	for i := 1; i < n; i++ {
		if s.dead[i] {
			continue
		}
		mean := s.sum[i] / float64(k)
		se := math.Sqrt(max(0, s.sq[i]/float64(k)-mean*mean) / float64(max(1, k-1)))
		if mean > lead && mean > pl.P.Confidence*se {
			best, lead = i, mean
		}
	}
	return best
}

// apply plays a candidate's actions in the simulated game; false if the
// rules refuse one. Candidates are made from the view, and a fork differs
// from the game only in the deck order and the dice, which no answer
// depends on, so this is a safeguard: a refused candidate is never taken.
func (s *simulator) apply(me int, c *candidate) bool {
	g := &s.sim
	s.me.auctionSq = -1
	for i := range c.n {
		a := c.acts[i]
		if c.acts[i].Kind == monopoly.ActProposeTrade {
			s.offer = c.offer
			a.Offer = &s.offer
		}
		if g.Apply(a) != nil {
			return false
		}
	}
	if c.limit > 0 {
		if d := g.Pending(); d.Kind == monopoly.DecisionBid {
			s.me.auctionSq, s.me.auctionLimit, s.me.auctionTurn = d.Square, c.limit, g.Turn()
		}
	}
	return true
}

// rollout plays the simulated game on with baseline players for
// horizon rounds after round start (to the end when horizon is 0), and
// scores the outcome for me.
func (s *simulator) rollout(p *agent.Params, me int, start int) float64 {
	g := &s.sim
	n := g.Players()
	s.me.Reset(me, 0)
	for i := range n {
		if i == me {
			s.agents[i] = &s.me
		} else {
			s.others[i].Reset(i, 0)
			s.agents[i] = s.others[i]
		}
	}
	end := start + fullRollout
	if p.Horizon > 0 {
		end = start + p.Horizon
	}
	for k := 0; !g.Over() && g.Round() < end && k < rolloutDecisions; k++ {
		q := g.Decider()
		if q < 0 {
			break
		}
		if g.Apply(s.agents[q].Decide(g.View(q), g.Pending())) != nil && g.Apply(s.anyLegal(g)) != nil {
			break // no legal answer: never reached
		}
	}
	return score(p, g, me)
}

// score values a position for me: WinWeight for a won game, minus
// BankruptcyPenalty for a lost one (bankrupt, or beaten at the round
// limit), and otherwise WinWeight times its share of the players' total
// value (see value).
func score(p *agent.Params, g *monopoly.Game, me int) float64 {
	if g.Over() {
		if g.Winner() == me {
			return p.WinWeight
		}
		return -p.BankruptcyPenalty
	}
	if g.Bankrupt(me) {
		return -p.BankruptcyPenalty
	}
	mine, total := 0.0, 0.0
	tw := worth.Of(g.Rules())
	for q := range g.Players() {
		if g.Bankrupt(q) {
			continue
		}
		x := max(0, value(p, g, tw, q))
		total += x
		if q == me {
			mine = x
		}
	}
	if total == 0 {
		return 0
	}
	return p.WinWeight * mine / total
}

// value is a player's standing at the end of a rollout: weighted net
// worth with its property's rent to come (tw, the rules' worth table),
// cash, complete colour groups and printed prices of its property.
func value(p *agent.Params, g *monopoly.Game, tw *worth.Table, q int) float64 {
	r := g.Rules()
	owned := g.OwnedMask(q)
	groups, printed := bits.OnesCount64(r.WholeGroups(owned)), 0
	for m := owned; m != 0; m &= m - 1 {
		printed += r.Squares[bits.TrailingZeros64(m)].Price
	}
	// The rent its property earns unbuilt over the rest of the game counts
	// with its net worth: a rollout of a few rounds would otherwise see a
	// sale above the printed price as a gain.
	income := tw.Income(owned&^g.MortgagedMask()) * worth.IncomeTurns(g.View(q), q)
	return p.NetWorthWeight*(float64(g.NetWorth(q))+income) + p.CashWeight*float64(g.Cash(q)) +
		p.MonopolyWeight*float64(groups) + p.PlanPropertyWeight*float64(printed)
}

// anyLegal answers for a player whose own answer the rules refused (a
// baseline proposing a trade where the rules allow none): going on, or
// the first legal answer.
func (s *simulator) anyLegal(g *monopoly.Game) monopoly.Action {
	d := g.Pending()
	if d.Kind == monopoly.DecisionManage {
		return monopoly.Action{Kind: monopoly.ActContinue, Player: d.Player}
	}
	s.legal = g.LegalActions(s.legal[:0])
	if len(s.legal) == 0 {
		return monopoly.Action{}
	}
	return s.legal[0]
}
