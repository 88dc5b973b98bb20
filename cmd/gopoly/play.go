package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/terminal"
)

// playOptions are the settings of play that no flag sets.
type playOptions struct {
	// maxDecisions is where play adjourns a game, as the arena does at
	// arena.MaxDecisions; a test can make it smaller to stall a game
	// quickly.
	maxDecisions int
}

func defaultPlayOptions() playOptions {
	return playOptions{maxDecisions: arena.MaxDecisions}
}

func newPlayCmd(opts playOptions) *cobra.Command {
	var (
		players, maxRounds          int
		bots, rulesPath, paramsPath string
		seed                        uint64
		asJSON, thoughts            bool
		sp                          sessionPlay
		lf                          llmFlags
	)
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play one Monopoly game, between bots or with you at the table (--seats human,...)",
		Long: `Plays one game between bots and prints what happens, turn by turn with a
header for each round: rolls, moves, purchases, auctions, rents, cards,
buildings, trades and bankruptcies, then the final standings and the
winner. Players and money are coloured when stdout is a terminal and
NO_COLOR is not set.

The same --seed plays the same game. --json prints the events as JSON
lines instead, then one standings object (kind "standings").

Players that talk (the personalities shark, professor, hustler and turtle)
say what they do at the table; --thoughts also shows their private
thoughts, and the cash limits of sealed offers, as a research view would.

With --seats, people sit at the table too: --seats human,shark,professor,hustler
puts you in seat 1 against three personalities. At each of your decisions
you see the question and the legal answers as a numbered menu; answer by
number or type the move (? lists the forms; t builds a trade, b shows the
board). The game is a session, stored as it is played (--data, --db):
quit with q or Ctrl-C at any point and go on later with --resume ID.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lf.apply(cmd); err != nil {
				return err
			}
			if cmd.Flags().Changed("seats") && strings.TrimSpace(sp.seats) == "" {
				return usageErr(errors.New("play: --seats is empty: name who plays each seat, such as --seats human,shark,professor,hustler"))
			}
			if sp.seats != "" || sp.resume != "" {
				return playSession(cmd, &sp, seed, players, rulesPath, paramsPath, maxRounds, thoughts)
			}
			name, data, err := sp.rulesSource(cmd, rulesPath)
			if err != nil {
				return err
			}
			rules, err := parseRules(cmd, name, data, &maxRounds)
			if err != nil {
				return err
			}
			if players < 2 || players > monopoly.MaxPlayers {
				return usageErr(fmt.Errorf("play: %d players; the game takes 2 to %d", players, monopoly.MaxPlayers))
			}
			names, err := splitBots(bots)
			if err != nil {
				return usageErr(fmt.Errorf("play: %w", err))
			}
			switch {
			case len(names) == 0:
				return usageErr(errors.New("play: --bots names no bot"))
			case len(names) > players && cmd.Flags().Changed("bots"):
				return usageErr(fmt.Errorf("play: %d bots for %d players: name at most one bot per player (a shorter list is repeated)", len(names), players))
			}
			// Fewer players than the default line-up take its first seats.
			seats := make([]string, players)
			for i := range seats {
				seats[i] = names[i%len(names)]
				if _, err := agent.Lookup(seats[i]); err != nil {
					return usageErr(err)
				}
			}
			if err := ready(cmd, seats); err != nil {
				return err
			}
			// All input is checked before the log starts: a refused
			// command prints nothing but its error.
			params, err := loadParams(paramsPath)
			if err != nil {
				return err
			}
			if err := params.Check(players); err != nil {
				return usageErr(err)
			}
			warnUnread(cmd.ErrOrStderr(), params, seats)
			out := bufio.NewWriter(cmd.OutOrStdout())
			defer out.Flush()
			var log playLog
			if asJSON {
				log = &jsonPlayLog{w: out, rules: rules, names: seatNames[:players]}
			} else {
				text := newTextPlayLog(out, rules, seatNames[:players], seats, seed, useColor(cmd.OutOrStdout()))
				if isTerminal(cmd.OutOrStdout()) {
					text.width = terminal.Width(cmd.OutOrStdout())
				}
				log = text
			}
			st, err := playGame(rules, seats, params, seed, thoughts, opts.maxDecisions, log)
			if err != nil {
				return err
			}
			log.standings(st)
			if !asJSON {
				printUsage(out, st.LLM)
			}
			return out.Flush()
		},
	}
	f := cmd.Flags()
	f.Uint64Var(&seed, "seed", 1, "game seed: the same seed plays the same game")
	f.StringVar(&bots, "bots", "shark,professor,hustler,turtle", "comma-separated bots per seat, repeated if fewer than the players (fewer players than the default list take its first)")
	f.IntVar(&players, "players", 4, "players (2-8)")
	f.StringVar(&rulesPath, "rules", "", "rules file (YAML) overriding the defaults")
	f.StringVar(&paramsPath, "params", "", "bot parameters file (YAML): overrides for all seats and per seat, values or {mean, std}")
	f.IntVar(&maxRounds, "max-rounds", 500, "round limit; the richest player wins a capped game (0: none)")
	f.BoolVar(&asJSON, "json", false, "print the events as JSON lines and the standings as a final JSON object")
	f.BoolVar(&thoughts, "thoughts", false, "also show the players' private thoughts and sealed cash limits")
	f.StringVar(&sp.seats, "seats", "", `who plays each seat: "human" for a person at this terminal, or a bot (e.g. human,shark,professor,hustler); the game is a stored session`)
	f.StringVar(&sp.config, "config", "", "play by the rules of a saved config (see gopoly configs) instead of --rules")
	f.StringVar(&sp.resume, "resume", "", "go on with the stored session of this id (see gopoly sessions)")
	f.DurationVar(&sp.delay, "delay", 0, "with people at the table: the pause after each bot's move, so that a person can follow (default 0.6s when stdout is a terminal, else 0)")
	sp.store.register(cmd)
	lf.register(cmd)
	return cmd
}

// useColor reports whether output to w may carry ANSI colours: a
// terminal, and no NO_COLOR (https://no-color.org).
func useColor(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && isTerminal(w)
}

// seatNames are the players' names by seat: those of a session's setup.
var seatNames = session.DefaultNames

// playLog receives a game as it is played.
type playLog interface {
	// events gets the events of one step of g, with the round each
	// happened in.
	events(g tableState, evs []monopoly.Event, rounds []int)
	standings(st playStandings)
}

// playStandings is the end of a game, ranked.
type playStandings struct {
	Kind    string        `json:"kind"` // "standings", to tell it from the events in --json
	Seed    uint64        `json:"seed"`
	Rounds  int           `json:"rounds"`
	Turns   int           `json:"turns"`
	Rolls   int64         `json:"rolls"`
	Capped  bool          `json:"capped"`
	Stalled bool          `json:"stalled,omitempty"` // adjourned after maxDecisions decisions
	Winner  int           `json:"winner"`            // seat; -1 for a tie
	Players []playerStand `json:"players"`
	LLM     []llmUsage    `json:"llm,omitempty"` // the LLM seats' calls, tokens, costs and reliability

	maxDecisions int // where a game is adjourned
}

// playerStand is one player's line of the standings.
type playerStand struct {
	Rank       int    `json:"rank"`
	Seat       int    `json:"seat"`
	Name       string `json:"name"`
	Bot        string `json:"bot"`
	Cash       int    `json:"cash"`
	Properties int    `json:"properties"`
	Mortgaged  int    `json:"mortgaged"`
	Houses     int    `json:"houses"`
	Hotels     int    `json:"hotels"`
	NetWorth   int    `json:"net_worth"`
	Bankrupt   bool   `json:"bankrupt"`
	OutRound   int    `json:"out_round,omitempty"` // the round it went bankrupt in
	Winner     bool   `json:"winner"`
}

// playGame plays one game, handing the events to log, and returns the
// standings. Players that talk answer with words; without thoughts the
// log gets the events as a spectator sees them (no private thoughts, no
// sealed cash limits). A game is adjourned after maxDecisions decisions.
func playGame(rules *monopoly.Rules, seats []string, params agent.SeatParams, seed uint64, thoughts bool, maxDecisions int, log playLog) (playStandings, error) {
	g := monopoly.New(rules, len(seats), seed)
	agents := make([]agent.Agent, len(seats))
	for s, bot := range seats {
		a, err := agent.NewWith(bot, params.ForSeat(s), s, arena.SeatSeed(seed, s))
		if err != nil {
			return playStandings{}, err
		}
		agents[s] = a
	}
	defer agent.CloseAll(agents)
	answers := make([][]llm.Answered, len(seats))
	for _, a := range agents {
		if st, ok := a.(agent.Seated); ok {
			st.Seat(seatNames[:len(seats)], seats)
		}
	}
	g.Record(true)
	k := newRoundKeeper(len(seats))
	// The first turn started inside New, before recording was on.
	first := []monopoly.Event{{Kind: monopoly.EvTurnStart, Player: int8(g.Current()), Amount: int64(g.Round())}}
	log.events(g, first, k.note(first))
	step := func(g *monopoly.Game) {
		evs := g.TakeEvents()
		if !thoughts {
			evs = spectate(evs, rules)
		}
		log.events(g, evs, k.note(evs))
	}
	d := agent.Driver{Agents: agents, Words: true, Max: maxDecisions,
		Applied: func(g *monopoly.Game, seat int, ans agent.Answer) error {
			if ans.Research != nil {
				answers[seat] = append(answers[seat], llm.Answered{Action: ans.Action.Kind.String(), Speech: ans.Speech, Thought: ans.Thought, Record: ans.Research})
			}
			step(g)
			return nil
		}}
	_, stop, err := d.Run(context.Background(), g)
	var se *agent.SeatError
	switch {
	case errors.As(err, &se):
		return playStandings{}, fmt.Errorf("play: seat %d (%s): %w", se.Seat, seats[se.Seat], se.Err)
	case err != nil:
		return playStandings{}, fmt.Errorf("play: %w", err)
	}
	stalled := stop == agent.StopLimit
	if stalled {
		// As the arena does: a game that would not end is adjourned.
		g.Adjourn()
		d.Follow(g)
		step(g)
	}
	st := standings(g, seatNames[:len(seats)], seats, seed, k.outRound)
	st.maxDecisions = maxDecisions
	st.LLM = measure(seatNames[:len(seats)], seats, answers, g.Winner())
	if stalled {
		st.Stalled, st.Rounds = true, g.Round()
	}
	return st, nil
}

// roundKeeper follows the round through a game's events, and the round
// each player went bankrupt in, for the logs and the standings.
type roundKeeper struct {
	round    int
	outRound []int // by seat; 0 while in the game
	rounds   []int
}

func newRoundKeeper(players int) *roundKeeper { return &roundKeeper{outRound: make([]int, players)} }

// note takes in evs and returns the round of each, in a slice that the
// next call reuses.
func (k *roundKeeper) note(evs []monopoly.Event) []int {
	k.rounds = k.rounds[:0]
	for _, e := range evs {
		switch e.Kind {
		case monopoly.EvTurnStart:
			k.round = int(e.Amount)
		case monopoly.EvBankrupt:
			k.outRound[e.Player] = k.round
		}
		k.rounds = append(k.rounds, k.round)
	}
	return k.rounds
}

// spectate turns events into what a spectator sees, in place: private
// thoughts and sealed cash limits removed, and words left empty dropped.
func spectate(evs []monopoly.Event, rules *monopoly.Rules) []monopoly.Event {
	out := evs[:0]
	for _, e := range evs {
		e = e.For(-1, rules)
		if e.Kind == monopoly.EvSpeech && e.Speech == "" && e.Thought == "" {
			continue
		}
		out = append(out, e)
	}
	return out
}

// standings ranks the players: the winner, then those still in by net
// worth, then the bankrupt, the last to go first.
// names and labels (the bot, or who plays the seat) are by seat.
func standings(g *monopoly.Game, names, labels []string, seed uint64, outRound []int) playStandings {
	st := playStandings{Kind: "standings", Seed: seed, Rounds: g.Round(),
		Turns: g.Turn(), Rolls: g.Rolls(), Capped: g.Capped(), Winner: g.Winner()}
	if g.Capped() {
		// The round counter has moved past the limit when the game ends.
		st.Rounds = g.Rules().MaxRounds
	}
	for s, bot := range labels {
		p := playerStand{Seat: s, Name: names[s], Bot: bot, Cash: g.Cash(s), NetWorth: g.NetWorth(s),
			Bankrupt: g.Bankrupt(s), OutRound: outRound[s], Winner: g.Winner() == s}
		for m := g.OwnedMask(s); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			p.Properties++
			if g.Mortgaged(sq) {
				p.Mortgaged++
			}
			switch h := g.Houses(sq); h {
			case 5:
				p.Hotels++
			default:
				p.Houses += h
			}
		}
		st.Players = append(st.Players, p)
	}
	slices.SortStableFunc(st.Players, func(a, b playerStand) int {
		if a.Winner != b.Winner {
			if a.Winner {
				return -1
			}
			return 1
		}
		if a.Bankrupt != b.Bankrupt {
			if b.Bankrupt {
				return -1
			}
			return 1
		}
		if a.Bankrupt {
			return cmp.Compare(b.OutRound, a.OutRound)
		}
		return cmp.Compare(b.NetWorth, a.NetWorth)
	})
	for i := range st.Players {
		st.Players[i].Rank = i + 1
	}
	return st
}

// jsonPlayLog writes each event as a JSON line: the event's own fields
// (monopoly.Event's JSON) after its sequence number and round, and its
// English description as "text".
type jsonPlayLog struct {
	w     io.Writer
	names []string
	rules *monopoly.Rules
	seq   int
}

func (l *jsonPlayLog) events(_ tableState, evs []monopoly.Event, rounds []int) {
	for i, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			panic(err) // an Event is plain data: it always marshals
		}
		text, _ := json.Marshal(l.rules.Describe(e, l.names))
		l.seq++
		fmt.Fprintf(l.w, `{"seq":%d,"round":%d,%s,"text":%s}`+"\n", l.seq, rounds[i], b[1:len(b)-1], text)
	}
}

func (l *jsonPlayLog) standings(st playStandings) {
	b, _ := json.Marshal(st)
	fmt.Fprintf(l.w, "%s\n", b)
}

// ANSI styles of the text log.
const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiMoney = "\x1b[1;32m"
)

// seatColors are the players' colours; green is kept for money.
var seatColors = [monopoly.MaxPlayers]string{"\x1b[1;31m", "\x1b[1;34m", "\x1b[1;35m", "\x1b[1;36m",
	"\x1b[1;33m", "\x1b[1;91m", "\x1b[1;94m", "\x1b[1;95m"}

// moneyRE matches an amount in the log, whole: the players' words group
// thousands ("$1,100"), the engine's sentences do not ("$1100"); a comma
// and a space after an amount ("$200, done") is not part of it.
var moneyRE = regexp.MustCompile(`\$[0-9]+(?:,[0-9]{3})*`)

// textPlayLog writes the readable log: a header per round, a line per
// turn, and the turn's events indented below it. Every event line names
// who acts, the player whose turn it is included: other players' trades,
// bids and words come between its own lines, so a line without a name
// would read as the last one named.
type textPlayLog struct {
	w      io.Writer
	rules  *monopoly.Rules
	labels []string // who plays each seat: a bot's name, "human"
	names  []string // as printed, coloured when colour is on
	color  bool
	width  int // the columns event lines wrap to; 0: no wrapping (a file, a pipe)
	round  int
	roll   string // a roll waiting for the move it causes, to share its line
	cur    int8
	high   int // the high bid of the auction under way
}

// tableState is where the players stand, for the line that starts each
// turn: the game itself, or a seat's view of it.
type tableState interface {
	Cash(p int) int
	Position(p int) int
	InJail(p int) bool
}

// funds is what p may pay for a purchase or a bid in g: under
// raise_to_buy what it could raise, where g knows it (the game, a seat's
// view; a wire snapshot does not), else its cash.
func funds(g tableState, p int) int {
	if f, ok := g.(interface{ Funds(p int) int }); ok {
		return f.Funds(p)
	}
	return g.Cash(p)
}

// newTextPlayLog writes the log's header: names and labels are by seat.
func newTextPlayLog(w io.Writer, rules *monopoly.Rules, names, labels []string, seed uint64, color bool) *textPlayLog {
	l := &textPlayLog{w: w, rules: rules, labels: labels, color: color}
	for s, n := range names {
		l.names = append(l.names, l.paint(seatColors[s], n))
	}
	fmt.Fprintf(w, "%s\n", l.paint(ansiBold, fmt.Sprintf("Monopoly: %d players, seed %d, %s", len(names), seed, playLimit(rules))))
	for s, label := range labels {
		fmt.Fprintf(w, "  seat %d  %s (%s)\n", s+1, l.names[s], label)
	}
	return l
}

func playLimit(rules *monopoly.Rules) string {
	if rules.MaxRounds > 0 {
		return fmt.Sprintf("round limit %d", rules.MaxRounds)
	}
	return "no round limit"
}

func (l *textPlayLog) paint(style, s string) string {
	if !l.color {
		return s
	}
	return style + s + ansiReset
}

func (l *textPlayLog) money(amount int) string {
	return l.paint(ansiMoney, fmt.Sprintf("$%d", amount))
}

// line writes one event line of the current turn, wrapped to the
// terminal's width when there is one.
func (l *textPlayLog) line(s string) {
	if l.color {
		s = moneyRE.ReplaceAllStringFunc(s, func(m string) string { return ansiMoney + m + ansiReset })
	}
	if l.width > 0 {
		fmt.Fprintln(l.w, render.Wrap(s, l.width, "    ", "      "))
		return
	}
	fmt.Fprintf(l.w, "    %s\n", s)
}

func (l *textPlayLog) flushRoll() {
	if l.roll != "" {
		l.line(l.roll)
		l.roll = ""
	}
}

// sentence describes e, naming players as the log does. A sentence
// that opens on no name ("the bank pays ...") is capitalised, as a line
// of its own.
func (l *textPlayLog) sentence(e monopoly.Event) string {
	s := l.rules.Describe(e, l.names)
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

func (l *textPlayLog) events(g tableState, evs []monopoly.Event, rounds []int) {
	for i, e := range evs {
		l.event(g, e, rounds[i])
	}
	l.flushRoll()
}

func (l *textPlayLog) event(g tableState, e monopoly.Event, round int) {
	if e.Kind == monopoly.EvSpeech && e.Speech == "" && e.Thought == "" {
		return // words this viewer may not read: nothing to show, not even a line break
	}
	switch e.Kind {
	case monopoly.EvMove:
		to := l.rules.Squares[e.Square].Name
		if l.roll != "" {
			l.line(l.roll + " → " + to)
			l.roll = ""
			return
		}
		l.line(l.sentence(e))
		return
	case monopoly.EvStayInJail:
		if l.roll != "" {
			l.line(fmt.Sprintf("%s: stays in jail (failed attempt %d)", l.roll, e.Amount))
			l.roll = ""
			return
		}
	case monopoly.EvSpeedDie:
		// The third die of the roll: the move that follows shares the line.
		l.roll += ", speed die " + monopoly.SpeedFace(e.Amount).Describe()
		if e.Flag {
			l.roll += " (triples)"
		}
		return
	case monopoly.EvLeaveJail:
		if l.roll != "" {
			// Doubles in jail: the move that follows shares the line.
			l.roll += ", leaves jail"
			return
		}
	case monopoly.EvGoToJail:
		if l.roll != "" && e.Player == l.cur {
			// Jail straight after a roll, without a move: a third doubles.
			l.line(l.roll + ": third doubles, goes to jail")
			l.roll = ""
			return
		}
	}
	l.flushRoll()
	switch e.Kind {
	case monopoly.EvTurnStart:
		l.cur = e.Player
		if round != l.round {
			l.round = round
			l.roundHeader()
		}
		// A turn starts at the end of a step, so the game stands where
		// the turn begins.
		p := int(e.Player)
		where := l.rules.Squares[g.Position(p)].Name
		if g.InJail(p) {
			where = "in jail"
		} else {
			where = "on " + where
		}
		fmt.Fprintf(l.w, "  %s  %s  %s\n", l.names[p], l.money(g.Cash(p)), where)
	case monopoly.EvRoll:
		d1, d2 := int(e.Dice[0]), int(e.Dice[1])
		l.roll = fmt.Sprintf("%s rolls %d + %d = %d", l.names[e.Player], d1, d2, d1+d2)
		if d1 == d2 {
			l.roll += " (doubles)"
		}
	case monopoly.EvAuctionStart:
		l.high = 0
		l.line(l.sentence(e))
	case monopoly.EvBid:
		l.high = int(e.Amount)
		l.line(l.sentence(e))
	case monopoly.EvDecline:
		// The rules decline for a player short of the price (7.4), and
		// drop a bidder who cannot top the high bid (8.3): say why. Under
		// raise_to_buy a player short of cash may still mortgage to pay,
		// and chose.
		sq := &l.rules.Squares[e.Square]
		if cash := g.Cash(int(e.Player)); funds(g, int(e.Player)) < sq.Price {
			l.line(render.CannotBuy(l.names[e.Player], sq.Name, sq.Price, cash))
			break
		}
		l.line(l.sentence(e))
	case monopoly.EvDropOut:
		if cash := g.Cash(int(e.Player)); funds(g, int(e.Player)) <= l.high {
			l.line(render.CannotBid(l.names[e.Player], l.high, cash))
			break
		}
		l.line(l.sentence(e))
	case monopoly.EvRollResolved:
		// The move and jail lines already say where the roll ended.
	case monopoly.EvGameOver:
		// The standings say it.
	case monopoly.EvBankrupt:
		l.line(l.paint(ansiBold, l.sentence(e)))
	case monopoly.EvSpeech:
		who := l.names[e.Player]
		if e.Speech != "" {
			l.line(fmt.Sprintf("%s: %q", who, e.Speech))
		}
		if e.Thought != "" {
			l.line(l.paint(ansiDim, fmt.Sprintf("%s thinks: %s", who, e.Thought)))
		}
	default:
		l.line(l.sentence(e))
	}
}

func (l *textPlayLog) roundHeader() {
	title := fmt.Sprintf("── Round %d ", l.round)
	fmt.Fprintf(l.w, "\n%s\n", l.paint(ansiBold, title+strings.Repeat("─", max(0, 60-len([]rune(title))))))
}

func (l *textPlayLog) standings(st playStandings) {
	l.flushRoll()
	w := l.w
	fmt.Fprintf(w, "\n%s\n", l.paint(ansiBold, "── Final standings "+strings.Repeat("─", 41)))
	// The columns fit the longest name and label; a label longer than a
	// column may be (a program's command line) is cut short.
	nameW, botW := len("player"), len("bot")
	for _, p := range st.Players {
		nameW = max(nameW, utf8.RuneCountInString(p.Name))
		botW = max(botW, utf8.RuneCountInString(shorten(p.Bot, maxLabel)))
	}
	botW = max(botW, 10)
	fmt.Fprintf(w, "%4s  %-*s %-*s %8s %8s %13s %10s  %s\n", "rank", nameW, "player", botW, "bot", "cash", "props", "houses/hotels", "net worth", "status")
	for _, p := range st.Players {
		status := ""
		switch {
		case p.Winner:
			status = "winner"
		case p.Bankrupt:
			status = fmt.Sprintf("bankrupt in round %d", p.OutRound)
		}
		props := fmt.Sprint(p.Properties)
		if p.Mortgaged > 0 {
			props += fmt.Sprintf(" (%dm)", p.Mortgaged)
		}
		// Pad before colouring: escape codes would upset the widths.
		name := l.paint(seatColors[p.Seat], pad(p.Name, nameW))
		cash := l.paint(ansiMoney, fmt.Sprintf("%8s", fmt.Sprintf("$%d", p.Cash)))
		worth := l.paint(ansiMoney, fmt.Sprintf("%10s", fmt.Sprintf("$%d", p.NetWorth)))
		if p.Winner {
			status = l.paint(ansiBold, status)
		}
		row := fmt.Sprintf("%4d  %s %s %s %8s %13s %s  %s", p.Rank, name, pad(shorten(p.Bot, maxLabel), botW), cash, props,
			fmt.Sprintf("%d/%d", p.Houses, p.Hotels), worth, status)
		fmt.Fprintln(w, strings.TrimRight(row, " "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, l.winnerLine(st))
}

// maxLabel is the widest a seat's label stands in the standings.
const maxLabel = 24

// shorten cuts s to at most n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// pad pads s with spaces to n runes, as %-*s pads bytes.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

func (l *textPlayLog) winnerLine(st playStandings) string {
	summary := fmt.Sprintf("%d rounds, %d turns, %d rolls", st.Rounds, st.Turns, st.Rolls)
	end := fmt.Sprintf("at the %d-round limit", st.Rounds)
	if st.Stalled {
		end = fmt.Sprintf("when the game was adjourned after %d decisions", st.maxDecisions)
	}
	if st.Winner < 0 {
		return l.paint(ansiBold, "No winner: a tie on net worth "+end) + " (" + summary + ")"
	}
	who := fmt.Sprintf("%s (%s)", l.names[st.Winner], l.labels[st.Winner])
	how := "the last player standing"
	if st.Capped {
		for _, p := range st.Players {
			if p.Winner {
				at := "at the round limit"
				if st.Stalled {
					at = end
				}
				how = fmt.Sprintf("the richest %s, net worth %s", at, l.money(p.NetWorth))
			}
		}
	}
	return l.paint(ansiBold, "Winner: ") + who + ", " + how + " (" + summary + ")"
}
