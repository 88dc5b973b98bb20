package monopoly

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/bits"
)

// gameJSON is the text form of a game: its rules and every piece of its
// state, including the generator and the order of the decks, so that a
// game read back plays on exactly as the original.
type gameJSON struct {
	Rules       json.RawMessage `json:"rules"`
	RNG         string          `json:"rng"`
	Players     []playerState   `json:"players"`
	Owner       []int8          `json:"owner"`
	Houses      []int8          `json:"houses"`
	Mortgaged   uint64          `json:"mortgaged"`
	HouseSupply int16           `json:"house_supply"`
	HotelSupply int16           `json:"hotel_supply"`
	Jackpot     int64           `json:"jackpot"`
	Decks       []deckState     `json:"decks"`
	Current     int8            `json:"current"`
	Doubles     int8            `json:"doubles"`
	Phase       Phase           `json:"phase"`
	RollAgain   bool            `json:"roll_again"`
	JailedNow   bool            `json:"jailed_now"`
	LastRoll    [2]int8         `json:"last_roll"`
	LastSpeed   SpeedFace       `json:"last_speed_die,omitempty"`
	Round       int32           `json:"round"`
	Turn        int32           `json:"turn"`
	Proposals   []int8          `json:"proposals"`      // per player, this phase
	TurnProps   []int8          `json:"turn_proposals"` // per player, this turn
	Counters    int8            `json:"counter_offers"`
	Landings    int8            `json:"landings"`
	Tasks       []taskJSON      `json:"tasks"`
	Pending     DecisionKind    `json:"pending"`
	Decider     int8            `json:"decider"`
	Auction     auctionState    `json:"auction"`
	Offer       TradeOffer      `json:"offer"`
	Over        bool            `json:"over"`
	Capped      bool            `json:"capped"`
	Winner      int8            `json:"winner"`
	BankNet     int64           `json:"bank_net"`
	Money0      int64           `json:"money0"`
	Rolls       int64           `json:"rolls"`
	Dice        [][2]int        `json:"dice,omitempty"`
	DicePos     int             `json:"dice_pos,omitempty"`
	SpeedDice   []SpeedFace     `json:"speed_dice,omitempty"` // by scripted roll
	SpeedMiss   int             `json:"speed_miss,omitempty"`
	Scripted    bool            `json:"scripted,omitempty"`
}

type taskJSON struct {
	Kind    taskKind `json:"kind"`
	Player  int8     `json:"player"`
	Square  int8     `json:"square"`
	Deck    int8     `json:"deck"`
	Card    int8     `json:"card"`
	PC      int8     `json:"pc"`
	To      int8     `json:"to"`
	Reason  Reason   `json:"reason"`
	RentMul int8     `json:"rent_mul"`
	Amount  int64    `json:"amount"`
}

// MarshalJSON writes the whole game, rules included.
func (g *Game) MarshalJSON() ([]byte, error) {
	rules, err := json.Marshal(g.rules)
	if err != nil {
		return nil, err
	}
	rng, err := g.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	nsq := len(g.rules.Squares)
	j := gameJSON{
		Rules: rules, RNG: hex.EncodeToString(rng),
		Players: g.p[:g.n], Owner: g.owner[:nsq], Houses: g.houses[:nsq], Mortgaged: g.mortgaged,
		HouseSupply: g.houseSupply, HotelSupply: g.hotelSupply, Jackpot: g.jackpot,
		Decks: g.decks[:len(g.rules.Decks)], Current: g.cur, Doubles: g.doubles, Phase: g.phase,
		RollAgain: g.rollAgain, JailedNow: g.jailedNow, LastRoll: g.lastRoll, LastSpeed: g.lastSpeed, Round: g.round, Turn: g.turn,
		Proposals: g.proposals[:g.n], TurnProps: g.turnProps[:g.n], Counters: g.counters, Landings: g.landings, Pending: g.pk, Decider: g.pp, Auction: g.auction, Offer: g.offer,
		Over: g.over, Capped: g.capped, Winner: g.winner, BankNet: g.bankNet, Money0: g.money0, Rolls: g.rolls,
	}
	for _, t := range g.tasks[:g.nt] {
		j.Tasks = append(j.Tasks, taskJSON{t.kind, t.player, t.sq, t.deck, t.card, t.pc, t.to, t.reason, t.rentMul, t.amount})
	}
	if g.script != nil {
		j.Scripted, j.Dice, j.DicePos = true, g.script.dice, g.script.pos
		j.SpeedDice, j.SpeedMiss = g.script.speed, g.script.miss
	}
	return json.Marshal(j)
}

