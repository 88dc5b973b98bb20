package conformance

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/monopoly"
)

// maxSteps bounds a scenario run: a scenario that never stops is faulty.
const maxSteps = 100000

// Result is the outcome of one scenario.
type Result struct {
	File string
	Name string
	Err  error // nil: passed
}

// Run plays the scenario and checks its expectations; a non-nil error says
// what differed (or why the scenario is faulty).
func (s *Scenario) Run() error {
	r := &runner{s: s, turns: make([]int, len(s.Players)), countered: make([]int, len(s.Players)), lastTurn: -1}
	return r.run()
}

type runner struct {
	s        *Scenario
	g        *monopoly.Game
	turns    []int // each player's own turn count
	lastTurn int
	draws    [monopoly.MaxDecks]int
	faulty   error

	countered []int // counter-offers each player has made from its policy
	traded    int   // trades carried out
}

func (r *runner) seat(name string) int {
	for i, p := range r.s.Players {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func (r *runner) setup() error {
	// Parse has checked that the engine takes the position.
	g, err := monopoly.NewFromSetup(r.s.rules, r.s.setup())
	if err != nil {
		return fmt.Errorf("faulty scenario: %v", err)
	}
	g.ScriptDice(r.s.dice)
	g.ScriptSpeedDie(r.s.speed)
	g.Record(true)
	r.g = g
	return nil
}

func (r *runner) run() error {
	if err := r.setup(); err != nil {
		return err
	}
	// Events up to the first decision (none can draw before a roll).
	r.g.TakeEvents()
	for step := 0; ; step++ {
		if step > maxSteps {
			return fmt.Errorf("faulty scenario: still running after %d decisions", maxSteps)
		}
		if r.faulty != nil {
			return r.faulty
		}
		if r.g.Over() || r.g.NeedsDice() {
			break
		}
		stop, err := r.decide()
		if err != nil {
			return err
		}
		if stop {
			break
		}
	}
	if r.faulty != nil {
		return r.faulty
	}
	if err := r.g.ScriptError(); err != nil {
		return fmt.Errorf("faulty scenario: %v", err)
	}
	return r.check()
}

// apply applies a and watches the events for card draws beyond the listed
// deck tops, which would make the outcome depend on the shuffle.
func (r *runner) apply(a monopoly.Action) error {
	err := r.g.Apply(a)
	for _, e := range r.g.TakeEvents() {
		if e.Kind == monopoly.EvTradeAccepted {
			r.traded++
		}
		if e.Kind != monopoly.EvCard {
			continue
		}
		r.draws[e.Deck]++
		listed := 0
		for _, d := range r.s.decks {
			if d.deck == int(e.Deck) {
				listed = len(d.cards)
			}
		}
		if r.draws[e.Deck] > listed && r.faulty == nil {
			r.faulty = fmt.Errorf("faulty scenario: draws card %d from %s but only %d listed in decks", r.draws[e.Deck],
				r.s.rules.Decks[e.Deck].Name, listed)
		}
	}
	return err
}

// decide answers the pending decision from the policies. stop is true
// when the engine needs dice that the scenario does not give.
func (r *runner) decide() (stop bool, err error) {
	g := r.g
	d := g.Pending()
	pol := &r.s.Players[d.Player].Policy
	act := monopoly.Action{Player: d.Player}
	switch d.Kind {
	case monopoly.DecisionManage:
		if g.Phase() == monopoly.PhaseBeforeRoll && g.Turn() != r.lastTurn {
			r.lastTurn = g.Turn()
			r.turns[d.Player]++
			if err := r.scripted(d.Player, "before_roll"); err != nil {
				return false, err
			}
		} else if g.Phase() == monopoly.PhaseAfterRoll && !g.RollsAgain() {
			if err := r.scripted(d.Player, "after_roll"); err != nil {
				return false, err
			}
		}
		if g.Over() || g.Pending().Kind != monopoly.DecisionManage {
			return false, nil
		}
		act.Kind = monopoly.ActContinue
	case monopoly.DecisionJail:
		act.Kind = monopoly.ActRollForDoubles
		switch pol.Jail {
		case "pay":
			if g.Cash(d.Player) >= r.s.rules.JailFine {
				act.Kind = monopoly.ActPayJailFine
			}
		case "card":
			if g.JailCardCount(d.Player) > 0 {
				act.Kind, act.Arg = monopoly.ActUseJailCard, -1
			}
		}
	case monopoly.DecisionBuy:
		act.Kind = monopoly.ActDecline
		if r.wantsToBuy(pol, d.Square) && g.Funds(d.Player) >= d.Amount {
			act.Kind = monopoly.ActBuy
		}
	case monopoly.DecisionBid:
		act.Kind = monopoly.ActDropOut
		if next := d.Amount + 1; next <= r.maxBid(pol, d.Square) && next <= g.Funds(d.Player) {
			act.Kind, act.Arg = monopoly.ActBid, next
		}
	case monopoly.DecisionTradeResponse:
		act.Kind = monopoly.ActRejectTrade
		switch c := r.countered[d.Player]; {
		case c < len(pol.CounterOffers) && g.TradeRound() < r.s.rules.CounterOffers:
			r.countered[d.Player]++
			o := r.sides(pol.CounterOffers[c].Give, pol.CounterOffers[c].Get)
			o.To = int8(g.Counterparty())
			act.Kind, act.Offer = monopoly.ActCounterTrade, &o
		case pol.AcceptTrades:
			act.Kind = monopoly.ActAcceptTrade
			if l := pol.SealedLimit; l != nil && l.MinimumCashAccepted != nil {
				act.Arg = *l.MinimumCashAccepted
			} else if l != nil {
				act.Arg = -*l.MaximumCashOffered
			}
		}
	case monopoly.DecisionMortgagedTransfer:
		act.Kind = monopoly.ActKeepMortgaged
		if pol.MortgagedTransfer == "unmortgage" &&
			g.Cash(d.Player) >= d.Amount+r.s.rules.Squares[d.Square].Mortgage {
			act.Kind = monopoly.ActLiftMortgage
		}
	case monopoly.DecisionRaiseCash:
		act = r.raiseCash(d.Player)
	case monopoly.DecisionMovement:
		act.Kind, act.Arg = monopoly.ActMove, r.movement(pol, d)
		if act.Arg < 0 {
			return false, fmt.Errorf("faulty scenario: %s rolled triples but its policy names no triples square", r.s.Players[d.Player].Name)
		}
	}
	if err := r.apply(act); err != nil {
		if errors.Is(err, monopoly.ErrNoDice) {
			if at := g.ScriptPos(); at < len(r.s.dice) {
				return false, fmt.Errorf("faulty scenario: dice[%d]: the roll throws the speed die (speed_die: true, and the player has passed GO): give its face as a third item", at)
			}
			return true, nil
		}
		return false, fmt.Errorf("engine refused the scripted %s: %v", act.Kind, err)
	}
	return false, nil
}

// movement is where a scripted player moves on the speed die's Bus (its
// bus policy: one white die, the other, or both) or on triples (its
// triples square; -1 when it names none).
func (r *runner) movement(p *policySpec, d monopoly.Decision) int {
	if d.Amount == 0 {
		return p.triples
	}
	d1, d2 := r.g.LastRoll()
	to := monopoly.BusSquares(d.Square, d1, d2, len(r.s.rules.Squares))
	switch p.Bus {
	case "die1":
		return to[0]
	case "die2":
		return to[1]
	}
	return to[2]
}

// raiseCash is the fixed order of docs/conformance.md: sell a building from the
// street with the most (ties: highest position), then mortgage the lowest
// unmortgaged property, else go bankrupt.
func (r *runner) raiseCash(p int) monopoly.Action {
	g := r.g
	best, most := -1, 0
	for sq := range r.s.rules.Squares {
		if g.Owner(sq) == p && g.Houses(sq) > 0 && g.Houses(sq) >= most {
			best, most = sq, g.Houses(sq)
		}
	}
	if best >= 0 {
		return monopoly.Action{Kind: monopoly.ActSellBuilding, Player: p, Arg: best}
	}
	for sq := range r.s.rules.Squares {
		if g.Owner(sq) == p && !g.Mortgaged(sq) {
			return monopoly.Action{Kind: monopoly.ActMortgage, Player: p, Arg: sq}
		}
	}
	return monopoly.Action{Kind: monopoly.ActDeclareBankruptcy, Player: p}
}

func (r *runner) wantsToBuy(p *policySpec, sq int) bool {
	if p.Buy == nil {
		return false
	}
	if p.Buy.Kind == yaml.ScalarNode {
		return p.Buy.Value == "always"
	}
	for _, n := range p.Buy.Content {
		if i, _ := r.s.property(n.Value); i == sq {
			return true
		}
	}
	return false
}

func (r *runner) maxBid(p *policySpec, sq int) int {
	if p.MaxBid == nil {
		return 0
	}
	if p.MaxBid.Kind == yaml.ScalarNode {
		n, _ := strconv.Atoi(p.MaxBid.Value)
		return n
	}
	for i := 0; i+1 < len(p.MaxBid.Content); i += 2 {
		if j, _ := r.s.property(p.MaxBid.Content[i].Value); j == sq {
			n, _ := strconv.Atoi(p.MaxBid.Content[i+1].Value)
			return n
		}
	}
	return 0
}

// scripted carries out the player's actions for this turn and moment.
func (r *runner) scripted(p int, when string) error {
	pol := &r.s.Players[p].Policy
	for _, b := range pol.Actions {
		if b.Turn != r.turns[p] || b.When != when {
			continue
		}
		for _, d := range b.Do {
			if err := r.doItem(p, d); err != nil {
				return fmt.Errorf("%s turn %d %s, line %d: %v", r.s.Players[p].Name, b.Turn, when, d.line, err)
			}
			if r.g.Over() {
				return nil
			}
		}
	}
	return nil
}

func (r *runner) doItem(p int, d doItem) error {
	g := r.g
	a := monopoly.Action{Player: p}
	switch {
	case d.Build != nil:
		a.Kind, a.Arg = monopoly.ActBuild, r.mustSquare(*d.Build)
	case d.SellBuilding != nil:
		a.Kind, a.Arg = monopoly.ActSellBuilding, r.mustSquare(*d.SellBuilding)
	case d.Mortgage != nil:
		a.Kind, a.Arg = monopoly.ActMortgage, r.mustSquare(*d.Mortgage)
	case d.Unmortgage != nil:
		a.Kind, a.Arg = monopoly.ActUnmortgage, r.mustSquare(*d.Unmortgage)
	case d.Trade != nil:
		o := r.offer(p, d.Trade)
		a.Kind, a.Offer = monopoly.ActProposeTrade, &o
	}
	before := g.Clone()
	err := r.apply(a)
	if d.Expect == "rejected" {
		if err == nil {
			return fmt.Errorf("%s was accepted, want rejected", a.Kind)
		}
		if !g.SameState(before) {
			return fmt.Errorf("%s was refused (%v) but the state changed", a.Kind, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s was rejected: %v", a.Kind, err)
	}
	if a.Kind != monopoly.ActProposeTrade {
		return nil
	}
	// The target answers (perhaps with counters); then any follow-up
	// decisions settle before the proposer's next action.
	traded := r.traded
	for !g.Over() && !g.NeedsDice() {
		pd := g.Pending()
		if pd.Kind == monopoly.DecisionManage && pd.Player == p {
			break
		}
		if _, err := r.decide(); err != nil {
			return err
		}
		if r.faulty != nil {
			return r.faulty
		}
	}
	switch accepted := r.traded > traded; {
	case d.Expect == "declined" && accepted:
		return fmt.Errorf("trade accepted, want declined")
	case d.Expect != "declined" && !accepted:
		return fmt.Errorf("trade declined, want accepted")
	}
	return nil
}

func (r *runner) mustSquare(name string) int {
	sq, _ := r.s.property(name)
	return sq
}

func (r *runner) offer(p int, t *tradeSpec) monopoly.TradeOffer {
	o := r.sides(t.Give, t.Get)
	o.From, o.To = int8(p), int8(r.seat(t.With))
	return o
}

// sides builds what a trade gives and gets (under sealed deals the cash
// is the proposer's limit).
func (r *runner) sides(give, get sideSpec) monopoly.TradeOffer {
	var o monopoly.TradeOffer
	side := func(s sideSpec) (sq uint64, cash int64, cards uint8) {
		for _, n := range s.Properties {
			sq |= 1 << r.mustSquare(n)
		}
		for _, dn := range s.JailCards {
			d, _ := r.s.rules.DeckIndex(dn)
			b, _ := r.s.rules.JailCardBit(d)
			cards |= b
		}
		return sq, int64(s.Cash), cards
	}
	o.GiveSquares, o.GiveCash, o.GiveCards = side(give)
	o.GetSquares, o.GetCash, o.GetCards = side(get)
	return o
}

// check compares the final state with the expectations.
func (r *runner) check() error {
	g, s, rules := r.g, r.s, r.s.rules
	var diffs []string
	want := func(field string, w, got any) {
		if fmt.Sprint(w) != fmt.Sprint(got) {
			diffs = append(diffs, fmt.Sprintf("%s: want %v, got %v", field, w, got))
		}
	}
	names := make([]string, 0, len(s.Expect.Players))
	for n := range s.Expect.Players {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return r.seat(a) - r.seat(b) })
	for _, n := range names {
		e, p, f := s.Expect.Players[n], r.seat(n), "players."+n
		if e.Cash != nil {
			want(f+".cash", *e.Cash, g.Cash(p))
		}
		if e.Position != nil {
			want(f+".position", *e.Position, g.Position(p))
		}
		if e.InJail != nil {
			want(f+".in_jail", *e.InJail, g.InJail(p))
		}
		if e.JailTurns != nil {
			want(f+".jail_turns", *e.JailTurns, g.JailTurns(p))
		}
		if e.PassedGo != nil {
			want(f+".passed_go", *e.PassedGo, g.PassedGo(p))
		}
		if e.Bankrupt != nil {
			want(f+".bankrupt", *e.Bankrupt, g.Bankrupt(p))
		}
		if e.JailCards != nil {
			var got []string
			for _, d := range g.JailCards(p) {
				got = append(got, rules.Decks[d].Name)
			}
			w := slices.Clone(*e.JailCards)
			slices.Sort(w)
			slices.Sort(got)
			want(f+".jail_cards", "["+strings.Join(w, " ")+"]", "["+strings.Join(got, " ")+"]")
		}
	}
	for _, pe := range s.Expect.props {
		f := "properties." + pe.name
		if pe.spec.Owner != nil {
			w := "null"
			if pe.spec.Owner.Tag != "!!null" {
				w = pe.spec.Owner.Value
			}
			want(f+".owner", w, r.name(g.Owner(pe.square)))
		}
		if pe.spec.Houses != nil {
			want(f+".houses", *pe.spec.Houses, g.Houses(pe.square))
		}
		if pe.spec.Mortgaged != nil {
			want(f+".mortgaged", *pe.spec.Mortgaged, g.Mortgaged(pe.square))
		}
	}
	if b := s.Expect.Bank; b != nil {
		if b.Houses != nil {
			want("bank.houses", *b.Houses, g.HouseSupply())
		}
		if b.Hotels != nil {
			want("bank.hotels", *b.Hotels, g.HotelSupply())
		}
	}
	if s.Expect.Turn != nil {
		if g.Over() {
			diffs = append(diffs, fmt.Sprintf("turn: want %s, got the game over", *s.Expect.Turn))
		} else {
			want("turn", *s.Expect.Turn, r.name(g.Current()))
		}
	}
	if s.Expect.Winner != nil {
		if !g.Over() {
			diffs = append(diffs, fmt.Sprintf("winner: want %s, got the game still going", *s.Expect.Winner))
		} else {
			want("winner", *s.Expect.Winner, r.name(g.Winner()))
		}
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

func (r *runner) name(seat int) string {
	if seat < 0 {
		return "null"
	}
	return r.s.Players[seat].Name
}

// Files expands paths (files, or directories searched recursively) to the
// scenario files they hold, sorted within each directory.
func Files(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("conformance: %w", err)
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("conformance: %w", err)
		}
	}
	return files, nil
}

// RunPaths runs every scenario under paths, writing a line per scenario
// and the closing "N passed, N failed" line to w. It returns the number
// failed and whether any file could not be read or parsed.
func RunPaths(w io.Writer, paths []string) (failed int, badInput bool) {
	files, err := Files(paths)
	if err != nil {
		fmt.Fprintln(w, "ERROR", err)
		fmt.Fprintln(w, "0 passed, 1 failed")
		return 1, true
	}
	passed := 0
	seen := map[string]string{}
	for _, f := range files {
		s, err := ParseFile(f)
		if err == nil {
			if prev, dup := seen[s.Name]; dup {
				err = fmt.Errorf("%s: name: %q already used by %s", f, s.Name, prev)
			} else {
				seen[s.Name] = f
			}
		}
		if err != nil {
			fmt.Fprintln(w, "ERROR", err)
			failed++
			badInput = true
			continue
		}
		if err := s.Run(); err != nil {
			fmt.Fprintf(w, "FAIL %s: %v\n", s.Name, err)
			failed++
			continue
		}
		fmt.Fprintf(w, "PASS %s\n", s.Name)
		passed++
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return failed, badInput
}
