package arena

import (
	"github.com/gopoly/gopoly/monopoly"
)

// How a colour group came whole into one player's hands
// (GroupCompletion.How).
const (
	ByLanding    = "bought"     // it bought the last street on landing there
	ByAuction    = "auction"    // it won the last street at auction
	ByTrade      = "trade"      // a trade gave it the last street
	ByBankruptcy = "bankruptcy" // a bankrupt player's property passed to it
)

// GroupCompletion is one colour group coming whole into one player's
// hands during a game. Against a field that never sells, who lands on
// the last street decides most games, and a group sold to it by a bot
// is the bot's doing: a tournament keeps where each group came from so
// that the two can be told apart.
type GroupCompletion struct {
	Group string `json:"group"`
	Seat  int    `json:"seat"`
	Round int    `json:"round"`
	How   string `json:"how"` // ByLanding, ByAuction, ByTrade, ByBankruptcy
	// Partner is the seat on the other side of the trade that completed
	// it; -1 when no trade did.
	Partner int `json:"partner"`
}

// groupWatch records a game's GroupCompletions from its events: use its
// Watch as a Match's watcher.
type groupWatch struct {
	begun bool
	whole [monopoly.MaxPlayers]uint64 // per seat: the groups it holds whole, as a bit set of group indexes
	out   []GroupCompletion
}

// Watch takes the events of the last action; when one of them moved a
// property, it notes every group that became whole for a player.
func (w *groupWatch) Watch(g *monopoly.Game) {
	r := g.Rules()
	if !w.begun {
		// Groups held at the start (a game set up mid-play) were completed
		// before it.
		w.begun = true
		for p := range g.Players() {
			w.whole[p] = r.WholeGroups(g.OwnedMask(p))
		}
	}
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
	if how == "" {
		return
	}
	for p := range g.Players() {
		now := r.WholeGroups(g.OwnedMask(p))
		for gi := range r.Groups {
			if now&^w.whole[p]&(1<<gi) == 0 {
				continue
			}
			c := GroupCompletion{Group: r.Groups[gi].Name, Seat: p, Round: g.Round(), How: how, Partner: -1}
			switch p {
			case a:
				c.Partner = b
			case b:
				c.Partner = a
			}
			w.out = append(w.out, c)
		}
		w.whole[p] = now
	}
}

// RivalLuckFirst reports whether, in a game with completions cs, a
// player other than seat completed a group by landing or at auction
// before seat held one: the games a field that never sells wins by the
// dice, whatever seat does after.
func RivalLuckFirst(cs []GroupCompletion, seat int) bool {
	for _, c := range cs {
		switch {
		case c.Seat == seat:
			return false
		case c.How == ByLanding || c.How == ByAuction:
			return true
		}
	}
	return false
}
