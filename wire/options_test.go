package wire_test

import (
	"errors"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// The options of the seat that decides hold what the engine holds legal:
// the listed actions are LegalActions, every one passing Check; the ends
// of the bid and limit ranges are legal and one past them is not; every
// square offered passes Check alone, and every owned square not offered
// is refused for a rule about that square.
func TestOptionsAgreeWithEngine(t *testing.T) {
	seen := map[string]bool{}
	for _, vr := range variants {
		r := rulesOf(t, vr)
		positions(t, r, 3, func(g *monopoly.Game, seed uint64, n int) bool {
			d := g.Pending()
			for viewer := -1; viewer < g.Players(); viewer++ {
				v := g.View(viewer)
				o := wire.NewOptions(v)
				if d.Kind == monopoly.DecisionNone || viewer != d.Player {
					if len(o.Actions) != 0 || o.Bid != nil || o.Accept != nil || o.Trade != nil {
						t.Fatalf("%s seed %d: seat %d does not decide %s but has options %+v", vr.Name, seed, viewer, d.Kind, o)
					}
					continue
				}
				checkOptions(t, v, o)
				seen[d.Kind.String()] = true
				if o.Bid != nil {
					seen["bid range"] = true
				}
				if o.Accept != nil {
					seen["accept range"] = true
				}
				if o.Trade != nil {
					seen[o.Trade.Kind.String()] = true
				}
			}
			return true
		})
	}
	for _, want := range []string{"manage", "jail", "buy", "bid", "trade_response", "raise_cash", "mortgaged_transfer",
		"bid range", "accept range", "propose_trade", "counter_trade"} {
		if !seen[want] {
			t.Errorf("no position had %s", want)
		}
	}
}

func checkOptions(t *testing.T, v monopoly.View, o wire.Options) {
	t.Helper()
	r := v.Rules()
	me := v.Me()
	legal := v.LegalActions(nil)
	if len(o.Actions) != len(legal) || len(o.Notation) != len(legal) {
		t.Fatalf("%d actions listed, %d notations, %d legal", len(o.Actions), len(o.Notation), len(legal))
	}
	for i, raw := range o.Actions {
		a, err := wire.DecodeAction(r, me, raw)
		if err != nil || !sameAction(a, legal[i]) {
			t.Fatalf("option %s decodes as %+v, %v; want %+v", raw, a, err, legal[i])
		}
		if err := v.Check(a); err != nil {
			t.Fatalf("option %s refused: %v", raw, err)
		}
		if p, err := (wire.Notation{Rules: r}).Parse(me, o.Notation[i]); err != nil || !sameAction(p, a) {
			t.Fatalf("notation %q reads as %+v, %v", o.Notation[i], p, err)
		}
	}
	ok := func(a monopoly.Action) bool { a.Player = me; return v.Check(a) == nil }
	if b := o.Bid; b != nil {
		if !ok(monopoly.Action{Kind: monopoly.ActBid, Arg: b.Min}) || !ok(monopoly.Action{Kind: monopoly.ActBid, Arg: b.Max}) ||
			ok(monopoly.Action{Kind: monopoly.ActBid, Arg: b.Min - 1}) || ok(monopoly.Action{Kind: monopoly.ActBid, Arg: b.Max + 1}) {
			t.Fatalf("bid range %+v does not match the engine", *b)
		}
	} else if v.Pending().Kind == monopoly.DecisionBid {
		t.Fatal("bidding without a bid range")
	}
	if (o.Accept != nil) != (v.Pending().Kind == monopoly.DecisionTradeResponse && r.DealProtocol == monopoly.DealsSealed) {
		t.Fatalf("accept range %+v in %s", o.Accept, v.Pending().Kind)
	}
	tr := o.Trade
	if tr == nil {
		// Then no offer is possible: not even one the engine refuses
		// only for what it holds.
		for _, k := range []monopoly.ActionKind{monopoly.ActProposeTrade, monopoly.ActCounterTrade} {
			err := v.Check(monopoly.Action{Kind: k, Player: me})
			var re *monopoly.RuleError
			if errors.As(err, &re) && re.Code == monopoly.RefusalNoOffer && (k == monopoly.ActCounterTrade || v.ProposalsLeft(me) > 0) {
				t.Fatalf("%s is possible but there are no trade options", k)
			}
		}
		return
	}
	if tr.Sealed != (r.DealProtocol == monopoly.DealsSealed) || (tr.Limits != "") != tr.Sealed {
		t.Fatalf("trade options sealed %v, limits %q", tr.Sealed, tr.Limits)
	}
	if tr.Give.MaxCash != v.Cash(me) {
		t.Fatalf("give max cash %d, cash %d", tr.Give.MaxCash, v.Cash(me))
	}
	for _, p := range tr.Partners {
		if p.Seat == me || v.Bankrupt(p.Seat) || p.Get.MaxCash != v.Cash(p.Seat) {
			t.Fatalf("partner %+v", p)
		}
		checkSide(t, v, tr.Kind, p.Seat, p.Seat, p.Get, false)
	}
	checkSide(t, v, tr.Kind, me, tr.Partners[0].Seat, tr.Give, true)
}

// checkSide checks the squares of one side against one-square offers.
func checkSide(t *testing.T, v monopoly.View, kind monopoly.ActionKind, owner, to int, s wire.TradeSide, give bool) {
	t.Helper()
	listed := map[int]bool{}
	for i, sq := range s.Squares {
		listed[sq] = true
		if s.SquareNames[i] != v.Rules().Squares[sq].Name {
			t.Fatalf("square %d named %q", sq, s.SquareNames[i])
		}
	}
	for sq := range v.Rules().Squares {
		o := monopoly.TradeOffer{From: int8(v.Me()), To: int8(to)}
		if give {
			o.GiveSquares = 1 << sq
		} else {
			o.GetSquares = 1 << sq
		}
		err := v.Check(monopoly.Action{Kind: kind, Player: v.Me(), Offer: &o})
		var re *monopoly.RuleError
		aboutSquare := errors.As(err, &re) && (re.Code == monopoly.RefusalOfferNotOwned || re.Code == monopoly.RefusalAskNotOwned ||
			re.Code == monopoly.RefusalTradeBuildings)
		if listed[sq] == aboutSquare {
			t.Fatalf("seat %d's square %d listed %v, engine says %v", owner, sq, listed[sq], err)
		}
		if listed[sq] && v.Owner(sq) != owner {
			t.Fatalf("square %d listed for seat %d, owned by %d", sq, owner, v.Owner(sq))
		}
	}
}
