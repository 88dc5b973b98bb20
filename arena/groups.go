package arena

import (
	"math/bits"

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

// groupWatch records a game's GroupCompletions from its state: use its
// Observe as a Match's observer. After every action it compares the
// groups each player holds whole with those before; a new one came with
// that action, which answered the decision pending before it.
type groupWatch struct {
	begun  bool
	owned  [monopoly.MaxPlayers]uint64 // per seat: its properties after the last action
	whole  [monopoly.MaxPlayers]uint64 // per seat: the groups it holds whole, as a bit set of group indexes
	before monopoly.DecisionKind       // the decision the next action answers
	offer  monopoly.TradeOffer         // the offer it answers, when that is a trade's
	// A purchase paid by raising cash (raise_to_buy) completes with the
	// buyer's last raise_cash answer: origin is the decision before the
	// raising began, raiser the seat raising.
	origin monopoly.DecisionKind
	raiser int
	out    []GroupCompletion
}

// Observe notes the groups the last action made whole, and the decision
// the next one answers.
func (w *groupWatch) Observe(g *monopoly.Game) {
	r := g.Rules()
	for p := range g.Players() {
		owned := g.OwnedMask(p)
		if w.begun && owned == w.owned[p] {
			continue // most actions move no property
		}
		w.owned[p] = owned
		now := r.WholeGroups(owned)
		if !w.begun {
			// Groups held at the start (a game set up mid-play) were
			// completed before it.
			w.whole[p] = now
			continue
		}
		for m := now &^ w.whole[p]; m != 0; m &= m - 1 {
			c := GroupCompletion{Group: r.Groups[bits.TrailingZeros64(m)].Name, Seat: p, Round: g.Round(), How: ByBankruptcy, Partner: -1}
			answered := w.before
			if answered == monopoly.DecisionRaiseCash && p == w.raiser {
				answered = w.origin // its own purchase; a bankrupt's goes to another
			}
			switch answered {
			case monopoly.DecisionBuy:
				c.How = ByLanding
			case monopoly.DecisionBid:
				c.How = ByAuction
			case monopoly.DecisionTradeResponse:
				c.How, c.Partner = ByTrade, int(w.offer.From)
				if c.Partner == p {
					c.Partner = int(w.offer.To)
				}
			}
			w.out = append(w.out, c)
		}
		w.whole[p] = now
	}
	w.begun = true
	d := g.Pending()
	if d.Kind == monopoly.DecisionRaiseCash {
		w.raiser = d.Player
	} else {
		w.origin = d.Kind
	}
	w.before = d.Kind
	if w.before == monopoly.DecisionTradeResponse {
		w.offer = g.PendingOffer()
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
