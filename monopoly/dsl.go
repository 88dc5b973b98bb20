package monopoly

import (
	"fmt"
	"strconv"
	"strings"
)

// The action DSL says what a card or an action square does. A program is
// one or more commands separated by ";":
//
//	ADVANCE_TO <square> [RENT xN | RENT DICE xN]
//	    square: a board index, a quoted name, NEAREST street|railroad|utility,
//	    or NEXT unowned|rent_owed [OR NEXT unowned|rent_owed]: the next
//	    property ahead that nobody owns, or that another player owns and
//	    charges rent on (not mortgaged), trying the second when there is
//	    no first; with neither, the player stays where it is.
//	    Passing GO on the way pays the salary; landing resolves the square.
//	    RENT xN multiplies the rent owed there; RENT DICE xN charges a fresh
//	    roll times N instead of the usual rent.
//	TRANSLATE n       move n squares (negative: backwards, never collecting GO)
//	PAY n [EACH]      pay the bank, or each other player
//	RECEIVE n [EACH]  receive from the bank, or from each other player
//	REPAIRS h t       pay the bank h per house and t per hotel owned
//	GO_TO_JAIL        go directly to jail
//	KEEP              the card is held until used (Get Out of Jail Free)
//	DRAW deck         draw the top card of a deck and run it
//	TAX n [OR p%]     pay n, or under income_tax: lesser the lesser of n and p% of net worth
//	JACKPOT           collect the Free Parking pot (free_parking_jackpot rule)

// OpCode is a command of the action DSL.
type OpCode uint8

// DSL commands.
const (
	OpAdvanceTo OpCode = iota
	OpTranslate
	OpPay
	OpReceive
	OpRepairs
	OpGoToJail
	OpKeep
	OpDraw
	OpTax
	OpJackpot
)

var opNames = names[OpCode]{"OpCode", []string{"ADVANCE_TO", "TRANSLATE", "PAY", "RECEIVE", "REPAIRS", "GO_TO_JAIL", "KEEP", "DRAW", "TAX", "JACKPOT"}}

func (c OpCode) String() string { return opNames.of(c) }

// Op is one compiled DSL command.
type Op struct {
	Code    OpCode
	A, B    int        // amounts, square, steps, deck, percent: per command
	Nearest SquareKind // ADVANCE_TO NEAREST: the kind sought (valid when A == targetNearest)
	// ADVANCE_TO NEXT: the property sought, and the one sought when
	// there is none (valid when A == targetNext; NextNone: no fallback).
	Next, OrNext Next
	Each         bool // PAY/RECEIVE EACH
	RentMul      int  // ADVANCE_TO ... RENT xN (0: normal rent)
	DiceMul      int  // ADVANCE_TO ... RENT DICE xN (0: none)
}

// Targets of ADVANCE_TO other than a square, in Op.A.
const (
	targetNearest = -1
	targetNext    = -2
)

// Next is what ADVANCE_TO NEXT looks for.
type Next uint8

// The properties ADVANCE_TO NEXT looks for.
const (
	NextNone     Next = iota
	NextUnowned       // a property nobody owns
	NextRentOwed      // a property another player owns and charges rent on
)

var nextNames = [...]string{"", "unowned", "rent_owed"}

type dslToken struct {
	text string
	str  bool // a quoted string
	pos  int  // byte offset, for messages
}

func lexDSL(src string) ([]dslToken, error) {
	var toks []dslToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == ';' || c == '%':
			toks = append(toks, dslToken{text: string(c), pos: i})
			i++
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unterminated string at column %d", i+1)
			}
			toks = append(toks, dslToken{text: src[i+1 : i+1+j], str: true, pos: i})
			i += j + 2
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \t\n\r;%\"", rune(src[j])) {
				j++
			}
			toks = append(toks, dslToken{text: src[i:j], pos: i})
			i = j
		}
	}
	return toks, nil
}

type dslParser struct {
	toks   []dslToken
	i      int
	rules  *Rules
	decks  map[string]int
	inCard bool
}

