package bots

import "github.com/gopoly/gopoly/agent"

func init() {
	agent.Register(agent.Bot{Name: "cautious", Doc: "baseline that keeps a larger cash reserve before buying, bidding, building and trading",
		Defaults: CautiousParams(), Reads: BaselineKnobs(),
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent { return NewBaseline(p) }})
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
