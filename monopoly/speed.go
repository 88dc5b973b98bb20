package monopoly

import (
	"encoding/json"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// The speed die (Hasbro's standard edition's; the Mega Edition's has bus
// tickets and no first lap to wait) is a third die thrown with the white
// dice once a player has passed GO, never to leave jail. Its faces come
// from the rules file (speed_die_faces): a number adds to the white dice;
// Mr. Monopoly moves the player on, after the white dice's move, to the
// next unowned property (or, with none left, the next that charges rent);
// the Bus lets the player move by either white die or by both; and triples
// (the speed die showing the number both white dice show) move the player
// to any square, ending the roll. A utility's rent counts all three dice
// (RentDice). Everything the die sets off goes through the task stack like
// any other resolution.

// SpeedFace is a face of the speed die: a number 1-6 that adds to the
// white dice, Mr. Monopoly or the Bus. SpeedNone is no speed die thrown.
type SpeedFace int8

// Speed die faces besides the numbers 1-6.
const (
	SpeedNone       SpeedFace = 0
	SpeedMrMonopoly SpeedFace = 7
	SpeedBus        SpeedFace = 8
)

// MaxSpeedFaces bounds speed_die_faces.
const MaxSpeedFaces = 12

// Number reports whether the face is a number, which adds to the dice.
func (f SpeedFace) Number() bool { return f >= 1 && f <= 6 }

// String returns the face as rules files and the wire write it: "1"-"6",
// "mr_monopoly", "bus", or "" for none.
func (f SpeedFace) String() string {
	switch {
	case f.Number():
		return strconv.Itoa(int(f))
	case f == SpeedMrMonopoly:
		return "mr_monopoly"
	case f == SpeedBus:
		return "bus"
	case f == SpeedNone:
		return ""
	}
	return fmt.Sprintf("SpeedFace(%d)", int8(f))
}

// Describe names the face for people: "3", "Mr. Monopoly", "the Bus".
func (f SpeedFace) Describe() string {
	switch f {
	case SpeedMrMonopoly:
		return "Mr. Monopoly"
	case SpeedBus:
		return "the Bus"
	}
	return f.String()
}

// ParseSpeedFace reads a face written as String writes it.
func ParseSpeedFace(s string) (SpeedFace, bool) {
	switch s {
	case "mr_monopoly":
		return SpeedMrMonopoly, true
	case "bus":
		return SpeedBus, true
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= 6 {
		return SpeedFace(n), true
	}
	return SpeedNone, false
}

// UnmarshalYAML reads a number 1-6, mr_monopoly or bus.
func (f *SpeedFace) UnmarshalYAML(n *yaml.Node) error {
	v, ok := SpeedFace(0), false
	if n.Kind == yaml.ScalarNode {
		v, ok = ParseSpeedFace(n.Value)
	}
	if !ok {
		return fmt.Errorf("want a speed die face: a number 1-6, mr_monopoly or bus, got %q", n.Value)
	}
	*f = v
	return nil
}

// MarshalJSON writes a number face as a number and the others by name, as
// a rules file has them.
func (f SpeedFace) MarshalJSON() ([]byte, error) {
	if f.Number() || f == SpeedNone {
		return strconv.AppendInt(nil, int64(f), 10), nil
	}
	return json.Marshal(f.String())
}

// UnmarshalJSON reads what MarshalJSON writes; 0 and "" are SpeedNone.
func (f *SpeedFace) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		v, ok := ParseSpeedFace(name)
		if !ok && name != "" {
			return fmt.Errorf("monopoly: %q is not a speed die face", name)
		}
		*f = v
		return nil
	}
	var n int8
	if err := json.Unmarshal(b, &n); err != nil || n < 0 || n > 6 {
		return fmt.Errorf("monopoly: %s is not a speed die face", b)
	}
	*f = SpeedFace(n)
	return nil
}

// speedFaces is the speed_die_faces list, bounded like the other lists of
// a rules file.
type speedFaces []SpeedFace

func (speedFaces) MaxLen() int { return MaxSpeedFaces }

// Movement choices: the task that asks a movement decision keeps which in
// its amount.
const (
	movementBus     = 1 // either white die or both
	movementTriples = 2 // any other square
)

// usesSpeedDie reports whether p's turn rolls throw the speed die: under
// the variant, once p has passed GO. Rolls for doubles in jail never do.
func (g *Game) usesSpeedDie(p int8) bool { return g.rules.SpeedDie && g.p[p].PassedGo }

// canTurnRoll reports whether p's next turn roll can be thrown: scripted
// dice that must also give the speed die's face when it is thrown.
func (g *Game) canTurnRoll(p int8) bool {
	if !g.canRoll() {
		return false
	}
	return g.script == nil || !g.usesSpeedDie(p) || g.script.speedAt(g.script.pos) != SpeedNone
}

// rollSpeed throws the speed die with the white dice d1, d2 just rolled:
// one draw of the generator over the faces, or the scripted face of that
// roll.
func (g *Game) rollSpeed(d1, d2 int) SpeedFace {
	var f SpeedFace
	if s := g.script; s != nil {
		f = s.speedAt(s.pos - 1)
		if s.miss == s.pos {
			s.miss = 0 // roll marked its face unthrown; it is thrown
		}
	} else {
		faces := g.rules.SpeedDieFaces
		f = faces[g.intn(len(faces))]
	}
	g.lastSpeed = f
	g.emit(Event{Kind: EvSpeedDie, Player: g.cur, Amount: int64(f), Flag: triples(d1, d2, f)})
	return f
}