func (p *dslParser) peek() (dslToken, bool) {
	if p.i < len(p.toks) {
		return p.toks[p.i], true
	}
	return dslToken{}, false
}

func (p *dslParser) next(what string) (dslToken, error) {
	t, ok := p.peek()
	if !ok {
		return t, fmt.Errorf("expected %s at end of program", what)
	}
	p.i++
	return t, nil
}

func (p *dslParser) errAt(t dslToken, format string, args ...any) error {
	return fmt.Errorf("column %d: %s", t.pos+1, fmt.Sprintf(format, args...))
}

// refError is a program's reference to a deck or a square that the rules
// lack, for compile to blame on the list that lost it when need be.
type refError struct {
	list string // the rules key the item would be in: "decks" or "board"
	ref  string // the item as the program names it: deck "chance", square 39
	err  error  // the error at the program
}

func (e *refError) Error() string { return e.err.Error() }

// kind is what list holds: a deck or a square.
func (e *refError) kind() string {
	if e.list == "decks" {
		return "deck"
	}
	return "square"
}

func (p *dslParser) int(what string) (int, error) {
	t, err := p.next(what)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(t.text)
	if t.str || err != nil {
		return 0, p.errAt(t, "expected %s (an integer), got %q", what, t.text)
	}
	return n, nil
}

func (p *dslParser) amount(what string) (int, error) {
	t, _ := p.peek()
	n, err := p.int(what)
	if err == nil && (n < 0 || n > MaxAmount) {
		return 0, p.errAt(t, "%s must be between 0 and %d, got %d", what, MaxAmount, n)
	}
	return n, err
}

func (p *dslParser) keyword(w string) bool {
	if t, ok := p.peek(); ok && !t.str && t.text == w {
		p.i++
		return true
	}
	return false
}

// nextTarget reads what NEXT looks for: unowned or rent_owed.
func (p *dslParser) nextTarget() (Next, error) {
	t, err := p.next("unowned or rent_owed")
	if err != nil {
		return NextNone, err
	}
	for i, n := range nextNames {
		if i > 0 && !t.str && t.text == n {
			return Next(i), nil
		}
	}
	return NextNone, p.errAt(t, "NEXT takes unowned or rent_owed, got %q", t.text)
}

// multiplier parses "xN".
func (p *dslParser) multiplier() (int, error) {
	t, err := p.next("a multiplier such as x2")
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimPrefix(t.text, "x"))
	if t.str || !strings.HasPrefix(t.text, "x") || err != nil || n <= 0 {
		return 0, p.errAt(t, "expected a multiplier such as x2, got %q", t.text)
	}
	return n, nil
}

// parseProgram compiles DSL source. Square names resolve against r's
// board; deck names against decks.
func parseProgram(src string, r *Rules, decks map[string]int, inCard bool) ([]Op, error) {
	toks, err := lexDSL(src)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("empty program")
	}
	p := &dslParser{toks: toks, rules: r, decks: decks, inCard: inCard}
	var prog []Op
	for {
		op, err := p.command()
		if err != nil {
			return nil, err
		}
		prog = append(prog, op)
		t, ok := p.peek()
		if !ok {
			return prog, nil
		}
		if t.text != ";" || t.str {
			return nil, p.errAt(t, "unexpected %q after %s", t.text, op.Code)
		}
		p.i++
		if _, ok := p.peek(); !ok {
			return prog, nil // a trailing ";" is harmless
		}
	}
}

