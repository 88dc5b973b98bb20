package arena

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gopoly/gopoly/monopoly"
)

// TurnTrace is one turn of a game at detail full: one line of a
// variant's traces.jsonl.
type TurnTrace struct {
	Game    int       `json:"game"` // index in the variant's seed range
	Turn    int       `json:"turn"`
	Round   int       `json:"round"`
	Player  int       `json:"player"`  // playing position
	Dice    [][2]int8 `json:"dice"`    // every roll of the turn
	Squares []int8    `json:"squares"` // every square moved to, in order
	// Cash is every player's cash (by playing position) when the turn
	// ended.
	Cash   []int            `json:"cash"`
	Events []monopoly.Event `json:"events"`
}

// tracer turns a game's events into TurnTrace lines.
type tracer struct {
	buf  bytes.Buffer
	cur  TurnTrace
	open bool
	err  error
}

func (tr *tracer) reset(game int) {
	tr.buf.Reset()
	// Empty lists rather than nulls in the JSON.
	tr.cur = TurnTrace{Game: game, Dice: [][2]int8{}, Squares: []int8{}, Cash: []int{}, Events: []monopoly.Event{}}
	tr.open, tr.err = false, nil
}

func (tr *tracer) start(turn, round, player int) {
	tr.cur = TurnTrace{Game: tr.cur.Game, Turn: turn, Round: round, Player: player,
		Dice: tr.cur.Dice[:0], Squares: tr.cur.Squares[:0], Events: tr.cur.Events[:0], Cash: tr.cur.Cash[:0]}
	tr.open = true
}

// end writes the open turn, with the cash g shows now.
func (tr *tracer) end(g *monopoly.Game) {
	if !tr.open {
		return
	}
	for p := range g.Players() {
		tr.cur.Cash = append(tr.cur.Cash, g.Cash(p))
	}
	line, err := json.Marshal(&tr.cur)
	if err != nil && tr.err == nil {
		tr.err = fmt.Errorf("arena: trace of game %d: %w", tr.cur.Game, err)
	}
	tr.buf.Write(line)
	tr.buf.WriteByte('\n')
	tr.open = false
}

func (tr *tracer) observe(g *monopoly.Game, events []monopoly.Event) {
	if !tr.open && (len(events) == 0 || events[0].Kind != monopoly.EvTurnStart) {
		// The game's first turn starts before the table records.
		tr.start(g.Turn(), g.Round(), g.Current())
	}
	for _, e := range events {
		if e.Kind == monopoly.EvTurnStart {
			// Nothing follows a turn's start within an action: the cash
			// now is the cash the last turn ended with.
			tr.end(g)
			tr.start(g.Turn(), int(e.Amount), int(e.Player))
			continue
		}
		tr.cur.Events = append(tr.cur.Events, e)
		switch e.Kind {
		case monopoly.EvRoll:
			tr.cur.Dice = append(tr.cur.Dice, e.Dice)
		case monopoly.EvMove:
			tr.cur.Squares = append(tr.cur.Squares, e.Square)
		}
	}
}

// finish writes the last turn.
func (tr *tracer) finish(g *monopoly.Game) error {
	tr.end(g)
	return tr.err
}
