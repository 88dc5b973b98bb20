package wire

import (
	"fmt"

	"github.com/gopoly/gopoly/monopoly"
)

// Board is what never changes during a game: the squares' fixed facts
// and the decks' names. With a State it makes a Snapshot.
type Board struct {
	Squares      []Square `json:"squares"`       // every square, by index
	Decks        []string `json:"decks"`         // the decks' names, by index
	DealProtocol string   `json:"deal_protocol"` // "open" or "sealed"
}

// Square is a square's fixed facts.
type Square struct {
	Index int    `json:"index"` // its place on the board, from GO = 0
	Name  string `json:"name"`  // its name
	Kind  string `json:"kind"`  // go, street, railroad, utility, jail, action
	Group string `json:"group"` // a street's colour group; "" for others
	Price int    `json:"price"` // 0 for squares that cannot be bought
}

// NewBoard describes the fixed facts of a game under r.
func NewBoard(r *monopoly.Rules) Board {
	b := Board{Squares: make([]Square, len(r.Squares)), Decks: make([]string, len(r.Decks)), DealProtocol: r.DealProtocol.String()}
	for i := range r.Squares {
		sq := &r.Squares[i]
		s := Square{Index: i, Name: sq.Name, Kind: sq.Kind.String()}
		if sq.Ownable() {
			s.Price = sq.Price
		}
		if sq.Kind == monopoly.KindStreet && sq.Group >= 0 && sq.Group < len(r.Groups) {
			s.Group = r.Groups[sq.Group].Name
		}
		b.Squares[i] = s
	}
	for d := range r.Decks {
		b.Decks[d] = r.Decks[d].Name
	}
	return b
}

// State is what changes during a game, as a seat or a spectator may see
// it, in a compact form: a Snapshot less the Board, the players' names,
// what follows from the rest (each player's properties, the name of its
// square, its count of jail cards) and the pending decision. A client
// told of the Board once can be sent a State at every turn, as the bot
// protocol does; State.Snapshot makes the Snapshot again.
type State struct {
	Progress
	HouseSupply int           `json:"house_supply"` // houses left in the bank
	HotelSupply int           `json:"hotel_supply"` // hotels left in the bank
	Jackpot     int           `json:"jackpot"`      // the Free Parking pot
	Decks       []int         `json:"decks"`        // cards in each deck now, by index
	Owners      []int         `json:"owners"`       // by square: the owner's seat; -1 for none
	Houses      []int         `json:"houses"`       // by square: houses standing, 5 for a hotel
	Mortgaged   []int         `json:"mortgaged"`    // the mortgaged squares, in board order
	Players     []PlayerBrief `json:"players"`      // by seat
}

// PlayerBrief is a player in a State: its PlayerState less its name,
// its properties (State.Owners has them) and what follows from its
// position.
type PlayerBrief struct {
	Cash          int      `json:"cash"`            // cash is public
	Position      int      `json:"position"`        // the square it stands on
	InJail        bool     `json:"in_jail"`         // in jail, not just visiting
	PassedGo      bool     `json:"passed_go"`       // has passed GO
	JailTurns     int      `json:"jail_turns"`      // failed attempts to roll out so far
	JailCardDecks []string `json:"jail_card_decks"` // its Get Out of Jail Free cards, by deck name
	Bankrupt      bool     `json:"bankrupt"`        // out of the game
	NetWorth      int      `json:"net_worth"`       // as a timed game counts it (7.10)
}

// NewState describes the game a seat sees in v (a game still going on,
// as an agent is given at each of its decisions).
func NewState(v monopoly.View) State { return newState(v, v.Me(), false, -1) }

func newState(v monopoly.View, viewer int, over bool, winner int) State {
	r := v.Rules()
	d1, d2 := v.LastRoll()
	n := len(r.Squares)
	ints := make([]int, 2*n+len(r.Decks)) // one allocation for the three by-index lists
	s := State{
		Progress: Progress{Viewer: viewer, Turn: v.Turn(), Round: v.Round(), Phase: v.Phase(), Current: v.Current(),
			Dice: [2]int{d1, d2}, SpeedDie: v.LastSpeedDie().String(), Over: over, Winner: winner},
		HouseSupply: v.HouseSupply(), HotelSupply: v.HotelSupply(), Jackpot: v.JackpotCash(),
		Owners: ints[:n:n], Houses: ints[n : 2*n : 2*n], Decks: ints[2*n:], Mortgaged: []int{},
		Players: make([]PlayerBrief, v.Players()),
	}
	for i := range n {
		s.Owners[i], s.Houses[i] = v.Owner(i), v.Houses(i)
		if v.Mortgaged(i) {
			s.Mortgaged = append(s.Mortgaged, i)
		}
	}
	for d := range r.Decks {
		s.Decks[d] = v.DeckSize(d)
	}
	for p := range s.Players {
		s.Players[p] = PlayerBrief{
			Cash: v.Cash(p), Position: v.Position(p), InJail: v.InJail(p), PassedGo: v.PassedGo(p),
			JailTurns: v.JailTurns(p), JailCardDecks: jailCardNames(r, uint64(v.JailCardBits(p))),
			Bankrupt: v.Bankrupt(p), NetWorth: v.NetWorth(p),
		}
	}
	return s
}

// Snapshot makes the Snapshot that s and b describe, naming players from
// names by seat ("player N" where names has none). Its Decision and
// Options are left empty: a State does not hold them.
func (s State) Snapshot(b Board, names []string) Snapshot {
	snap := Snapshot{
		Progress: s.Progress, DealProtocol: b.DealProtocol,
		HouseSupply: s.HouseSupply, HotelSupply: s.HotelSupply, Jackpot: s.Jackpot,
		Board: make([]SquareState, len(b.Squares)), Decks: make([]DeckState, len(b.Decks)),
		Players: make([]PlayerState, len(s.Players)),
	}
	mortgaged := make(map[int]bool, len(s.Mortgaged))
	for _, sq := range s.Mortgaged {
		mortgaged[sq] = true
	}
	for i, sq := range b.Squares {
		st := SquareState{Square: sq, Owner: at(s.Owners, i, -1), Mortgaged: mortgaged[i]}
		if h := at(s.Houses, i, 0); h == 5 {
			st.Hotel = true
		} else {
			st.Houses = h
		}
		snap.Board[i] = st
	}
	for d, name := range b.Decks {
		snap.Decks[d] = DeckState{Name: name, Cards: at(s.Decks, d, 0)}
	}
	for p, pb := range s.Players {
		ps := PlayerState{
			Seat: p, Name: fmt.Sprintf("player %d", p), Cash: pb.Cash, Position: pb.Position,
			InJail: pb.InJail, PassedGo: pb.PassedGo, JailTurns: pb.JailTurns, JailCards: len(pb.JailCardDecks),
			JailCardDecks: pb.JailCardDecks, Bankrupt: pb.Bankrupt, NetWorth: pb.NetWorth, Properties: []int{},
		}
		if p < len(names) && names[p] != "" {
			ps.Name = names[p]
		}
		if ps.Position >= 0 && ps.Position < len(b.Squares) {
			ps.PositionName = b.Squares[ps.Position].Name
		}
		for sq, owner := range s.Owners {
			if owner == p {
				ps.Properties = append(ps.Properties, sq)
			}
		}
		snap.Players[p] = ps
	}
	return snap
}

// at is l[i], or def when l is too short.
func at(l []int, i, def int) int {
	if i < len(l) {
		return l[i]
	}
	return def
}
