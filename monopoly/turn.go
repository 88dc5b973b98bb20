package monopoly

// The engine resolves a roll with a stack of tasks. A task either runs to
// completion (and may push further tasks), or stays on top and leaves a
// decision pending; the answer finishes it. Everything a card or a square
// sets off goes through this one mechanism, so any decision point, however
// deep in a resolution, can be saved, cloned and resumed.

const maxTasks = 64

// maxLandings bounds the squares one roll can chain through (a card that
// moves, a square that moves on ...). The standard rules need three at
// most (each adds at most two tasks, so the stack cannot overflow); a
// rules file whose programs send a player round in circles ends
// the chain here instead of looping for ever.
const maxLandings = 16

type taskKind uint8

const (
	taskOps               taskKind = iota + 1 // run a DSL program from pc
	taskPay                                   // player owes amount to creditor
	taskBuy                                   // player may buy sq
	taskAuction                               // auction of sq, calls starting at player
	taskTrade                                 // the target answers g.offer
	taskMortgagedTransfer                     // player received sq mortgaged (7.7)
	taskEndTurn                               // the current player went bankrupt
	taskDiceRent                              // roll, and pay mul times it to sq's owner
	taskMove                                  // move player by amount squares
	taskGameOver                              // the game ends, won by player
	taskMrMonopoly                            // the speed die's Mr. Monopoly moves player on
	taskMovement                              // player chooses where to move from sq (amount: movementBus, movementTriples)
)

type task struct {
	kind    taskKind
	player  int8
	sq      int8
	deck    int8 // taskOps: deck of the card, -1 for a square's program
	card    int8
	pc      int8
	to      int8 // taskPay: creditor
	reason  Reason
	rentMul int8 // taskDiceRent: dice multiplier
	amount  int64
}

func (g *Game) push(t task) {
	if int(g.nt) == maxTasks {
		panic("monopoly: task stack overflow (a rules program loops?)")
	}
	g.tasks[g.nt] = t
	g.nt++
}

// pop removes the top task, zeroing its slot so that equal positions
// compare equal.
func (g *Game) pop() {
	g.nt--
	g.tasks[g.nt] = task{}
}

func (g *Game) clearTasks() {
	for g.nt > 0 {
		g.pop()
	}
}

// advance runs the game until a decision is pending or the game is over.
func (g *Game) advance() {
	g.pk = DecisionNone
	for !g.over {
		if g.nt == 0 {
			switch g.phase {
			case PhaseBeforeRoll, PhaseAfterRoll:
				g.pk, g.pp = DecisionManage, g.cur
				return
			case PhaseJail:
				g.pk, g.pp = DecisionJail, g.cur
				return
			case PhaseResolve:
				g.afterRoll()
			}
			continue
		}
		if !g.runTask(&g.tasks[g.nt-1]) {
			return
		}
	}
}

// runTask runs the top task; it returns false when the task waits for a
// decision (or for dice).
func (g *Game) runTask(t *task) bool {
	switch t.kind {
	case taskOps:
		g.runOp(t)
	case taskPay:
		return g.runPay(t)
	case taskBuy:
		if g.Funds(int(t.player)) < g.rules.Squares[t.sq].Price {
			// Nothing to decide: it cannot be bought (7.4).
			sq, pl := int(t.sq), t.player
			g.pop()
			g.emit(Event{Kind: EvDecline, Player: pl, Square: int8(sq)})
			g.startAuction(sq, g.cur)
			return true
		}
		g.pk, g.pp = DecisionBuy, t.player
		return false
	case taskAuction:
		return g.runAuction(t)
	case taskTrade:
		g.pk, g.pp = DecisionTradeResponse, g.offer.To
		return false
	case taskMortgagedTransfer:
		if g.p[t.player].Bankrupt || g.owner[t.sq] != t.player || !g.Mortgaged(int(t.sq)) {
			g.pop()
			return true
		}
		g.pk, g.pp = DecisionMortgagedTransfer, t.player
		return false
	case taskEndTurn:
		g.pop()
		g.endTurn()
	case taskDiceRent:
		if !g.canRoll() {
			return false
		}
		tt := *t
		g.pop()
		d1, d2 := g.roll()
		g.emit(Event{Kind: EvRoll, Player: tt.player, Dice: [2]int8{int8(d1), int8(d2)}})
		if o := g.owner[tt.sq]; o >= 0 && o != tt.player && !g.Mortgaged(int(tt.sq)) {
			g.push(task{kind: taskPay, player: tt.player, to: o, sq: tt.sq, reason: ReasonRent,
				amount: int64((d1 + d2) * int(tt.rentMul))})
		}
	case taskMove:
		tt := *t
		g.pop()
		g.moveBy(tt.player, int(tt.amount))
	case taskGameOver:
		g.endGame(t.player)
	case taskMrMonopoly:
		p := t.player
		g.pop()
		g.mrMonopoly(p)
	case taskMovement:
		g.pk, g.pp = DecisionMovement, t.player
		return false
	}
	return true
}

