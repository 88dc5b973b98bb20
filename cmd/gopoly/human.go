package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	service "github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/wire"
)

// A table is a session played in the terminal: the bots move at their
// pace, and each person's decision is asked with a menu. Everything goes
// through the session, so every answer is stored before the game moves
// on, and quitting at any point loses nothing.
type table struct {
	s      *session.Session
	in     *lineReader
	out    io.Writer
	log    *textPlayLog
	rules  *monopoly.Rules
	names  []string
	people map[int]string // seat -> token, for the seats played here
	viewer string         // the token whose view the log shows
	note   wire.Notation
	delay  time.Duration
	seq    int // the next event to show
	rounds *roundKeeper
	speech string // words to say with the next answer
}

// errQuit is a person's request to stop; the session stays stored.
var errQuit = errors.New("quit")

// newTable seats the people of s (every seat of kind human) and starts
// the log. The log shows the game as the one person sees it, or as a
// spectator when several share the terminal, or whole with research.
func newTable(s *session.Session, in *lineReader, out io.Writer, color bool, research bool, delay time.Duration) (*table, error) {
	setup := s.Setup()
	tokens := s.Tokens()
	t := &table{s: s, in: in, out: out, rules: s.Rules(), names: setup.Names(), people: map[int]string{},
		delay: delay, rounds: newRoundKeeper(len(setup.Seats))}
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
	t.log = newTextPlayLog(out, t.rules, t.names, labels, setup.Seed, color)
	return t, nil
}

// skip takes in the events played so far without showing them, so that
// a resumed game's log goes on where the game stands.
func (t *table) skip() error {
	evs, next, err := t.s.History(t.viewer, 0, 0)
	if err != nil {
		return err
	}
	t.rounds.note(engineEvents(evs))
	t.seq = next
	t.log.round = t.rounds.round
	return nil
}