// UnmarshalGame reads a game written by MarshalJSON, checking that it
// describes a possible position.
func UnmarshalGame(data []byte) (*Game, error) {
	var j gameJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("monopoly: game state: %w", err)
	}
	if len(j.Rules) == 0 {
		return nil, fmt.Errorf("monopoly: game state: rules missing")
	}
	r, err := ParseRules("game state rules", j.Rules)
	if err != nil {
		return nil, err
	}
	if err := j.checkSizes(r); err != nil {
		return nil, err
	}
	g := &Game{rules: r}
	for _, restore := range restoreSections {
		if err := restore(&j, g); err != nil {
			return nil, err
		}
	}
	if err := g.validate(); err != nil {
		return nil, badState(err.field, "%s", err.msg)
	}
	return g, nil
}

// badState is a field of a saved game that the rules cannot read.
func badState(field, format string, args ...any) error {
	return fmt.Errorf("monopoly: game state: %s: %s", field, fmt.Sprintf(format, args...))
}

// checkSizes checks the lengths of the lists and the seats and kinds the
// state is indexed by, before anything is read through them.
func (j *gameJSON) checkSizes(r *Rules) error {
	nsq := len(r.Squares)
	n := len(j.Players)
	switch {
	case n < 2 || n > MaxPlayers:
		return badState("players", "%d players", n)
	case len(j.Owner) != nsq || len(j.Houses) != nsq:
		return badState("owner", "want %d squares", nsq)
	case len(j.Decks) != len(r.Decks):
		return badState("decks", "want %d decks", len(r.Decks))
	case len(j.Proposals) > n || len(j.TurnProps) > n:
		return badState("proposals", "more counts than players")
	case len(j.Tasks) > maxTasks:
		return badState("tasks", "too many")
	case int(j.Current) < 0 || int(j.Current) >= n:
		return badState("current", "seat %d", j.Current)
	case j.Phase > PhaseAfterRoll:
		return badState("phase", "%d", j.Phase)
	case j.Pending > DecisionMovement || int(j.Decider) < 0 || int(j.Decider) >= n:
		return badState("pending", "%d by %d", j.Pending, j.Decider)
	}
	return nil
}

// restoreSections read the state into a game, in order, each checking
// what it reads enough that the next can index by it; validate then
// checks the whole.
var restoreSections = [...]func(*gameJSON, *Game) error{
	(*gameJSON).restoreRNG,
	(*gameJSON).restorePlayers,
	(*gameJSON).restoreBoard,
	(*gameJSON).restoreDecks,
	(*gameJSON).restoreTurn,
	(*gameJSON).restoreTasks,
	(*gameJSON).restoreScript,
}

func (j *gameJSON) restoreRNG(g *Game) error {
	raw, err := hex.DecodeString(j.RNG)
	if err != nil {
		return badState("rng", "%v", err)
	}
	if err := g.rng.UnmarshalBinary(raw); err != nil {
		return badState("rng", "%v", err)
	}
	return nil
}

func (j *gameJSON) restorePlayers(g *Game) error {
	g.n = int8(len(j.Players))
	for i, p := range j.Players {
		if int(p.Pos) < 0 || int(p.Pos) >= len(g.rules.Squares) {
			return badState(fmt.Sprintf("players[%d].Pos", i), "off the board")
		}
		g.p[i] = p
	}
	return nil
}

