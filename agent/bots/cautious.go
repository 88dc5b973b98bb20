package bots

import "github.com/gopoly/gopoly/agent"

func init() {
	agent.Register(agent.Bot{Name: "cautious", Doc: "baseline that keeps a larger cash reserve before buying, bidding, building and trading",
		Defaults: CautiousParams(),
		Make:     func(p agent.Params, seat int, seed uint64) agent.Agent { return NewBaseline(p) }})
}

// CautiousParams are the cautious player's parameters: the baseline's
// with every reserve raised, so that it buys, bids, builds and trades
// only out of money it can spare. A rent of $200-$600 on a developed
// group is what it keeps back for.
func CautiousParams() agent.Params {
	p := BaselineParams()
	p.CashReserve = 250     // buying, and lifting mortgages (RichFactor times this)
	p.CompleteReserve = 150 // a purchase or bid that completes or blocks a group; accepting a trade
	p.BuildReserve = 200    // left after a house
	p.TradeReserve = 250    // left after paying cash in a trade
	p.RichFactor = 2
	return p
}
