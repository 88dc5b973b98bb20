package bots

import (
	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

func init() {
	agent.Register(agent.Bot{Name: "cautious", Doc: "baseline that keeps a larger cash reserve before buying, bidding, building and trading",
		Defaults: CautiousParams(),
		Make:     func(p agent.Params, seat int, seed uint64) agent.Agent { return NewCautious(p) }})
}

// CautiousParams are the cautious player's parameters: the baseline's
// with every reserve raised, so that it buys, bids, builds and trades
// only with money it can spare. $200-$250 is about what one roll costs
// on a board with a few houses up.
func CautiousParams() agent.Params {
	p := BaselineParams()
	p.CashReserve = 250     // left after buying; lifting mortgages waits for RichFactor times this
	p.CompleteReserve = 150 // left after buying or bidding for a property that completes or blocks a group, or after a trade
	p.BuildReserve = 200    // left after a house
	p.TradeReserve = 250    // left after paying cash in a trade
	p.RichFactor = 2
	return p
}

// Cautious is the baseline with the cautious reserves (or whatever
// parameters it is given).
type Cautious struct {
	Baseline
}

// NewCautious returns a cautious player with parameters p.
func NewCautious(p agent.Params) *Cautious {
	c := &Cautious{}
	c.P = p
	c.Reset(0, 0)
	return c
}

// Decide implements agent.Agent. A proposal the rules do not allow now
// (trades_per_phase: 0) is dropped for going on.
func (c *Cautious) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	a := c.Baseline.Decide(v, d)
	if a.Kind == monopoly.ActProposeTrade && v.Check(a) != nil {
		return monopoly.Action{Kind: monopoly.ActContinue, Player: d.Player}
	}
	return a
}