func (p *dslParser) command() (Op, error) {
	t, err := p.next("a command")
	if err != nil {
		return Op{}, err
	}
	code := -1
	for i, n := range opNames.list {
		if !t.str && t.text == n {
			code = i
		}
	}
	if code < 0 {
		return Op{}, p.errAt(t, "unknown command %q (known: %s)", t.text, strings.Join(opNames.list, ", "))
	}
	op := Op{Code: OpCode(code)}
	switch op.Code {
	case OpAdvanceTo:
		if p.keyword("NEXT") {
			op.A = targetNext
			if op.Next, err = p.nextTarget(); err != nil {
				return op, err
			}
			if p.keyword("OR") {
				if !p.keyword("NEXT") {
					t, _ := p.peek()
					return op, p.errAt(t, "OR takes NEXT unowned or NEXT rent_owed, got %q", t.text)
				}
				if op.OrNext, err = p.nextTarget(); err != nil {
					return op, err
				}
			}
		} else if p.keyword("NEAREST") {
			k, err := p.next("street, railroad or utility")
			if err != nil {
				return op, err
			}
			op.A = targetNearest
			switch k.text {
			case "street":
				op.Nearest = KindStreet
			case "railroad":
				op.Nearest = KindRailroad
			case "utility":
				op.Nearest = KindUtility
			default:
				return op, p.errAt(k, "NEAREST takes street, railroad or utility, got %q", k.text)
			}
		} else {
			sq, err := p.square()
			if err != nil {
				return op, err
			}
			op.A = sq
		}
		if p.keyword("RENT") {
			dice := p.keyword("DICE")
			m, err := p.multiplier()
			if err != nil {
				return op, err
			}
			if dice {
				op.DiceMul = m
			} else {
				op.RentMul = m
			}
		}
	case OpTranslate:
		t, _ := p.peek()
		if op.A, err = p.int("a number of squares"); err != nil {
			return op, err
		}
		if op.A == 0 || op.A <= -MaxSquares || op.A >= MaxSquares {
			return op, p.errAt(t, "TRANSLATE takes a non-zero number of squares between %d and %d", 1-MaxSquares, MaxSquares-1)
		}
	case OpPay, OpReceive:
		if op.A, err = p.amount("an amount"); err != nil {
			return op, err
		}
		op.Each = p.keyword("EACH")
	case OpRepairs:
		if op.A, err = p.amount("the charge per house"); err != nil {
			return op, err
		}
		if op.B, err = p.amount("the charge per hotel"); err != nil {
			return op, err
		}
	case OpTax:
		if op.A, err = p.amount("an amount"); err != nil {
			return op, err
		}
		if p.keyword("OR") {
			t, _ := p.peek()
			if op.B, err = p.amount("a percentage"); err != nil {
				return op, err
			}
			if op.B == 0 || op.B > 100 {
				return op, p.errAt(t, "percentage must be between 1 and 100")
			}
			pct, err := p.next("%")
			if err != nil {
				return op, err
			}
			if pct.text != "%" {
				return op, p.errAt(pct, "expected %% after the percentage")
			}
		}
	case OpDraw:
		d, err := p.next("a deck name")
		if err != nil {
			return op, err
		}
		i, ok := p.decks[d.text]
		if !ok {
			return op, &refError{list: "decks", ref: fmt.Sprintf("deck %q", d.text), err: p.errAt(d, "unknown deck %q", d.text)}
		}
		if p.inCard {
			return op, p.errAt(t, "a card cannot DRAW")
		}
		op.A = i
	case OpKeep:
		if !p.inCard {
			return op, p.errAt(t, "KEEP is only for cards")
		}
	}
	return op, nil
}

func (p *dslParser) square() (int, error) {
	t, err := p.next("a square")
	if err != nil {
		return 0, err
	}
	if t.str {
		if i, ok := p.rules.squareIndex[t.text]; ok {
			return i, nil
		}
		return 0, &refError{list: "board", ref: fmt.Sprintf("square %q", t.text), err: p.errAt(t, "unknown square %q", t.text)}
	}
	n, err := strconv.Atoi(t.text)
	if err != nil {
		return 0, p.errAt(t, "expected a square index or a quoted name, got %q", t.text)
	}
	if n < 0 || n >= len(p.rules.config.Board) {
		return 0, &refError{list: "board", ref: fmt.Sprintf("square %d", n), err: p.errAt(t, "square %d is off the board", n)}
	}
	return n, nil
}
