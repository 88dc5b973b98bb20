package extbot

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// Seat is a program at a gopoly table: an agent.Agent (and Talker,
// Resetter, Follower, Numbered, Accountable, io.Closer) that asks the program at each decision
// and falls back on a bot when it fails. Its zero value is not usable:
// seats are made by the registry (agent.New with an "exec:", "tcp:" or
// "monopyly:" name).
type Seat struct {
	spec     Spec
	fbBot    agent.Bot
	params   agent.Params
	fallback agent.Agent
	seat     int
	seed     uint64
	log      *slog.Logger
	logFile  *os.File

	c     *conn
	l     link
	games int // games started on this link, as the protocol numbers them
	// index is the game's number in its run (agent.Numbered), or, at a
	// table that does not number its games, the seat's count of games
	// from 0: what the log names the game by. game is the same for the
	// goroutine that logs the program's stderr.
	index int
	game  atomic.Int64
	stats SeatStats

	// The game under way.
	rules   *monopoly.Rules
	started bool      // Start sent and Ready received for this game
	omit    omissions // what the program goes without, as it said in Ready
	ended   bool      // End sent
	id      int       // decisions asked
	strikes int
	retired string        // why, once retired
	used    time.Duration // thinking time spent
	seq     int           // events followed
	pending []monopoly.Event
	first   int // Seq of pending[0]
	buf     []byte
}

// newSeat makes a seat; the program starts at its first decision.
func newSeat(s Spec, fb agent.Bot, p agent.Params, seat int, seed uint64) *Seat {
	st := &Seat{spec: s, fbBot: fb, params: p, seat: seat, seed: seed}
	st.fallback = fb.Make(p, seat, seed)
	st.log = slog.Default()
	if s.Log != "" {
		// A file that cannot be opened leaves the default logger, with a
		// warning there: the game goes on.
		f, err := openLog(s.Log)
		if err != nil {
			st.log.Warn("extbot: cannot open the log file; logging here", "bot", s.Name, "err", err)
		} else {
			st.logFile = f
			st.log = slog.New(slog.NewTextHandler(f, nil))
		}
	}
	st.log = st.log.With("bot", s.Name, "seat", seat)
	return st
}

var logFiles sync.Mutex

func openLog(name string) (*os.File, error) {
	logFiles.Lock()
	defer logFiles.Unlock()
	return os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

// Decide answers d: the program's action, or the fallback's.
func (s *Seat) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	return s.Answer(v, d).Action
}

// Answer is Decide with the program's words (the fallback's, when it
// answers, if it talks).
func (s *Seat) Answer(v monopoly.View, d monopoly.Decision) agent.Answer {
	if s.retired == "" {
		ans, err := s.ask(v, d)
		if err == nil {
			return ans
		}
		s.fail(v, err)
	}
	s.stats.Fallbacks++
	s.stats.TotalFallbacks++
	return agent.Respond(s.fallback, v, d, true)
}

// SeatStats counts the answers of a seat that were not its program's.
type SeatStats struct {
	Fallbacks   int // answers its fallback gave in the game under way, or the last one played
	Retirements int // times the program was retired in that game (0 or 1)
	// The same over every game the seat played.
	TotalFallbacks, TotalRetirements int
}

// Stats returns the seat's counts.
func (s *Seat) Stats() SeatStats { return s.stats }

// Account implements agent.Accountable: Stats for the game.
func (s *Seat) Account() agent.Account {
	return agent.Account{Fallbacks: s.stats.Fallbacks, Retirements: s.stats.Retirements}
}

// Number implements agent.Numbered: the log names the game by n.
func (s *Seat) Number(n int) {
	s.index = n
	s.game.Store(int64(n))
}

// failure is an answer that was not taken, with the refusal to report.
type failure struct {
	refusal wire.Refusal
	fatal   bool // the program cannot go on (it exited, it speaks another protocol)
}

func (f *failure) Error() string { return f.refusal.Code + ": " + f.refusal.Message }