func (g *Game) startTurn() {
	g.turn++
	g.doubles = 0
	g.rollAgain = false
	g.jailedNow = false
	g.proposals = [MaxPlayers]int8{}
	g.turnProps = [MaxPlayers]int8{}
	g.phase = PhaseBeforeRoll
	g.emit(Event{Kind: EvTurnStart, Player: g.cur, Amount: int64(g.round)})
}

func (g *Game) setPhase(ph Phase) {
	g.phase = ph
	g.proposals = [MaxPlayers]int8{}
}

// turnRoll throws the current player's dice and starts resolving them.
func (g *Game) turnRoll() (int, int) {
	g.landings = 0
	d1, d2 := g.roll()
	g.emit(Event{Kind: EvRoll, Player: g.cur, Dice: [2]int8{int8(d1), int8(d2)}})
	g.setPhase(PhaseResolve)
	g.rollAgain = false
	return d1, d2
}

// rollAndMove is a turn's roll outside jail (8.17): a third doubles goes
// to jail without moving; otherwise move and resolve. The speed die, when
// the player throws it, is thrown with the white dice, so a third doubles
// throws it too, to no effect.
func (g *Game) rollAndMove() {
	d1, d2 := g.turnRoll()
	f := SpeedNone
	if g.usesSpeedDie(g.cur) {
		f = g.rollSpeed(d1, d2)
	}
	if d1 == d2 {
		g.doubles++
		if int(g.doubles) >= 3 {
			g.sendToJail(g.cur)
			return
		}
		g.rollAgain = true
	}
	if f != SpeedNone {
		g.moveWithSpeedDie(d1, d2, f)
		return
	}
	g.moveBy(g.cur, d1+d2)
}

// rollInJail is an attempt to leave jail by doubles (7.8): doubles move
// without an extra roll; the last failure forces the fine and moves.
func (g *Game) rollInJail() {
	d1, d2 := g.turnRoll()
	p := &g.p[g.cur]
	if d1 == d2 {
		g.leaveJail(g.cur)
		g.moveBy(g.cur, d1+d2)
		return
	}
	p.JailTurns++
	if int(p.JailTurns) < g.rules.JailTurns {
		g.emit(Event{Kind: EvStayInJail, Player: g.cur, Amount: int64(p.JailTurns)})
		return
	}
	g.push(task{kind: taskMove, player: g.cur, amount: int64(d1 + d2)})
	g.push(task{kind: taskPay, player: g.cur, to: g.finesAccount(), reason: ReasonJailFine, amount: int64(g.rules.JailFine)})
}

func (g *Game) leaveJail(p int8) {
	g.p[p].InJail = false
	g.p[p].JailTurns = 0
	g.emit(Event{Kind: EvLeaveJail, Player: p})
}

