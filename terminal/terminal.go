// Package terminal plays a session in the terminal: the bots move at
// their pace, each person's decision is asked with a menu of its legal
// options, and every answer goes through the session, so it is stored
// before the game moves on. It knows the session API and the wire
// format; how the game is told (gopoly's text play log) is given to it.
package terminal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/wire"
)

// Log is how a table tells the game: gopoly play's text log.
type Log interface {
	// Skip takes in events already played, unshown (a resumed game).
	Skip(evs []monopoly.Event)
	// Show tells events, with the game as the viewer sees it after them.
	Show(st State, evs []monopoly.Event)
	// Over tells how the game ended.
	Over(g *monopoly.Game)
	// Bold sets s in bold, when the log is in colour (a prompt).
	Bold(s string) string
	// Money writes an amount of money.
	Money(amount int) string
}

// State is what a Log reads of the game besides its events.
type State interface {
	Cash(p int) int
	Position(p int) int
	InJail(p int) bool
}

// A table is a session played in the terminal: the bots move at their
// pace, and each person's decision is asked with a menu. Everything goes
// through the session, so every answer is stored before the game moves
// on, and quitting at any point loses nothing.
type Table struct {
	s      *session.Session
	driver *table.Drivers // the bots move while this process holds the game's lease
	in     *LineReader
	out    io.Writer
	log    Log
	rules  *monopoly.Rules
	names  []string
	people map[int]string // seat -> token, for the seats played here
	viewer string         // the token whose view the log shows
	note   wire.Notation
	delay  time.Duration
	width  int    // the columns lines wrap to
	seq    int    // the next event to show
	speech string // words to say with the next answer
}

// ErrQuit is a person's request to stop; the session stays stored.
var ErrQuit = errors.New("quit")

// New seats the people of s (every seat of kind human) and starts the
// log that newLog makes with the players' labels by seat ("you", "human"
// or a bot's name). The log shows the game as the one person sees it, or
// as a spectator when several share the terminal, or whole with
// research.
func New(s *session.Session, in *LineReader, out io.Writer, research bool, delay time.Duration, newLog func(labels []string) Log) (*Table, error) {
	setup := s.Setup()
	tokens := s.Tokens()
	t := &Table{s: s, driver: table.NewDrivers(slog.New(slog.DiscardHandler)), in: in, out: out, rules: s.Rules(),
		names: setup.Names(), people: map[int]string{}, delay: delay, width: Width(out)}
	labels := make([]string, len(setup.Seats))
	for i, seat := range setup.Seats {
		labels[i] = seat.Bot
		switch seat.Kind {
		case session.SeatBot:
		case session.SeatHuman:
			labels[i] = "you"
			t.people[i] = tokens.Seats[i]
			t.viewer = tokens.Seats[i]
		default:
			return nil, fmt.Errorf("seat %d plays as %s, which the terminal cannot seat: only people and bots", i+1, seat.Kind)
		}
	}
	if len(t.people) > 1 {
		t.viewer = ""
		for i := range t.people {
			labels[i] = "human"
		}
	}
	if research {
		t.viewer = tokens.Research
	}
	t.note = wire.Notation{Rules: t.rules, Names: t.names}
	t.log = newLog(labels)
	return t, nil
}

// recent is how many events at most a resumed game shows again.
const recent = 12

// Resume goes on with a stored game where it stands: it says how far the
// game is, shows the board (whom the game waits for heads it) and, from
// the start of the turn under way (at most the last dozen), the events
// that led here.
func (t *Table) Resume() error {
	evs, next, err := t.s.History(t.viewer, 0, 0)
	if err != nil {
		return err
	}
	p, err := t.s.Pending(t.viewer)
	if err != nil {
		return err
	}
	all := engineEvents(evs)
	from := max(0, len(all)-recent)
	for i := len(all) - 1; i > from; i-- {
		if all[i].Kind == monopoly.EvTurnStart {
			from = i
			break
		}
	}
	t.log.Skip(all[:from])
	t.seq = next
	st := t.s.Status()
	at := fmt.Sprintf("in round %d", st.Round)
	if st.Over {
		at = "the game is over"
	}
	fmt.Fprintf(t.out, "Resuming after %d answers, %s.\n", st.Entries, at)
	fmt.Fprint(t.out, render.Text(p.View))
	if from < len(all) {
		fmt.Fprintln(t.out, "\nThe last moves:")
	}
	// Each answer's events with the game as it stood after that answer,
	// as they were shown when played: a turn's line has the cash of its
	// start, not of now.
	for i := from; i < len(all); {
		j := i + 1
		for j < len(all) && evs[j].Entry == evs[i].Entry {
			j++
		}
		then, err := t.s.SnapshotAt(t.viewer, evs[i].Entry+1)
		if err != nil {
			return err
		}
		t.log.Show(snapshotState(then), all[i:j])
		i = j
	}
	return nil
}