func fatal(format string, args ...any) error {
	return &failure{refusal: wire.Refusal{Code: wire.CodeError, Message: fmt.Sprintf(format, args...)}, fatal: true}
}

// ask asks the program, starting it first if need be.
func (s *Seat) ask(v monopoly.View, d monopoly.Decision) (agent.Answer, error) {
	if s.rules == nil {
		s.rules = v.Rules()
	}
	if err := s.start(v); err != nil {
		return agent.Answer{}, err
	}
	s.id++
	left := s.spec.Game - s.used
	budget := min(s.spec.Decision, left)
	msg := Decide{Type: TypeDecide, Game: s.games, ID: s.id, Decision: wire.NewDecision(v),
		Options: wire.NewOptionsWithout(v, s.omit.options), View: wire.NewState(v),
		Budget: Budget{DecisionMS: budget.Milliseconds(), GameMS: left.Milliseconds()}}
	if !s.omit.text {
		msg.Text = render.DecisionOf(v, nil)
	}
	if s.omit.events {
		s.pending = s.pending[:0]
	} else {
		msg.Events = s.takeEvents()
	}
	began := time.Now()
	deadline := began.Add(budget)
	s.buf = msg.appendJSON(s.buf[:0], s.omit)
	if err := s.c.send(s.buf, deadline); err != nil {
		return agent.Answer{}, fatal("extbot: writing to the program: %v", err)
	}
	a, err := s.answer(deadline)
	s.used += time.Since(began)
	if err != nil {
		return agent.Answer{}, err
	}
	if len(a.Speech) > MaxSpeech || len(a.Thought) > MaxThought {
		return agent.Answer{}, &failure{refusal: wire.Refusal{Code: CodeBadMessage,
			Message: fmt.Sprintf("extbot: speech of %d bytes and thought of %d: at most %d and %d", len(a.Speech), len(a.Thought), MaxSpeech, MaxThought)}}
	}
	act, err := wire.DecodeAction(s.rules, s.seat, a.Action)
	if err == nil {
		err = v.Check(act)
	}
	if err != nil {
		return agent.Answer{}, &failure{refusal: wire.NewRefusal(err, v)}
	}
	return agent.Answer{Action: act, Speech: a.Speech, Thought: a.Thought}, nil
}

// answer waits for the answer to decision s.id: answers to an earlier
// decision (late, after a timeout) are dropped.
func (s *Seat) answer(deadline time.Time) (Answer, error) {
	for {
		line, err := s.c.receive(deadline)
		switch {
		case errors.Is(err, errTimeout):
			return Answer{}, &failure{refusal: wire.Refusal{Code: CodeTimeout,
				Message: fmt.Sprintf("extbot: no answer to decision %d within its budget", s.id)}}
		case err != nil:
			return Answer{}, fatal("extbot: reading from the program: %v", err)
		}
		var a Answer
		err = json.Unmarshal(line, &a)
		switch {
		case err == nil && a.Type == TypeAnswer && a.ID == s.id:
			return a, nil
		case err == nil && a.Type == TypeAnswer && a.ID > 0 && a.ID < s.id:
			continue
		}
		return Answer{}, &failure{refusal: wire.Refusal{Code: CodeBadMessage,
			Message: fmt.Sprintf("extbot: want {\"type\":\"answer\",\"id\":%d,\"action\":{...}}, got %s", s.id, clip(line))}}
	}
}

// start opens the game with Start, waiting for Ready: on the program of
// the last game if it is still there, else on a new one.
func (s *Seat) start(v monopoly.View) error {
	if s.started {
		return nil
	}
	reused := s.c != nil
	err := s.handshake(v)
	if err != nil && reused {
		// It may have exited, or closed the connection, since its last
		// game: a new one gets its chance.
		s.disconnect(true)
		err = s.handshake(v)
	}
	return err
}