// afterRoll ends the resolution of a roll.
func (g *Game) afterRoll() {
	p := &g.p[g.cur]
	g.emit(Event{Kind: EvRollResolved, Player: g.cur, Square: p.Pos, Flag: p.InJail})
	if g.jailedNow {
		g.endTurn() // entering jail ends the turn at once (7.8)
		return
	}
	g.setPhase(PhaseAfterRoll)
}

func (g *Game) endTurn() {
	g.doubles = 0
	g.rollAgain = false
	g.jailedNow = false
	next := g.cur
	for {
		if next++; next == g.n {
			next = 0
		}
		if !g.p[next].Bankrupt {
			break
		}
	}
	if next <= g.cur {
		g.round++
	}
	g.cur = next
	if g.rules.MaxRounds > 0 && int(g.round) > g.rules.MaxRounds {
		g.finishByNetWorth()
		return
	}
	g.startTurn()
}

// Adjourn ends the game now as a timed game (7.10), whatever is pending:
// the solvent player with the highest net worth wins, a tie has no
// winner, and Capped reports true. It is for a game that would not end
// otherwise (no round limit, and players that never go bankrupt), which
// a caller stops after a budget of decisions. A pending auction, trade
// or debt is dropped unsettled. It does nothing to a game that is over.
func (g *Game) Adjourn() {
	if !g.over {
		g.finishByNetWorth()
	}
}

// finishByNetWorth ends a timed game (7.10): the highest net worth wins; a
// tie has no winner.
func (g *Game) finishByNetWorth() {
	best, winner := -1, int8(-1)
	for i := range g.n {
		if g.p[i].Bankrupt {
			continue
		}
		w := g.NetWorth(int(i))
		switch {
		case w > best:
			best, winner = w, i
		case w == best:
			winner = -1
		}
	}
	g.over, g.capped, g.winner = true, true, winner
	g.clearTasks()
	g.pk = DecisionNone
	g.emit(Event{Kind: EvGameOver, Player: winner, Amount: int64(best), Flag: true})
}

func (g *Game) sendToJail(p int8) {
	pl := &g.p[p]
	pl.Pos = int8(g.rules.JailSquare)
	pl.InJail = true
	pl.JailTurns = 0
	if p == g.cur {
		g.jailedNow = true
		g.rollAgain = false
	}
	g.emit(Event{Kind: EvGoToJail, Player: p})
}

// moveBy moves p forward (or back, for negative steps) and resolves the
// square reached. Passing or landing on GO going forward pays the salary
// once (8.5).
func (g *Game) moveBy(p int8, steps int) {
	n := len(g.rules.Squares)
	from := int(g.p[p].Pos)
	to := from + steps
	if to < 0 || to >= n { // divide only when the move wraps round the board
		to = (to%n + n) % n
	}
	g.p[p].Pos = int8(to)
	g.emit(Event{Kind: EvMove, Player: p, Square: int8(to), Other: int8(from)})
	if steps > 0 && from+steps >= n {
		g.paySalary(p)
	}
	g.land(p, 0, 0)
}

// advanceTo moves p forward to target (a card's "Advance to"), paying the
// salary if it passes or lands on GO, and resolves it with the card's rent
// modifiers.
func (g *Game) advanceTo(p int8, target int, rentMul, diceMul int) {
	from := int(g.p[p].Pos)
	g.p[p].Pos = int8(target)
	g.emit(Event{Kind: EvMove, Player: p, Square: int8(target), Other: int8(from)})
	if target == 0 || target < from {
		g.paySalary(p)
	}
	g.land(p, rentMul, diceMul)
}

func (g *Game) paySalary(p int8) {
	g.p[p].PassedGo = true
	g.transfer(Bank, p, g.rules.GoSalary)
	g.emit(Event{Kind: EvSalary, Player: p, Amount: int64(g.rules.GoSalary)})
}