// show prints the events since the last ones shown.
func (t *Table) show() error {
	evs, next, err := t.s.History(t.viewer, t.seq, 0)
	if err != nil || len(evs) == 0 {
		return err
	}
	t.seq = next
	p, err := t.s.Pending(t.viewer)
	if err != nil {
		return err
	}
	t.log.Show(snapshotState(p.View), engineEvents(evs))
	return nil
}

// engineEvents are the engine's values of a history's events.
func engineEvents(evs []session.Event) []monopoly.Event {
	out := make([]monopoly.Event, len(evs))
	for i, e := range evs {
		out[i] = e.Engine
	}
	return out
}

// snapshotState is a view of the game as the text log reads it.
type snapshotState wire.Snapshot

func (s snapshotState) Cash(p int) int     { return s.Players[p].Cash }
func (s snapshotState) Position(p int) int { return s.Players[p].Position }
func (s snapshotState) InJail(p int) bool  { return s.Players[p].InJail }

// Play runs the game until it is over or a person quits (ErrQuit), the
// bots one answer at a time with the delay between them. While another
// process drives the game's bots (a server's pacer on the same store),
// it follows that process's moves instead of making them too.
func (t *Table) Play(ctx context.Context) error {
	defer t.driver.Close()
	for {
		if err := t.show(); err != nil {
			return err
		}
		st := t.s.Status()
		switch {
		case st.Over:
			t.log.Over(t.s.Game())
			return nil
		case st.Waiting >= 0:
			tok, ok := t.people[st.Waiting]
			if !ok {
				return fmt.Errorf("the game waits for seat %d, which nobody here plays", st.Waiting+1)
			}
			if err := t.ask(ctx, st.Waiting, tok); err != nil {
				return err
			}
			continue
		}
		if _, err := t.driver.Advance(ctx, t.s, 1); err != nil {
			if !errors.Is(err, table.ErrDrivenElsewhere) {
				return err
			}
			if err := sleep(ctx, table.LeaseTTL/5); err != nil {
				return err
			}
			if err := t.s.Sync(ctx); err != nil {
				return err
			}
			continue
		}
		if err := sleep(ctx, t.delay); err != nil {
			return err
		}
	}
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ask puts seat's decision to its person until an answer is accepted.
func (t *Table) ask(ctx context.Context, seat int, tok string) error {
	p, err := t.s.Pending(tok)
	if err != nil {
		return err
	}
	t.menu(p, seat)
	for {
		fmt.Fprint(t.out, t.log.Bold(t.names[seat]+"> "))
		line, err := t.in.read(ctx)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(t.out)
			return ErrQuit
		}
		if err != nil {
			return err
		}
		line = strings.TrimSpace(line)
		word, rest, _ := strings.Cut(line, " ")
		var text string
		switch strings.ToLower(word) {
		case "":
			continue
		case "q", "quit", "exit":
			return ErrQuit
		case "?", "h", "help":
			t.help()
			continue
		case "m", "menu":
			t.menu(p, seat)
			continue
		case "b", "board":
			fmt.Fprint(t.out, render.Text(p.View))
			continue
		case "o", "owners":
			g := t.s.Game()
			t.say(strings.TrimSuffix(render.Ownership(p.View, func(sq int) int { return g.Rent(sq, 1) }), "\n"), "  ", "      ")
			continue
		case "say":
			t.speech = strings.TrimSpace(rest)
			if t.speech == "" {
				t.say("Say what? Type say and your words, such as: say good luck all", "  ", "  ")
				continue
			}
			t.say(fmt.Sprintf("(you will say %q with your next move)", t.speech), "  ", "  ")
			continue
		case "t", "trade":
			if p.Options == nil || p.Options.Trade == nil {
				fmt.Fprintln(t.out, "  no trade can be proposed now")
				continue
			}
			if text, err = t.tradeBuilder(ctx, seat, p.View, p.Options.Trade); err != nil {
				return err
			}
			if text == "" {
				continue
			}
		default:
			text = line
			if n, err := strconv.Atoi(line); err == nil {
				if n < 1 || n > len(p.Options.Notation) {
					t.say(fmt.Sprintf("There is no option %d: choose 1 to %d, or type a move (? for help).", n, len(p.Options.Notation)), "  ", "  ")
					continue
				}
				text = p.Options.Notation[n-1]
			}
		}
		a, err := t.note.Parse(seat, typed(text))
		if err != nil {
			t.say(render.InputError(err), "  ", "  ")
			continue
		}
		_, err = t.s.Submit(ctx, tok, agent.Answer{Action: a, Speech: t.speech}, session.At(p.Entries), session.Hold())
		var refused *session.Refused
		if errors.As(err, &refused) {
			t.say("Not allowed: "+render.Refusal(refused.Refusal, p.Decision, t.names), "  ", "  ")
			continue
		}
		if err != nil {
			return err
		}
		t.speech = ""
		return nil
	}
}