// handshake connects if need be (a new program, or a new connection)
// and sends Start, waiting for Ready.
func (s *Seat) handshake(v monopoly.View) error {
	if s.c == nil {
		if err := s.connect(); err != nil {
			return fatal("%v", err)
		}
	}
	s.games++
	rules, err := json.Marshal(s.rules)
	if err != nil {
		return fatal("extbot: rules: %v", err)
	}
	msg := Start{Type: TypeStart, Protocol: Version, Game: s.games, Seat: s.seat, Players: v.Players(), Seed: s.seed,
		Names: defaultNames(v.Players()), Bot: s.spec.Name, Fallback: s.spec.Fallback, Strikes: s.spec.Strikes,
		Budget: Budget{DecisionMS: s.spec.Decision.Milliseconds(), GameMS: s.spec.Game.Milliseconds()},
		Rules:  rules, Board: wire.NewBoard(s.rules), Schemas: wire.AnswerSchemas()}
	// The handshake has a budget of its own, not charged to the game's:
	// it holds the program's launch, which is the machine's time more
	// than the program's thinking.
	deadline := time.Now().Add(s.spec.Startup)
	if err := s.write(msg, deadline); err != nil {
		return fatal("extbot: writing to the program: %v", err)
	}
	line, err := s.c.receive(deadline)
	switch {
	case errors.Is(err, errTimeout):
		return fatal("extbot: no ready within the start-up budget (startup=%v)", s.spec.Startup)
	case err != nil:
		return fatal("extbot: no ready after start: %v", err)
	}
	var r Ready
	if err := json.Unmarshal(line, &r); err != nil || r.Type != TypeReady {
		return fatal("extbot: want {\"type\":\"ready\",\"protocol\":%d}, got %s", Version, clip(line))
	}
	if r.Protocol != Version {
		return fatal("extbot: the program speaks protocol %d, gopoly %d", r.Protocol, Version)
	}
	if s.omit, err = parseOmit(r.Omit); err != nil {
		return fatal("%v", err)
	}
	s.started = true
	return nil
}

func (s *Seat) connect() error {
	var (
		l   link
		err error
	)
	switch s.spec.Scheme {
	case "tcp":
		l, err = dialTCP(s.spec.Target)
	case "monopyly":
		var (
			argv, env []string
			dir       string
		)
		if argv, env, dir, err = monopylyCommand(s.spec); err == nil {
			l, err = startProcess(argv, env, dir, s.stderr)
		}
	default:
		if s.spec.Dir != "" {
			err = os.MkdirAll(s.spec.Dir, 0o755)
		}
		if err == nil {
			l, err = startProcess(s.spec.Argv, nil, s.spec.Dir, s.stderr)
		}
	}
	if err != nil {
		return err
	}
	s.l, s.c, s.games = l, newConn(l), 0
	return nil
}

func (s *Seat) stderr(line string) { s.log.Info("stderr", "game", s.game.Load(), "line", line) }

// write sends one message (but Decide, the message of every decision,
// which ask writes without reflection).
func (s *Seat) write(msg any, deadline time.Time) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return s.c.send(b, deadline)
}

// fail handles an answer not taken: the refusal goes to the program,
// and a strike; a fatal failure, or the last strike, retires it.
func (s *Seat) fail(v monopoly.View, err error) {
	var f *failure
	if !errors.As(err, &f) {
		f = &failure{refusal: wire.Refusal{Code: wire.CodeError, Message: err.Error()}, fatal: true}
	}
	s.strikes++
	left := s.spec.Strikes - s.strikes
	s.log.Warn("extbot: the fallback answers", "game", s.index, "decision", s.id, "code", f.refusal.Code, "message", f.refusal.Message, "strikes_left", max(left, 0))
	if f.fatal || s.c == nil {
		s.retire(f.refusal.Message, true)
		return
	}
	if s.used >= s.spec.Game {
		left = 0
		f.refusal.Message += "; the game's time budget is spent"
	}
	s.notify(Refusal{Type: TypeRefusal, Game: s.games, ID: s.id, Refusal: f.refusal, StrikesLeft: max(left, 0)})
	if left <= 0 {
		s.retire(fmt.Sprintf("%d failed answers: %s", s.strikes, f.refusal.Message), f.refusal.Code == CodeTimeout)
	}
}