// restoreBoard reads who owns each square and what stands on it.
func (j *gameJSON) restoreBoard(g *Game) error {
	for i := range g.owner {
		g.owner[i] = -1
	}
	for sq := range g.rules.Squares {
		o := j.Owner[sq]
		if o >= g.n || o < -1 || (o >= 0 && !g.rules.Squares[sq].Ownable()) {
			return badState(fmt.Sprintf("owner[%d]", sq), "%d", o)
		}
		if j.Houses[sq] < 0 || j.Houses[sq] > 5 {
			return badState(fmt.Sprintf("houses[%d]", sq), "%d", j.Houses[sq])
		}
		g.setOwner(sq, o)
		g.houses[sq] = j.Houses[sq]
	}
	return nil
}

// restoreDecks reads the order of the cards left in each deck.
func (j *gameJSON) restoreDecks(g *Game) error {
	for d, ds := range j.Decks {
		cards := len(g.rules.Decks[d].Cards)
		if int(ds.N) > cards || int(ds.Top) >= MaxDeckCards {
			return badState(fmt.Sprintf("decks[%d]", d), "bad size")
		}
		for k := range int(ds.N) {
			if int(ds.Cards[(int(ds.Top)+k)%MaxDeckCards]) >= cards {
				return badState(fmt.Sprintf("decks[%d]", d), "unknown card")
			}
		}
		g.decks[d] = ds
	}
	return nil
}

// restoreTurn reads the bank, the turn and the pending decision; validate
// checks them against each other.
func (j *gameJSON) restoreTurn(g *Game) error {
	g.mortgaged, g.houseSupply, g.hotelSupply, g.jackpot = j.Mortgaged, j.HouseSupply, j.HotelSupply, j.Jackpot
	g.cur, g.doubles, g.phase, g.rollAgain, g.jailedNow = j.Current, j.Doubles, j.Phase, j.RollAgain, j.JailedNow
	g.lastRoll, g.round, g.turn, g.landings, g.counters = j.LastRoll, j.Round, j.Turn, j.Landings, j.Counters
	copy(g.proposals[:], j.Proposals)
	copy(g.turnProps[:], j.TurnProps)
	g.pk, g.pp, g.auction, g.offer = j.Pending, j.Decider, j.Auction, j.Offer
	g.over, g.capped, g.winner, g.bankNet, g.money0, g.rolls = j.Over, j.Capped, j.Winner, j.BankNet, j.Money0, j.Rolls
	return nil
}

// restoreTasks reads the tasks the engine has yet to run; a program's
// must point into its program.
func (j *gameJSON) restoreTasks(g *Game) error {
	r := g.rules
	for i, t := range j.Tasks {
		if t.Kind < taskOps || t.Kind > taskMovement || !g.seat(t.Player) ||
			int(t.Square) < 0 || int(t.Square) >= len(r.Squares) {
			return badState(fmt.Sprintf("tasks[%d]", i), "invalid task")
		}
		if t.Kind == taskOps && !t.inProgram(r) {
			return badState(fmt.Sprintf("tasks[%d]", i), "invalid program position")
		}
		g.tasks[i] = task{t.Kind, t.Player, t.Square, t.Deck, t.Card, t.PC, t.To, t.Reason, t.RentMul, t.Amount}
	}
	g.nt = int8(len(j.Tasks))
	return nil
}

// inProgram reports whether a program task's position is in its program:
// a card's, or (Deck < 0) its square's.
func (t *taskJSON) inProgram(r *Rules) bool {
	var prog []Op
	switch {
	case t.Deck < 0:
		prog = r.Squares[t.Square].Program
	case int(t.Deck) < len(r.Decks) && t.Card >= 0 && int(t.Card) < len(r.Decks[t.Deck].Cards):
		prog = r.Decks[t.Deck].Cards[t.Card].Program
	default:
		return false
	}
	return t.PC >= 0 && int(t.PC) < len(prog)
}

