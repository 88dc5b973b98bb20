package wire

import (
	"github.com/gopoly/gopoly/monopoly"
)

// Snapshot is a game as one seat, or a spectator, may see it: everything
// public, the pending decision as that viewer sees it, and the options
// of the seat that decides, for that seat alone. It holds nothing hidden:
// not the order of the decks, not the generator, not another seat's
// sealed limit.
type Snapshot struct {
	Progress
	DealProtocol string        `json:"deal_protocol"`     // "open" or "sealed"
	Board        []SquareState `json:"board"`             // every square, by index
	HouseSupply  int           `json:"house_supply"`      // houses left in the bank
	HotelSupply  int           `json:"hotel_supply"`      // hotels left in the bank
	Jackpot      int           `json:"jackpot"`           // the Free Parking pot
	Decks        []DeckState   `json:"decks"`             // by index
	Players      []PlayerState `json:"players"`           // by seat
	Decision     Decision      `json:"decision"`          // the pending decision as the viewer sees it
	Options      *Options      `json:"options,omitempty"` // only for the seat that decides
}

// Progress is how far a game has come, as a viewer sees it: the part
// that Snapshot and State share.
type Progress struct {
	Viewer   int            `json:"viewer"`    // the seat; -1 for a spectator
	Turn     int            `json:"turn"`      // turns started so far
	Round    int            `json:"round"`     // the round, from 1
	Phase    monopoly.Phase `json:"phase"`     // where the current turn stands
	Current  int            `json:"current"`   // whose turn it is
	Dice     [2]int         `json:"dice"`      // the dice last rolled; [0,0] before the first roll
	SpeedDie string         `json:"speed_die"` // the speed die with the last turn roll ("1"-"6", "mr_monopoly", "bus"); "" when not thrown
	Over     bool           `json:"over"`      // the game has ended
	Winner   int            `json:"winner"`    // -1 while the game goes on, or for a tie
}

// SquareState is a square of the board and what stands on it.
type SquareState struct {
	Square         // its fixed facts
	Owner     int  `json:"owner"`     // a seat; -1 for none
	Houses    int  `json:"houses"`    // houses standing (0 under a hotel)
	Hotel     bool `json:"hotel"`     // a hotel stands
	Mortgaged bool `json:"mortgaged"` // it is mortgaged
}

// DeckState is a deck: its name and how many cards are in it (not which).
type DeckState struct {
	Name  string `json:"name"`  // such as "chance"
	Cards int    `json:"cards"` // cards in it now
}

// PlayerState is one player's public state.
type PlayerState struct {
	Seat          int      `json:"seat"`            // from 0
	Name          string   `json:"name"`            // as the caller named it
	Cash          int      `json:"cash"`            // cash is public
	Position      int      `json:"position"`        // the square it stands on
	PositionName  string   `json:"position_name"`   // its name
	InJail        bool     `json:"in_jail"`         // in jail, not just visiting
	PassedGo      bool     `json:"passed_go"`       // has passed GO (the speed die is thrown from then on)
	JailTurns     int      `json:"jail_turns"`      // failed attempts to roll out so far
	JailCards     int      `json:"jail_cards"`      // Get Out of Jail Free cards held
	JailCardDecks []string `json:"jail_card_decks"` // their decks, by name
	Bankrupt      bool     `json:"bankrupt"`        // out of the game
	NetWorth      int      `json:"net_worth"`       // as a timed game counts it (7.10)
	Properties    []int    `json:"properties"`      // squares owned, in board order
}

// NewSnapshot describes g as viewer (a seat, or -1 for a spectator; any
// other value is taken as a spectator) may see it, naming players from
// names by seat ("player N" where names has none).
func NewSnapshot(g *monopoly.Game, viewer int, names []string) Snapshot {
	if viewer < -1 || viewer >= g.Players() {
		viewer = -1
	}
	return snapshot(g.View(viewer), viewer, g.Over(), g.Winner(), names)
}

// ViewSnapshot describes the game a player sees in v, which must be a
// seat's view of a game still going on (as an agent is given at each of
// its decisions), naming players from names as NewSnapshot does. It is
// what a player that gets only views, such as a program behind an
// agent, sends on.
func ViewSnapshot(v monopoly.View, names []string) Snapshot {
	return snapshot(v, v.Me(), false, -1, names)
}

func snapshot(v monopoly.View, viewer int, over bool, winner int, names []string) Snapshot {
	s := newState(v, viewer, over, winner).Snapshot(NewBoard(v.Rules()), names)
	s.Decision = NewDecision(v)
	if d := v.Pending(); viewer >= 0 && d.Kind != monopoly.DecisionNone && d.Player == viewer {
		o := NewOptions(v)
		s.Options = &o
	}
	return s
}
