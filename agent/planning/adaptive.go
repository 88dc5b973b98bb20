package planning

import (
	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/agent/bots"
)

// AdaptiveParams are the adaptive player's parameters: the planning
// player's, with the thresholds that decide where it plans.
func AdaptiveParams() agent.Params {
	p := PlanningParams()
	p.TightCash = 200
	p.ThinCash = 300
	return p
}

// NewAdaptive returns the adaptive player: it plans high-leverage
// decisions (trades, which it proposes only to complete or block a colour
// group; a purchase, bid or trade answer that completes or blocks one;
// building that would leave it less than ThinCash; jail once most of the
// board is bought, when it may leave), answers the rest as the cautious
// player while its cash is below TightCash, and as the baseline
// otherwise.
func NewAdaptive(p agent.Params, seed uint64) *Planner {
	pl := NewPlanner(p, seed)
	pl.selective = true
	c := bots.CautiousParams()
	q := p
	q.CashReserve = max(p.CashReserve, c.CashReserve)
	q.CompleteReserve = max(p.CompleteReserve, c.CompleteReserve)
	q.BuildReserve = max(p.BuildReserve, c.BuildReserve)
	q.TradeReserve = max(p.TradeReserve, c.TradeReserve)
	pl.careful = bots.NewBaseline(q)
	pl.Reset(0, seed)
	return pl
}