// restoreScript reads the scripted dice of a prepared game, and the last
// roll of the speed die.
func (j *gameJSON) restoreScript(g *Game) error {
	if j.Scripted {
		if err := j.checkScript(); err != nil {
			return err
		}
		g.script = &diceScript{dice: j.Dice, speed: j.SpeedDice, pos: j.DicePos, miss: j.SpeedMiss}
	}
	if g.lastSpeed = j.LastSpeed; g.lastSpeed < 0 || g.lastSpeed > SpeedBus {
		return badState("last_speed_die", "%d is not a speed die face", g.lastSpeed)
	}
	return nil
}

func (j *gameJSON) checkScript() error {
	if j.DicePos < 0 || j.DicePos > len(j.Dice) {
		return badState("dice_pos", "%d", j.DicePos)
	}
	for i, d := range j.Dice {
		if d[0] < 1 || d[0] > 6 || d[1] < 1 || d[1] > 6 {
			return badState(fmt.Sprintf("dice[%d]", i), "%v is not a pair of dice", d)
		}
	}
	for i, f := range j.SpeedDice {
		if f < SpeedNone || f > SpeedBus {
			return badState(fmt.Sprintf("speed_dice[%d]", i), "%d is not a speed die face", f)
		}
	}
	if j.SpeedMiss < 0 || j.SpeedMiss > j.DicePos {
		return badState("speed_miss", "%d", j.SpeedMiss)
	}
	return nil
}

// tradeJSON is a TradeOffer as viewers and saved games read it: squares
// and jail cards as lists of indexes rather than bit sets.
type tradeJSON struct {
	From        int8  `json:"from"`
	To          int8  `json:"to"`
	GiveSquares []int `json:"give_squares,omitempty"`
	GetSquares  []int `json:"get_squares,omitempty"`
	GiveCash    int64 `json:"give_cash,omitempty"`
	GetCash     int64 `json:"get_cash,omitempty"`
	GiveCards   []int `json:"give_jail_cards,omitempty"` // see JailCardBit
	GetCards    []int `json:"get_jail_cards,omitempty"`
}

func bitList(m uint64) []int {
	var l []int
	for ; m != 0; m &= m - 1 {
		l = append(l, bits.TrailingZeros64(m))
	}
	return l
}

func bitSet(l []int, limit int, field string) (uint64, error) {
	var m uint64
	for _, b := range l {
		if b < 0 || b >= limit || m&(1<<b) != 0 {
			return 0, fmt.Errorf("monopoly: trade offer: %s: %d out of range or repeated", field, b)
		}
		m |= 1 << b
	}
	return m, nil
}

// MarshalJSON writes the offer with squares and jail cards as lists.
func (o TradeOffer) MarshalJSON() ([]byte, error) {
	return json.Marshal(tradeJSON{From: o.From, To: o.To, GiveSquares: bitList(o.GiveSquares), GetSquares: bitList(o.GetSquares),
		GiveCash: o.GiveCash, GetCash: o.GetCash, GiveCards: bitList(uint64(o.GiveCards)), GetCards: bitList(uint64(o.GetCards))})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *TradeOffer) UnmarshalJSON(data []byte) error {
	var j tradeJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	t := TradeOffer{From: j.From, To: j.To, GiveCash: j.GiveCash, GetCash: j.GetCash}
	var err error
	if t.GiveSquares, err = bitSet(j.GiveSquares, MaxSquares, "give_squares"); err != nil {
		return err
	}
	if t.GetSquares, err = bitSet(j.GetSquares, MaxSquares, "get_squares"); err != nil {
		return err
	}
	var cards uint64
	if cards, err = bitSet(j.GiveCards, 8, "give_jail_cards"); err != nil {
		return err
	}
	t.GiveCards = uint8(cards)
	if cards, err = bitSet(j.GetCards, 8, "get_jail_cards"); err != nil {
		return err
	}
	t.GetCards = uint8(cards)
	*o = t
	return nil
}