// land resolves the square a player has reached (7.3), with a card's rent
// multiplier or fresh-dice multiplier (0: none). Whatever needs a decision
// or more steps goes on the task stack.
func (g *Game) land(pl int8, rentMul, diceMul int) {
	if g.landings++; g.landings > maxLandings {
		return
	}
	sq := int(g.p[pl].Pos)
	s := &g.rules.Squares[sq]
	switch s.Kind {
	case KindStreet, KindRailroad, KindUtility:
		o := g.owner[sq]
		if o < 0 {
			g.push(task{kind: taskBuy, player: pl, sq: int8(sq)})
			return
		}
		if o == pl || g.Mortgaged(sq) {
			return // no rent on one's own or a mortgaged property (8.4)
		}
		if diceMul > 0 {
			g.push(task{kind: taskDiceRent, player: pl, sq: int8(sq), rentMul: int8(diceMul)})
			return
		}
		rent := g.Rent(sq, g.RentDice())
		if rentMul > 0 {
			rent *= rentMul
		}
		if int(g.p[pl].Cash) >= rent {
			g.transfer(pl, o, rent)
			g.emit(Event{Kind: EvRent, Player: pl, Other: o, Square: int8(sq), Amount: int64(rent), Reason: ReasonRent})
			return
		}
		g.push(task{kind: taskPay, player: pl, to: o, sq: int8(sq), reason: ReasonRent, amount: int64(rent)})
	case KindAction:
		g.push(task{kind: taskOps, player: pl, sq: int8(sq), deck: -1})
	}
}

// Rent is what landing on an owned square costs with the given dice total
// (sections 2-4): a colour group owned whole doubles the base rent, houses
// and hotels follow the table, railroads count the owner's railroads and
// utilities multiply the dice.
func (g *Game) Rent(sq, diceTotal int) int {
	o := g.owner[sq]
	if o < 0 {
		return 0
	}
	s := &g.rules.Squares[sq]
	switch s.Kind {
	case KindStreet:
		if h := g.houses[sq]; h > 0 {
			return s.Rent[h]
		}
		if g.ownsGroup(o, sq) && (g.rules.MortgagedGroupDoubleRent || g.mortgaged&s.groupMask == 0) {
			return 2 * s.Rent[0]
		}
		return s.Rent[0]
	case KindRailroad:
		m := g.owned[o] & g.rules.railroadMask
		if !g.rules.MortgagedRailroadsCount {
			m &^= g.mortgaged
		}
		return tableAt(g.rules.RailroadRent, popcount(m))
	case KindUtility:
		return diceTotal * tableAt(g.rules.UtilityMultiplier, popcount(g.owned[o]&g.rules.utilityMask))
	}
	return 0
}

func tableAt(t []int, n int) int {
	if n <= 0 {
		return 0
	}
	return t[min(n, len(t))-1]
}