// show prints the events since the last ones shown.
func (t *table) show() error {
	evs, next, err := t.s.History(t.viewer, t.seq, 0)
	if err != nil || len(evs) == 0 {
		return err
	}
	t.seq = next
	p, err := t.s.Pending(t.viewer)
	if err != nil {
		return err
	}
	engine := engineEvents(evs)
	t.log.events(snapshotState(p.View), engine, t.rounds.note(engine))
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

// play runs the game until it is over or a person quits (errQuit), the
// bots one answer at a time with the delay between them.
func (t *table) play(ctx context.Context) error {
	for {
		if err := t.show(); err != nil {
			return err
		}
		st := t.s.Status()
		switch {
		case st.Over:
			t.log.standings(standings(t.s.Game(), t.names, t.log.labels, t.s.Setup().Seed, t.rounds.outRound))
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
		if _, err := t.s.Advance(ctx, 1); err != nil {
			return err
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
func (t *table) ask(ctx context.Context, seat int, tok string) error {
	p, err := t.s.Pending(tok)
	if err != nil {
		return err
	}
	t.menu(p, seat)
	for {
		fmt.Fprint(t.out, t.log.paint(ansiBold, t.names[seat]+"> "))
		line, err := t.in.read(ctx)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(t.out)
			return errQuit
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
			return errQuit
		case "?", "h", "help":
			t.help()
			continue
		case "m", "menu":
			t.menu(p, seat)
			continue
		case "b", "board":
			fmt.Fprint(t.out, p.View.Text())
			continue
		case "say":
			t.speech = strings.TrimSpace(rest)
			fmt.Fprintf(t.out, "  (you will say %q with your next move)\n", t.speech)
			continue
		case "t", "trade":
			if p.Options == nil || p.Options.Trade == nil {
				fmt.Fprintln(t.out, "  no trade can be proposed now")
				continue
			}
			if text, err = t.tradeBuilder(ctx, seat, p.Options.Trade); err != nil {
				return err
			}
			if text == "" {
				continue
			}
		default:
			text = line
			if n, err := strconv.Atoi(line); err == nil {
				if n < 1 || n > len(p.Options.Notation) {
					fmt.Fprintf(t.out, "  no option %d: choose 1 to %d, or type a move (? for help)\n", n, len(p.Options.Notation))
					continue
				}
				text = p.Options.Notation[n-1]
			}
		}
		a, err := t.note.Parse(seat, text)
		if err != nil {
			fmt.Fprintf(t.out, "  %v\n", err)
			continue
		}
		_, err = t.s.Submit(ctx, tok, agent.Answer{Action: a, Speech: t.speech}, session.At(p.Entries), session.Hold())
		var refused *session.Refused
		if errors.As(err, &refused) {
			fmt.Fprintf(t.out, "  refused (%s): %s\n", refused.Code, refused.Message)
			continue
		}
		if err != nil {
			return err
		}
		t.speech = ""
		return nil
	}
}

// menu shows the decision and its options, numbered.
func (t *table) menu(p session.Pending, seat int) {
	me := p.View.Players[seat]
	where := "on " + me.PositionName
	if me.InJail {
		where = "in jail"
	}
	fmt.Fprintf(t.out, "\n  %s: %s, %s\n  %s\n", t.log.names[seat], t.log.money(me.Cash), where, p.Decision.Text(t.names))
	o := p.Options
	for i, text := range o.Notation {
		fmt.Fprintf(t.out, "  %2d) %s%s\n", i+1, text, t.cost(text, seat, p.View))
	}
	if o.Bid != nil {
		fmt.Fprintf(t.out, "      bid N: any amount from $%d to $%d\n", o.Bid.Min, o.Bid.Max)
	}
	if o.Accept != nil {
		fmt.Fprintf(t.out, "      accept N: %s (from $%d to $%d)\n", o.Accept.Meaning, o.Accept.Min, o.Accept.Max)
	}
	if tr := o.Trade; tr != nil && (tr.Kind == monopoly.ActCounterTrade || tr.ProposalsLeft > 0) {
		what := "propose a trade"
		if tr.Kind == monopoly.ActCounterTrade {
			what = "make a counter-offer"
		}
		fmt.Fprintf(t.out, "   t) %s, step by step\n", what)
	}
	fmt.Fprintln(t.out, "   b) board   say WORDS   ? help   q) quit (the game is saved)")
}

// cost adds what an option costs or brings, from the rules, to its line;
// for a move, who owns the square it goes to.
func (t *table) cost(text string, seat int, view wire.Snapshot) string {
	a, err := t.note.Parse(seat, text)
	if err != nil {
		return ""
	}
	r := t.rules
	switch a.Kind {
	case monopoly.ActBuild:
		return fmt.Sprintf("  (costs $%d)", r.HouseCost(a.Arg))
	case monopoly.ActSellBuilding:
		return fmt.Sprintf("  (brings $%d)", r.BuildingSalePrice(a.Arg))
	case monopoly.ActMortgage:
		return fmt.Sprintf("  (brings $%d)", r.Squares[a.Arg].Mortgage)
	case monopoly.ActUnmortgage:
		return fmt.Sprintf("  (costs $%d)", r.UnmortgageCost(a.Arg))
	case monopoly.ActPayJailFine:
		return fmt.Sprintf("  ($%d)", r.JailFine)
	case monopoly.ActMove:
		if a.Arg >= len(view.Board) || view.Board[a.Arg].Price == 0 {
			return ""
		}
		switch sq := view.Board[a.Arg]; {
		case sq.Owner < 0:
			return fmt.Sprintf("  (unowned, $%d)", sq.Price)
		case sq.Owner == seat:
			return "  (yours)"
		case sq.Mortgaged:
			return fmt.Sprintf("  (%s's, mortgaged)", t.log.names[sq.Owner])
		default:
			return fmt.Sprintf("  (%s's)", t.log.names[sq.Owner])
		}
	}
	return ""
}

func (t *table) help() {
	fmt.Fprint(t.out, `  Answer with an option's number, or type a move:
    continue (roll, end)     buy     auction     bid 120     pass
    build Boardwalk          sell Boardwalk      mortgage "St. Charles Place"
    unmortgage Boardwalk     pay_fine     use_card     roll_doubles
    propose Cat give Boardwalk +$100 get "Park Place"    accept    reject
    counter Cat give ... get ...      keep      lift_mortgage     bankrupt
    move Boardwalk           (after the speed die's Bus, or triples)
  Square names may be shortened ("boardw"). Other commands:
    t, trade      build a trade offer step by step
    b, board      the board, the players and the bank
    m, menu       the options again
    say WORDS     say something at the table with your next move
    q, quit       stop here: the game is saved; gopoly play --resume ID goes on
`)
}

// tradeBuilder asks for a trade offer part by part and returns it in the
// notation, or "" when the person gives up.
func (t *table) tradeBuilder(ctx context.Context, seat int, tr *wire.TradeOptions) (string, error) {
	ask := func(prompt string) (string, error) {
		fmt.Fprint(t.out, "  "+prompt+" ")
		line, err := t.in.read(ctx)
		if errors.Is(err, io.EOF) {
			return "", errQuit
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
		}
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
					fmt.Fprintf(t.out, "  numbers from 1 to %d, separated by spaces or commas\n", len(s.Squares))
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
					fmt.Fprintf(t.out, "  a whole number from 0 to %d\n", s.MaxCash)
					continue
				}
				if n > 0 {
					items = append(items, fmt.Sprintf("$%d", n))
				}
				break
			}
		}
		for _, deck := range s.JailCards {
			line, err := ask(fmt.Sprintf("%s the Get Out of Jail Free card (%s)? [y/N]", who, deck))
			if err != nil || line == "x" {
				return "", false, err
			}
			if strings.HasPrefix(strings.ToLower(line), "y") {
				items = append(items, "jail_card "+deck)
			}
		}
		return strings.Join(items, " "), true, nil
	}
	giveCash, getCash := "you give:", t.names[partner.Seat]+" gives:"
	if tr.Sealed {
		fmt.Fprintf(t.out, "  %s\n", tr.Limits)
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
	line, err := ask(fmt.Sprintf("%s: send it? [Y/n]", text))
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

// lineReader reads lines in a goroutine of its own, so that a person's
// answer can be waited for together with Ctrl-C.
type lineReader struct {
	lines chan string
	err   error     // the read error, once lines is closed
	echo  io.Writer // where lines read are written back, when the input is not a terminal
}

// newLineReader reads r; when r is not a terminal, each line read is
// echoed to echo, so that a scripted game reads as one played by hand.
func newLineReader(r io.Reader, echo io.Writer) *lineReader {
	l := &lineReader{lines: make(chan string)}
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
func (l *lineReader) read(ctx context.Context) (string, error) {
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

// sessionPlay is play with people at the table (--seats) or a stored
// game resumed (--resume): a session, stored as it is played.
type sessionPlay struct {
	seats, resume string
	config        string // rules from this saved config
	delay         time.Duration
	thoughts      bool
	store         storeFlags
}

// run plays the session in the terminal. Quitting leaves it stored (exit
// 0), and so does Ctrl-C (exit 130).
func (sp *sessionPlay) run(cmd *cobra.Command, setup session.Setup) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m, closeStore, err := sp.store.openWith(ctx, cmd, session.Options{Research: sp.thoughts})
	if err != nil {
		return err
	}
	defer closeStore()
	var s *session.Session
	if sp.resume != "" {
		if s, err = m.Open(ctx, sp.resume); err != nil {
			return sp.store.lookupErr(cmd, "session", sp.resume, err)
		}
	} else if s, err = m.Create(ctx, setup); err != nil {
		return exitErr(fmt.Errorf("play: %w", err))
	}
	out := cmd.OutOrStdout()
	t, err := newTable(s, newLineReader(cmd.InOrStdin(), out), out, useColor(out), sp.thoughts, sp.delay)
	if err != nil {
		return usageErr(fmt.Errorf("play: session %s: %w", s.ID(), err))
	}
	resume := fmt.Sprintf("gopoly play --resume %s", s.ID())
	if f := sp.store.flags(); f != "" {
		resume += " " + f
	}
	fmt.Fprintf(out, "Session %s, stored as it is played (%s). Quit with q or Ctrl-C; go on later with:\n  %s\n", s.ID(), sp.store.describe(), resume)
	if sp.resume != "" {
		if err := t.skip(); err != nil {
			return fmt.Errorf("play: %w", err)
		}
		st := s.Status()
		fmt.Fprintf(out, "\nResuming after %d answers: %s\n", st.Entries, st.Summary)
		if p, err := s.Pending(t.viewer); err == nil {
			fmt.Fprint(out, p.View.Text())
		}
	}
	err = t.play(ctx)
	if err == nil && s.Status().Over {
		if answers, aerr := sessionAnswers(s); aerr == nil {
			setup := s.Setup()
			bots := make([]string, len(setup.Seats))
			for i, seat := range setup.Seats {
				bots[i] = seat.Bot
			}
			printUsage(out, measure(setup.Names(), bots, answers, s.Status().Winner))
		}
	}
	switch {
	case errors.Is(err, errQuit):
		fmt.Fprintf(out, "Saved. Go on with: %s\n", resume)
		return nil
	case ctx.Err() != nil && cmd.Context().Err() == nil:
		fmt.Fprintln(out)
		return &exitError{code: 130, err: fmt.Errorf("interrupted: session %s is saved; go on with: %s", s.ID(), resume)}
	case err != nil:
		return fmt.Errorf("play: session %s: %w", s.ID(), err)
	}
	return nil
}

// sessionSetup is the setup of a new session from play's flags: the
// seats, the rules file with the round limit as loadRules settles it,
// and the knobs of each bot seat from --params.
// The rules are data overlaid on the defaults, named rulesName in errors
// (no name: the defaults).
func sessionSetup(cmd *cobra.Command, seats []session.Seat, seed uint64, rulesName string, data []byte, maxRounds int, params agent.SeatParams) (session.Setup, error) {
	rules, err := parseRules(cmd, rulesName, data, &maxRounds)
	if err != nil {
		return session.Setup{}, err
	}
	// The limit as settled, written into the rules the session keeps.
	checked, err := service.Rules{Text: string(data)}.WithMaxRounds(rulesName, rules.MaxRounds)
	if err != nil {
		return session.Setup{}, usageErr(err)
	}
	if err := params.Check(len(seats)); err != nil {
		return session.Setup{}, usageErr(err)
	}
	bots := make([]string, len(seats)) // by seat; "" for people
	for i := range seats {
		if seats[i].Kind != session.SeatBot {
			continue
		}
		bots[i] = seats[i].Bot
		if spec := params.ForSeat(i); !spec.Empty() {
			seats[i].Params = spec.YAML()
		}
	}
	warnUnread(cmd.ErrOrStderr(), params, bots)
	return checked.Setup(seed, seats), nil
}

// playSession checks play's flags for a game with people (--seats) or a
// resumed one (--resume) and plays it.
func playSession(cmd *cobra.Command, sp *sessionPlay, seed uint64, players int, rulesPath, paramsPath string, maxRounds int, thoughts bool) error {
	changed := cmd.Flags().Changed
	not := []string{"bots", "json"}
	if sp.resume != "" {
		// A stored session keeps the setup it was created with.
		not = append(not, "seats", "seed", "players", "rules", "config", "params", "max-rounds")
	}
	for _, f := range not {
		if changed(f) {
			if sp.resume != "" {
				return usageErr(fmt.Errorf("play: --resume goes on with the session's own setup: --%s cannot be given with it", f))
			}
			return usageErr(fmt.Errorf("play: --%s cannot be given with --seats (--seats names the bots)", f))
		}
	}
	if !changed("delay") && isTerminal(cmd.OutOrStdout()) {
		sp.delay = 600 * time.Millisecond
	}
	if sp.delay < 0 {
		return usageErr(fmt.Errorf("play: --delay %v: want 0 or more", sp.delay))
	}
	sp.thoughts = thoughts
	if sp.resume != "" {
		return sp.run(cmd, session.Setup{})
	}
	seats, err := session.ParseSeats(sp.seats)
	if err != nil {
		return usageErr(fmt.Errorf("play: --%s", strings.TrimPrefix(err.Error(), "session: ")))
	}
	if len(seats) < 2 || len(seats) > monopoly.MaxPlayers {
		return usageErr(fmt.Errorf("play: --seats names %d seats; the game takes 2 to %d", len(seats), monopoly.MaxPlayers))
	}
	for i, seat := range seats {
		if seat.Kind != session.SeatBot && seat.Kind != session.SeatHuman {
			return usageErr(fmt.Errorf("play: --seats: seat %d is %s: the terminal seats people (human) and bots", i+1, seat.Kind))
		}
	}
	bots := make([]string, len(seats))
	for i, seat := range seats {
		if agent.Known(seat.Bot) { // an unknown one is the session's to name, with its seat
			bots[i] = seat.Bot
		}
	}
	if err := ready(cmd, bots); err != nil {
		return err
	}
	if changed("players") && players != len(seats) {
		return usageErr(fmt.Errorf("play: --players %d, but --seats names %d seats", players, len(seats)))
	}
	params, err := loadParams(paramsPath)
	if err != nil {
		return err
	}
	name, data, err := sp.rulesSource(cmd, rulesPath)
	if err != nil {
		return err
	}
	setup, err := sessionSetup(cmd, seats, seed, name, data, maxRounds, params)
	if err != nil {
		return err
	}
	return sp.run(cmd, setup)
}

// rulesSource reads the rules a game is played by: the --rules file, or
// the saved config --config names; none, the defaults.
func (sp *sessionPlay) rulesSource(cmd *cobra.Command, path string) (name string, data []byte, err error) {
	switch {
	case sp.config != "" && path != "":
		return "", nil, usageErr(fmt.Errorf("%s: --rules and --config both give the rules: give one", cmdName(cmd)))
	case path != "":
		data, err := os.ReadFile(path)
		if err != nil {
			return "", nil, usageErr(err)
		}
		return path, data, nil
	case sp.config != "":
		var c session.Config
		err := sp.store.with(cmd, func(m *session.Manager) (err error) {
			c, err = m.Config(cmd.Context(), sp.config)
			return sp.store.lookupErr(cmd, "config", strconv.Quote(sp.config), err)
		})
		return "config " + c.ID, []byte(c.YAML), err
	}
	return "", nil, nil
}