// menu shows the decision and its options, numbered, in plain words.
func (t *Table) menu(p session.Pending, seat int) {
	me := p.View.Players[seat]
	where := "on " + me.PositionName
	if me.InJail {
		where = "in jail"
	}
	fmt.Fprintf(t.out, "\n  %s: %s, %s\n", t.names[seat], t.log.Money(me.Cash), where)
	t.say(render.DecisionIn(p.View, t.names), "  ", "  ")
	o := p.Options
	for i, label := range render.Labels(t.rules, p.View, *o) {
		t.say(label, fmt.Sprintf("  %2d) ", i+1), "      ")
	}
	if o.Bid != nil {
		t.say(fmt.Sprintf("bid N: any amount from $%d to $%d", o.Bid.Min, o.Bid.Max), "      ", "      ")
	}
	if o.Accept != nil {
		t.say(fmt.Sprintf("accept N: %s (from $%d to $%d)", o.Accept.Meaning, o.Accept.Min, o.Accept.Max), "      ", "        ")
	}
	if tr := o.Trade; tr != nil && (tr.Kind == monopoly.ActCounterTrade || tr.ProposalsLeft > 0) {
		what := "propose a trade"
		if tr.Kind == monopoly.ActCounterTrade {
			what = "make a counter-offer"
		}
		t.say(what+", step by step", "   t) ", "      ")
	}
	t.say("b) board   o) owners   say WORDS   ? help   q) quit (the game is saved)", "   ", "   ")
}

// say writes text wrapped to the terminal's width, its first line
// after first and the others after rest.
func (t *Table) say(text, first, rest string) {
	fmt.Fprintln(t.out, render.Wrap(text, t.width, first, rest))
}

func (t *Table) help() {
	fmt.Fprint(t.out, `  Answer with an option's number, or type a move:
    roll, end (go on)      buy     auction     bid 120     pass
    build Boardwalk        sell Boardwalk      mortgage "St. Charles Place"
    unmortgage Boardwalk   pay fine     use card     roll doubles
    propose Cat give Boardwalk +$100 get "Park Place"    accept    reject
    counter Cat give ... get ...      keep      lift mortgage     bankrupt
    move Boardwalk         (after the speed die's Bus, or triples)
  Square names may be shortened ("boardw"). Other commands:
    t, trade      build a trade offer step by step
    b, board      the board, the players and the bank
    o, owners     who owns what, with houses and rents
    m, menu       the options again
    say WORDS     say something at the table with your next move
    q, quit       stop here: the game is saved; gopoly play --resume ID goes on
`)
}