// notify sends a message that needs no answer, giving up after a short
// while: a program that reads nothing must not hold up the game.
func (s *Seat) notify(msg any) {
	if s.c == nil {
		return
	}
	if err := s.write(msg, time.Now().Add(min(s.spec.Decision, time.Second))); err != nil {
		s.log.Warn("extbot: writing to the program", "game", s.index, "err", err)
	}
}

// retire stops asking the program for the rest of the game, tells it
// why, and stops it: killed when it may be stuck, or its link closed.
// The next game starts it again.
func (s *Seat) retire(reason string, stuck bool) {
	s.retired = reason
	s.stats.Retirements++
	s.stats.TotalRetirements++
	s.pending = s.pending[:0]
	s.log.Warn("extbot: retired for the rest of the game", "game", s.index, "reason", reason)
	if s.c == nil {
		return
	}
	s.notify(Retired{Type: TypeRetired, Game: s.games, Reason: reason})
	s.disconnect(stuck)
}

func (s *Seat) disconnect(kill bool) {
	if s.l == nil {
		return
	}
	if kill {
		s.l.Kill()
	} else {
		s.l.Close()
	}
	s.l, s.c, s.started = nil, nil, false
}

// Follow keeps the events the seat may be told of, for the next Decide,
// and closes the game with End when it is over.
func (s *Seat) Follow(r *monopoly.Rules, events []monopoly.Event) {
	s.rules = r
	for _, e := range events {
		s.seq++
		if s.retired != "" {
			continue
		}
		if len(s.pending) == 0 {
			s.first = s.seq - 1
		}
		s.pending = append(s.pending, e)
		if len(s.pending) > MaxEvents {
			n := copy(s.pending, s.pending[len(s.pending)-MaxEvents:])
			s.first += len(s.pending) - n
			s.pending = s.pending[:n]
		}
		if e.Kind == monopoly.EvGameOver {
			s.end(true, int(e.Player), e.Flag)
		}
	}
}

// takeEvents returns the pending events as the seat sees them, and
// forgets them.
func (s *Seat) takeEvents() []wire.Event {
	out := make([]wire.Event, len(s.pending))
	for i, e := range s.pending {
		out[i] = wire.NewEvent(s.rules, e, s.seat, s.first+i)
	}
	s.pending = s.pending[:0]
	return out
}

// end sends End once per game, if the program was playing it.
func (s *Seat) end(over bool, winner int, roundLimit bool) {
	if s.ended || !s.started || s.retired != "" {
		s.ended = true
		return
	}
	s.ended = true
	if !over {
		winner = -1
	}
	s.notify(End{Type: TypeEnd, Game: s.games, Over: over, Winner: winner, RoundLimit: roundLimit, Events: s.takeEvents()})
}

// Reset makes the seat ready for another game in seat with seed, as a
// new one would be, keeping its program (started again if it was
// stopped).
func (s *Seat) Reset(seat int, seed uint64) {
	s.end(false, -1, false)
	s.seat, s.seed = seat, seed
	if r, ok := s.fallback.(agent.Resetter); ok {
		r.Reset(seat, seed)
	} else {
		s.fallback = s.fbBot.Make(s.params, seat, seed)
	}
	s.started, s.ended, s.id, s.strikes, s.retired, s.used, s.seq = false, false, 0, 0, "", 0, 0
	s.pending = s.pending[:0]
	s.stats.Fallbacks, s.stats.Retirements = 0, 0
	s.Number(s.index + 1) // the table numbers it after, if it numbers its games
}

// Close ends the game, then the program (its input closed; killed if it
// does not exit) or the connection.
func (s *Seat) Close() error {
	s.end(false, -1, false)
	s.disconnect(false)
	if s.logFile != nil {
		s.logFile.Close()
		s.logFile = nil
	}
	return nil
}

func defaultNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("player %d", i)
	}
	return names
}

// clip shortens a bad line for a message.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return fmt.Sprintf("%q...", b[:n])
	}
	return fmt.Sprintf("%q", b)
}
