package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	service "github.com/gopoly/gopoly/table"
	"github.com/gopoly/gopoly/terminal"
)

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
	setup = s.Setup() // a resumed game's own
	t, err := terminal.New(s, terminal.NewLineReader(cmd.InOrStdin(), out), out, sp.thoughts, sp.delay, func(labels []string) terminal.Log {
		text := newTextPlayLog(out, s.Rules(), setup.Names(), labels, setup.Seed, useColor(out))
		text.width = terminal.Width(out)
		return &sessionLog{textPlayLog: text, rounds: newRoundKeeper(len(setup.Seats)), seed: setup.Seed}
	})
	if err != nil {
		return usageErr(fmt.Errorf("play: session %s: %w", s.ID(), err))
	}
	resume := fmt.Sprintf("gopoly play --resume %s", s.ID())
	if f := sp.store.flags(); f != "" {
		resume += " " + f
	}
	fmt.Fprintf(out, "Session %s, stored as it is played (%s). Quit with q or Ctrl-C; go on later with:\n  %s\n", s.ID(), sp.store.describe(), resume)
	if sp.resume != "" {
		fmt.Fprintln(out)
		if err := t.Resume(); err != nil {
			return fmt.Errorf("play: %w", err)
		}
	}
	err = t.Play(ctx)
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
	case errors.Is(err, terminal.ErrQuit):
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
	seats, err := session.ParseSeats(personSeats(sp.seats))
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

// personSeats writes a person's seat in a seat list as the session
// reads it, whatever its case: "HUMAN" and "Human" are a person too.
func personSeats(list string) string {
	fields := strings.Split(list, ",")
	for i, f := range fields {
		if w := strings.TrimSpace(f); strings.EqualFold(w, "human") || strings.EqualFold(w, "person") {
			fields[i] = "human"
		}
	}
	return strings.Join(fields, ",")
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

// sessionLog is play's text log told a session's game by a terminal
// table, with the rounds each event falls in.
type sessionLog struct {
	*textPlayLog
	rounds *roundKeeper
	seed   uint64
}

func (l *sessionLog) Skip(evs []monopoly.Event) {
	l.rounds.note(evs)
	l.round = l.rounds.round
}

func (l *sessionLog) Show(st terminal.State, evs []monopoly.Event) {
	l.events(st, evs, l.rounds.note(evs))
}

func (l *sessionLog) Over(g *monopoly.Game) {
	l.standings(standings(g, l.names, l.labels, l.seed, l.rounds.outRound))
}

func (l *sessionLog) Bold(s string) string { return l.paint(ansiBold, s) }

func (l *sessionLog) Money(amount int) string { return l.money(amount) }