// tradeBuilder asks for a trade offer part by part and returns it in the
// notation, or "" when the person gives up.
func (t *Table) tradeBuilder(ctx context.Context, seat int, view wire.Snapshot, tr *wire.TradeOptions) (string, error) {
	ask := func(prompt string) (string, error) {
		fmt.Fprint(t.out, "  "+prompt+" ")
		line, err := t.in.read(ctx)
		if errors.Is(err, io.EOF) {
			return "", ErrQuit
		}
		return strings.TrimSpace(line), err
	}
	fmt.Fprintln(t.out, "  Trade (empty answer: none; \"x\": give up)")
	var partner *wire.TradePartner
	for partner == nil {
		for i, p := range tr.Partners {
			fmt.Fprintf(t.out, "    %d) %s\n", i+1, t.names[p.Seat])
		}
		line, err := ask("with whom?")
		if err != nil || line == "x" {
			return "", err
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(tr.Partners) {
			partner = &tr.Partners[n-1]
			continue
		}
		t.say(fmt.Sprintf("%q is not one of them: answer with a number from 1 to %d, or x to give up.", line, len(tr.Partners)), "  ", "  ")
	}
	// side asks what one party puts in: squares from a list, cash, cards.
	side := func(who string, s wire.TradeSide, cashWord string) (string, bool, error) {
		var items []string
		if len(s.Squares) > 0 {
			for i, name := range s.SquareNames {
				fmt.Fprintf(t.out, "    %d) %s\n", i+1, name)
			}
			for {
				line, err := ask(who + " squares (numbers):")
				if err != nil || line == "x" {
					return "", false, err
				}
				picked, ok := pick(line, len(s.Squares))
				if !ok {
					t.say(fmt.Sprintf("%q is not a list of squares: give numbers from 1 to %d, separated by spaces or commas (nothing for none, x to give up).", line, len(s.Squares)), "  ", "  ")
					continue
				}
				for _, i := range picked {
					items = append(items, quoteName(s.SquareNames[i]))
				}
				break
			}
		}
		if s.MaxCash > 0 {
			for {
				line, err := ask(fmt.Sprintf("%s cash, $0 to $%d:", cashWord, s.MaxCash))
				if err != nil || line == "x" {
					return "", false, err
				}
				n, err := strconv.Atoi(strings.TrimPrefix(line, "$"))
				if line == "" {
					n, err = 0, nil
				}
				if err != nil || n < 0 || n > s.MaxCash {
					why := "is not a whole number of dollars"
					if err == nil {
						why = "is more than there is"
					}
					t.say(fmt.Sprintf("%q %s: give a whole number from 0 to %d.", line, why, s.MaxCash), "  ", "  ")
					continue
				}
				if n > 0 {
					items = append(items, fmt.Sprintf("$%d", n))
				}
				break
			}
		}
		for _, deck := range s.JailCards {
			line, err := ask(fmt.Sprintf("%s the Get Out of Jail Free card (%s)? [y/N]", who, render.DeckTitle(deck)))
			if err != nil || line == "x" {
				return "", false, err
			}
			if strings.HasPrefix(strings.ToLower(line), "y") {
				items = append(items, "jail card "+deck)
			}
		}
		return strings.Join(items, " "), true, nil
	}
	giveCash, getCash := "you give:", t.names[partner.Seat]+" gives:"
	if tr.Sealed {
		t.say("Sealed deal: the cash you name is a limit the other side does not see; if the two limits meet, the cash midway between them changes hands.", "  ", "  ")
		giveCash, getCash = "sealed: the most you pay,", "sealed: the least you take,"
	}
	give, ok, err := side("you give:", tr.Give, giveCash)
	if err != nil || !ok {
		return "", err
	}
	get, ok, err := side("you get:", partner.Get, getCash)
	if err != nil || !ok {
		return "", err
	}
	word := "propose"
	if tr.Kind == monopoly.ActCounterTrade {
		word = "counter"
	}
	text := word + " " + quoteName(t.names[partner.Seat])
	if give != "" {
		text += " give " + give
	}
	if get != "" {
		text += " get " + get
	}
	// The offer is read back in words, as the menu would list it.
	offer := text
	if a, err := t.note.Parse(seat, typed(text)); err == nil {
		offer = render.Label(t.rules, view, a)
	}
	line, err := ask(fmt.Sprintf("%s. Send it? [Y/n]", offer))
	if err != nil || strings.HasPrefix(strings.ToLower(line), "n") || line == "x" {
		return "", err
	}
	return text, nil
}

// quoteName quotes a name for the notation when it has spaces.
func quoteName(s string) string {
	if strings.ContainsAny(s, " \t\"") {
		return strconv.Quote(s)
	}
	return s
}

// pick reads a list of choices numbered from 1 to n ("" picks none) and
// returns them from 0, or false if one is not in range.
func pick(line string, n int) ([]int, bool) {
	var out []int
	for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 || k > n {
			return nil, false
		}
		out = append(out, k-1)
	}
	return out, true
}

// LineReader reads lines in a goroutine of its own, so that a person's
// answer can be waited for together with Ctrl-C.
type LineReader struct {
	lines chan string
	err   error     // the read error, once lines is closed
	echo  io.Writer // where lines read are written back, when the input is not a terminal
}

// NewLineReader reads r; when r is not a terminal, each line read is
// echoed to echo, so that a scripted game reads as one played by hand.
func NewLineReader(r io.Reader, echo io.Writer) *LineReader {
	l := &LineReader{lines: make(chan string)}
	if f, ok := r.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		l.echo = echo
	}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
		l.err = sc.Err()
		close(l.lines)
	}()
	return l
}

// read returns the next line, io.EOF at the end of the input, or ctx's
// error when it ends first.
func (l *LineReader) read(ctx context.Context) (string, error) {
	select {
	case line, ok := <-l.lines:
		if !ok {
			if l.err != nil {
				return "", l.err
			}
			return "", io.EOF
		}
		if l.echo != nil {
			fmt.Fprintln(l.echo, line)
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