// runOp runs the next command of a DSL program.
func (g *Game) runOp(t *task) {
	var prog []Op
	if t.deck >= 0 {
		prog = g.rules.Decks[t.deck].Cards[t.card].Program
	} else {
		prog = g.rules.Squares[t.sq].Program
	}
	op := &prog[t.pc]
	pl := t.player
	t.pc++
	if int(t.pc) >= len(prog) {
		g.pop() // last command: its follow-ups run on a clean stack top
	}
	switch op.Code {
	case OpAdvanceTo:
		target := op.A
		switch target {
		case targetNearest:
			target = g.nearest(int(g.p[pl].Pos), op.Nearest)
		case targetNext:
			g.advanceToNext(pl, op.Next, op.OrNext, op.RentMul, op.DiceMul)
			return
		}
		g.advanceTo(pl, target, op.RentMul, op.DiceMul)
	case OpTranslate:
		g.moveBy(pl, op.A)
	case OpPay:
		if op.Each {
			g.push(task{kind: taskPay, player: pl, to: each, reason: ReasonCard, amount: int64(op.A)})
		} else {
			g.push(task{kind: taskPay, player: pl, to: g.finesAccount(), reason: ReasonCard, amount: int64(op.A)})
		}
	case OpReceive:
		if !op.Each {
			g.transfer(Bank, pl, op.A)
			g.emit(Event{Kind: EvPay, Player: Bank, Other: pl, Amount: int64(op.A), Reason: ReasonCard})
			break
		}
		// Pushed in reverse so that the others pay in seating order.
		for k := g.n - 1; k >= 1; k-- {
			j := (pl + k) % g.n
			if !g.p[j].Bankrupt {
				g.push(task{kind: taskPay, player: j, to: pl, reason: ReasonCard, amount: int64(op.A)})
			}
		}
	case OpRepairs:
		houses, hotels := 0, 0
		for m := g.owned[pl]; m != 0; m &= m - 1 {
			h := int(g.houses[popLowest(m)])
			if h == 5 {
				hotels++
			} else {
				houses += h
			}
		}
		if amt := houses*op.A + hotels*op.B; amt > 0 {
			g.push(task{kind: taskPay, player: pl, to: g.finesAccount(), reason: ReasonRepairs, amount: int64(amt)})
		}
	case OpGoToJail:
		g.sendToJail(pl)
	case OpKeep:
		// The card was kept when drawn.
	case OpDraw:
		g.drawCard(pl, op.A)
	case OpTax:
		amt := op.A
		if op.B > 0 && g.rules.IncomeTax == IncomeTaxLesser {
			amt = min(amt, g.assets(int(pl))*op.B/100)
		}
		g.push(task{kind: taskPay, player: pl, to: g.finesAccount(), sq: int8(g.p[pl].Pos), reason: ReasonTax, amount: int64(amt)})
	case OpJackpot:
		if g.jackpot > 0 {
			amt := int(g.jackpot)
			g.transfer(Jackpot, pl, amt)
			g.emit(Event{Kind: EvPay, Player: Jackpot, Other: pl, Amount: int64(amt), Reason: ReasonJackpot})
		}
	}
}

// drawCard takes the top card of deck d for p. A kept card leaves the
// deck; any other goes back to the bottom as it is followed (5, 6).
func (g *Game) drawCard(p int8, d int) {
	deck := &g.decks[d]
	if deck.N == 0 {
		return // every card is held: nothing to draw
	}
	c := deck.draw()
	card := &g.rules.Decks[d].Cards[c]
	g.emit(Event{Kind: EvCard, Player: p, Deck: int8(d), Card: int8(c)})
	if card.Keep {
		g.p[p].JailCards |= 1 << card.keepBit
	} else {
		deck.putBottom(c)
	}
	g.push(task{kind: taskOps, player: p, deck: int8(d), card: int8(c)})
}

// advanceToNext advances pl to the next property that is what want says,
// or else what or says (NextNone: nothing else); with neither on the board
// the player stays.
func (g *Game) advanceToNext(pl int8, want, or Next, rentMul, diceMul int) {
	target := g.nextProperty(pl, want)
	if target < 0 && or != NextNone {
		target = g.nextProperty(pl, or)
	}
	if target >= 0 {
		g.advanceTo(pl, target, rentMul, diceMul)
	}
}

// nextProperty returns the first property ahead of player pl that is
// what want says, or -1 when there is none.
func (g *Game) nextProperty(pl int8, want Next) int {
	n := len(g.rules.Squares)
	from := int(g.p[pl].Pos)
	for k := 1; k < n; k++ {
		sq := (from + k) % n
		if !g.rules.Squares[sq].Ownable() {
			continue
		}
		o := g.owner[sq]
		switch want {
		case NextUnowned:
			if o < 0 {
				return sq
			}
		case NextRentOwed:
			if o >= 0 && o != pl && !g.p[o].Bankrupt && !g.Mortgaged(sq) {
				return sq
			}
		}
	}
	return -1
}

// nearest returns the first square of the kind ahead of from.
func (g *Game) nearest(from int, kind SquareKind) int {
	n := len(g.rules.Squares)
	for k := 1; k <= n; k++ {
		sq := (from + k) % n
		if g.rules.Squares[sq].Kind == kind {
			return sq
		}
	}
	return from
}