// triples reports whether the speed die shows the number both white dice
// show.
func triples(d1, d2 int, f SpeedFace) bool { return d1 == d2 && SpeedFace(d1) == f }

// moveWithSpeedDie resolves a turn roll with the speed die: d1, d2 the
// white dice (doubles already counted), f its face.
func (g *Game) moveWithSpeedDie(d1, d2 int, f SpeedFace) {
	p := g.cur
	switch {
	case triples(d1, d2, f):
		g.rollAgain = false // triples end the roll
		g.push(task{kind: taskMovement, player: p, sq: g.p[p].Pos, amount: movementTriples})
	case f.Number():
		g.moveBy(p, d1+d2+int(f))
	case f == SpeedMrMonopoly:
		// Pushed first, it runs once the white dice's move is resolved.
		g.push(task{kind: taskMrMonopoly, player: p})
		g.moveBy(p, d1+d2)
	case f == SpeedBus:
		g.push(task{kind: taskMovement, player: p, sq: g.p[p].Pos, amount: movementBus})
	}
}

// mrMonopoly moves p on to the next unowned property, or to the next that
// charges p rent, unless the first move ended the roll (jail) or p.
func (g *Game) mrMonopoly(p int8) {
	if g.p[p].Bankrupt || g.p[p].InJail {
		return
	}
	g.advanceToNext(p, NextUnowned, NextRentOwed, 0, 0)
}

// busSteps returns the steps of each move the Bus offers from the dice
// d1, d2: either die, or both.
func busSteps(d1, d2 int) [3]int { return [3]int{d1, d2, d1 + d2} }

// BusSquares are the squares the speed die's Bus offers a player standing
// on square from of a board of n squares after the white dice d1 and d2:
// by the first die, by the second, by both. Two may be the same square.
func BusSquares(from, d1, d2, n int) [3]int {
	var to [3]int
	for i, s := range busSteps(d1, d2) {
		to[i] = (from + s) % n
	}
	return to
}

// movementSteps returns how far p moves forward to reach sq under the
// pending movement decision t, or -1 when sq is not a choice.
func (g *Game) movementSteps(t *task, sq int) int {
	n := len(g.rules.Squares)
	from := int(t.sq)
	if sq < 0 || sq >= n {
		return -1
	}
	if t.amount == movementTriples {
		if sq == from {
			return -1 // a move, to another square
		}
		return (sq - from + n) % n
	}
	for _, s := range busSteps(int(g.lastRoll[0]), int(g.lastRoll[1])) {
		if (from+s)%n == sq {
			return s
		}
	}
	return -1
}

// move carries out p's movement choice to sq (checked legal).
func (g *Game) move(p int8, sq int) {
	t := g.tasks[g.nt-1]
	g.pop()
	if t.amount == movementTriples {
		g.advanceTo(p, sq, 0, 0)
		return
	}
	g.moveBy(p, g.movementSteps(&t, sq))
}

// LastSpeedDie returns the speed die's face on the latest turn roll that
// threw it (SpeedNone when it was not thrown).
func (g *Game) LastSpeedDie() SpeedFace { return g.lastSpeed }

// RentDice is the throw a utility's rent multiplies: the latest roll's
// white dice and, when it threw the speed die, its number. Hasbro's rules
// for the speed die count all three dice, the Bus and Mr. Monopoly as 0.
func (g *Game) RentDice() int {
	total := int(g.lastRoll[0]) + int(g.lastRoll[1])
	if g.lastSpeed.Number() {
		total += int(g.lastSpeed)
	}
	return total
}

// PassedGo reports whether p has passed GO at least once, after which its
// rolls throw the speed die when the rules have one.
func (g *Game) PassedGo(p int) bool { return g.p[p].PassedGo }

// speedAt returns the scripted face of roll i, SpeedNone when not given.
func (s *diceScript) speedAt(i int) SpeedFace {
	if i >= 0 && i < len(s.speed) {
		return s.speed[i]
	}
	return SpeedNone
}

// ScriptSpeedDie gives the speed die's face for each scripted roll, by
// index into the dice of ScriptDice; SpeedNone where the roll gives none.
// A roll that throws the speed die without a face given waits as if the
// dice had run out, and a face given to a roll that does not throw the
// speed die is reported by ScriptError.
func (g *Game) ScriptSpeedDie(faces []SpeedFace) {
	if g.script == nil {
		g.script = &diceScript{}
	}
	g.script.speed = faces
}

// ScriptPos returns how many scripted rolls have been taken.
func (g *Game) ScriptPos() int {
	if g.script == nil {
		return 0
	}
	return g.script.pos
}

// ScriptError reports a scripted speed die face that the engine did not
// throw: a scenario that gives one where the rules have no speed die.
func (g *Game) ScriptError() error {
	if g.script == nil || g.script.miss == 0 {
		return nil
	}
	return fmt.Errorf("dice[%d]: gives a speed die face, but that roll does not throw the speed die", g.script.miss-1)
}
