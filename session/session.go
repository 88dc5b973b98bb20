package session

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// Session is one game in play. Its methods may be called from many
// goroutines; each session serialises them.
type Session struct {
	m *Manager
	// play is held by what changes the game (Advance, submit), and mu by
	// every call, except while a slow player thinks (think): the game can
	// be read meanwhile, and play keeps it from changing.
	play    sync.Mutex
	outside []bool          // by seat: a player from outside (a program, a language model), who thinks without mu and is replayed from the log
	ctx     context.Context // the call that plays the bots, for think's commit
	thawed  bool            // think let go of mu
	mu      sync.Mutex
	id      string
	parent  string
	created time.Time
	setup   Setup
	c       compiled
	tokens  Tokens
	g       *monopoly.Game
	driver  agent.Driver
	log     []Entry
	stored  int // log entries durable in the store
	// storedN is stored, read without mu: a change another process
	// committed is looked at only if it is beyond what is here.
	storedN atomic.Int64
	behind  catchUp // catching up with what other processes commit
	events  []event // every event of the play: its sequence number is its index
	digest  *wire.Digest
	turns   []Turn
	// stale is set when the session here no longer matches the store (a
	// write failed, or another process answered): every call then fails
	// until the session is opened again.
	stale error
	subs  map[chan struct{}]struct{}
	// now is the snapshot of the game now by viewing seat (-1: spectators
	// and the research view), made for the first viewer after a change
	// and shared by the others; nowAt is the log's length it is of.
	now   map[int]wire.Snapshot
	nowAt int
}

// event is an event of the play and the log entry that set it off (-1:
// the start of the game).
type event struct {
	monopoly.Event
	entry int
}

// Tokens are a session's secrets: one for each waiting seat (empty for
// bots), and one for the research view, which sees every thought and
// sealed limit when the host enables it.
type Tokens struct {
	Seats    []string `json:"seats"`
	Research string   `json:"research"`
}

// Turn is a turn boundary: the log index at which a turn starts, where
// replay_game forks. Turn 0 is the start of the game.
type Turn struct {
	Turn   int `json:"turn"`
	Round  int `json:"round"`
	Player int `json:"player"`
	At     int `json:"at"`
}

// Errors of sessions, tested with errors.Is.
var (
	// ErrStale: the session here fell behind its store; open it again.
	ErrStale = errors.New("session: out of date with its store")
	// ErrReplay: a stored log does not replay to the play it recorded,
	// on this version of the engine or its bots.
	ErrReplay = errors.New("session: replays differently")
)

// Refused is an answer or a request a session turned down. It changed
// nothing. Its Refusal carries the stable code, the message and the legal
// options of the decision pending for the asking seat.
type Refused struct{ wire.Refusal }

// badRequest refuses an argument out of range.
func badRequest(format string, args ...any) *Refused {
	return &Refused{wire.Refusal{Code: CodeBadRequest, Message: fmt.Sprintf(format, args...)}}
}

func (r *Refused) Error() string { return "session: refused: " + r.Code + ": " + r.Message }

// Codes of refusals that are the session's own (the rest are the
// engine's monopoly.Refusal codes and the wire's).
const (
	CodeBadToken   = "bad_token"      // no seat holds the token
	CodeNoSeat     = "no_seat"        // the token's seat may not do that
	CodeNotWaited  = "not_waited"     // the seat to decide is a bot: nobody may answer for it
	CodeStale      = "stale_decision" // SubmitAt: the answer is for a decision the game has moved past
	CodeBadRequest = "bad_request"    // an argument out of range, such as an answer index past the log
)

// ID returns the session's id.
func (s *Session) ID() string { return s.id }

// Setup returns the session's setup.
func (s *Session) Setup() Setup {
	st := s.setup
	st.Seats = append([]Seat(nil), s.setup.Seats...)
	return st
}

// Rules returns the session's rules.
func (s *Session) Rules() *monopoly.Rules { return s.c.rules }

// Tokens returns the session's secrets. Only the host that created or
// opened the session may hand them out: each to its own seat.
func (s *Session) Tokens() Tokens {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Tokens{Seats: append([]string(nil), s.tokens.Seats...), Research: s.tokens.Research}
}

// Viewer is who asks: a seat, a spectator (Seat -1), or the research view.
type Viewer struct {
	Seat     int
	Research bool
}

// Spectator is the viewer without a token.
var Spectator = Viewer{Seat: -1}

// viewer resolves a token: "" is a spectator, a seat's token that seat,
// the research token the research view when the host enables it.
func (s *Session) viewer(token string) (Viewer, error) {
	if token == "" {
		return Spectator, nil
	}
	for i, t := range s.tokens.Seats {
		if sameToken(t, token) {
			return Viewer{Seat: i}, nil
		}
	}
	if s.m.opt.Research && s.isResearch(token) {
		return Viewer{Seat: -1, Research: true}, nil
	}
	return Viewer{}, &Refused{wire.Refusal{Code: CodeBadToken, Message: "no seat of session " + s.id + " holds that token"}}
}

// Holds reports whether token is one of the session's: a seat's or the
// research view's (compared in constant time). Hosts ask it before
// letting a caller steer a game it does not play, such as pacing it.
//
// The tokens are set when the session is made and never change, so the
// token checks take no lock: a game whose seat is thinking (Advance holds
// the lock) still answers them.
func (s *Session) Holds(token string) bool {
	return s.isResearch(token) || slices.ContainsFunc(s.tokens.Seats, func(t string) bool { return sameToken(t, token) })
}

// IsResearch reports whether token is the session's research token: the
// creator's, which alone may delete the game.
func (s *Session) IsResearch(token string) bool { return s.isResearch(token) }

// SeesResearch reports whether the holder of token sees the research
// view (every thought and sealed limit): the research token's, or anyone's
// when the creator opened the view to spectators (Setup.Research).
func (s *Session) SeesResearch(token string) bool {
	return s.setup.Research || s.IsResearch(token)
}

func (s *Session) isResearch(token string) bool { return sameToken(s.tokens.Research, token) }

// sameToken compares a secret with what a caller gave, in constant time;
// no secret matches an empty token.
func sameToken(secret, token string) bool {
	return secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(token)) == 1
}

// wireViewer is v as the wire package names viewers: a seat, a
// spectator (-1) or wire.Research.
func (v Viewer) wireViewer() int {
	if v.Research {
		return wire.Research
	}
	return v.Seat
}

// caller resolves token in a session that is usable. Called with s.mu
// held.
func (s *Session) caller(token string) (Viewer, error) {
	if err := s.usable(); err != nil {
		return Viewer{}, err
	}
	return s.viewer(token)
}

// usable fails for a stale session. Called with s.mu held.
func (s *Session) usable() error {
	if s.stale != nil {
		return s.stale
	}
	return nil
}

// newSession makes a session at the start of its game: its setup
// compiled, its bots made, nothing played.
func (m *Manager) newSession(id string, setup Setup) (*Session, error) {
	c, err := setup.compile(m.Lookup)
	if err != nil {
		return nil, err
	}
	agents := setup.players(c)
	s := &Session{m: m, id: id, setup: setup, c: c, digest: wire.NewDigest()}
	s.g = monopoly.New(c.rules, len(setup.Seats), setup.Seed)
	s.g.Record(true)
	s.driver = agent.Driver{Agents: agents, Words: true, Applied: s.applied, Think: s.think}
	s.outside = make([]bool, len(setup.Seats))
	for i, seat := range setup.Seats {
		s.outside[i] = seat.Kind == SeatBot && c.bots[i].Outside
	}
	players := make([]string, len(setup.Seats))
	for i, seat := range setup.Seats {
		players[i] = string(seat.Kind)
		if seat.Kind == SeatBot {
			players[i] = seat.Bot
		}
	}
	for _, a := range agents {
		if st, ok := a.(agent.Seated); ok {
			st.Seat(setup.Names(), players)
		}
	}
	// The first turn started inside New, before recording was on.
	s.add(monopoly.Event{Kind: monopoly.EvTurnStart, Player: int8(s.g.Current()), Amount: int64(s.g.Round())}, -1)
	s.turns = []Turn{{Turn: 0, Round: s.g.Round(), Player: s.g.Current(), At: 0}}
	return s, nil
}

// add appends one event of the play.
func (s *Session) add(e monopoly.Event, entry int) {
	s.events = append(s.events, event{e, entry})
	s.digest.Add(e)
	if e.Kind == monopoly.EvTurnStart && entry >= 0 {
		s.turns = append(s.turns, Turn{Turn: len(s.turns), Round: int(e.Amount), Player: int(e.Player), At: entry + 1})
	}
}

// applied logs an answer the game accepted, with its events: the
// driver's Applied hook, so bots' answers and submitted ones are logged
// alike.
func (s *Session) applied(g *monopoly.Game, seat int, ans agent.Answer) error {
	raw, err := wire.EncodeAction(s.c.rules, ans.Action)
	if err != nil {
		return err
	}
	i := len(s.log)
	s.log = append(s.log, Entry{Seat: seat, Action: raw, Speech: ans.Speech, Thought: ans.Thought, By: s.setup.Seats[seat].by(), At: s.m.now(), Research: ans.Research})
	for _, e := range g.TakeEvents() {
		s.add(e, i)
	}
	return nil
}

// waitingSeat returns the seat the game waits for an answer from
// elsewhere, or -1 (over, or a bot decides).
func (s *Session) waitingSeat() int {
	p := s.g.Decider()
	if p < 0 || !s.setup.Seats[p].Kind.Waits() {
		return -1
	}
	return p
}

// status is the session's Status now.
func (s *Session) status() Status {
	st := Status{Updated: s.m.now(), Entries: len(s.log), Digest: s.digest.Sum(), Turn: s.g.Turn(), Round: s.g.Round(),
		Over: s.g.Over(), Winner: -1, Waiting: s.waitingSeat()}
	switch {
	case st.Over && s.g.Winner() >= 0:
		st.Winner = s.g.Winner()
		st.Summary = fmt.Sprintf("over after %d rounds: %s won", s.g.RoundsPlayed(), s.setup.Seats[st.Winner].Describe())
	case st.Over:
		st.Summary = fmt.Sprintf("over after %d rounds: a tie", s.g.RoundsPlayed())
	case st.Waiting >= 0:
		names := make([]string, len(s.setup.Seats))
		for i, seat := range s.setup.Seats {
			names[i] = seat.Describe()
		}
		st.Summary = fmt.Sprintf("round %d: %s", st.Round, render.Waiting(wire.NewDecision(s.g.View(st.Waiting)), names))
	default:
		st.Summary = fmt.Sprintf("round %d: bots to play", st.Round)
	}
	if s.setup.Trusted {
		st.Summary += " (imported trusted: its signature was not checked)"
	}
	return st
}

// commit makes the log durable and tells the watchers. A failure leaves
// the session stale: what was played here and not stored is dropped, and
// the session must be opened again from the store.
func (s *Session) commit(ctx context.Context) error {
	if s.stored == len(s.log) {
		return nil
	}
	if err := s.m.store.Append(ctx, s.id, s.stored, s.log[s.stored:], s.status()); err != nil {
		return s.fall(err)
	}
	s.setStored()
	s.notify()
	return nil
}

// Progress is what Advance and Submit leave behind.
type Progress struct {
	Played  int  `json:"played"`  // answers played by bots
	Over    bool `json:"over"`    // the game is over
	Waiting int  `json:"waiting"` // the seat that must answer now; -1 when none
	Entries int  `json:"entries"` // the length of the log
	Events  int  `json:"events"`  // the events so far (the next sequence number)
}

func (s *Session) progress(played int) Progress {
	return Progress{Played: played, Over: s.g.Over(), Waiting: s.waitingSeat(), Entries: len(s.log), Events: len(s.events)}
}

// Advance plays the bot seats until a waiting seat must decide or the
// game ends, at most max answers (0: no limit), and commits them.
func (s *Session) Advance(ctx context.Context, max int) (Progress, error) {
	s.play.Lock()
	defer s.play.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return Progress{}, err
	}
	if err := s.current(ctx); err != nil {
		return Progress{}, err
	}
	n, err := s.playBots(ctx, max)
	if err == nil {
		err = s.commit(ctx)
	}
	if err != nil {
		return Progress{}, err
	}
	return s.progress(n), nil
}

// think lets go of the session's lock while a slow player (a program, a
// language model) makes its answer, so that it does not hold up those
// who read the game; s.play, held, keeps the game as it is. What was
// played before is committed first, so that readers see only what is
// stored, and a crash loses no more than the answer being thought.
func (s *Session) think(seat int, thinking bool) {
	switch {
	case thinking && s.outside[seat] && s.commit(s.ctx) == nil:
		s.thawed = true
		s.mu.Unlock()
	case !thinking && s.thawed:
		s.mu.Lock()
		s.thawed = false
	}
}

// playBots runs the bots (at most max answers, 0: no limit). A bot's
// refused action is a bug in the bot; the game cannot go on, and the
// error says so.
func (s *Session) playBots(ctx context.Context, max int) (int, error) {
	s.driver.Max, s.ctx = max, ctx
	defer func() { s.ctx = nil }()
	n, _, err := s.driver.Run(ctx, s.g)
	if err != nil {
		s.commit(ctx) // keep what was played before the bot failed
		return n, fmt.Errorf("session %s: %w", s.id, err)
	}
	return n, nil
}

// SubmitOption tunes Submit.
type SubmitOption func(*submitting)

// submitting is what Submit's options set.
type submitting struct {
	at     int  // the log's length the answer was made for; -1: any
	hold   bool // the bots do not play after the answer
	decode Decoder
}

// Decoder makes the answer for the seat that answers, once its token is
// checked and its turn is known: an answer in some dialect, read against
// the decision asked. Its error is refused as a bad answer, with the
// seat's legal options.
type Decoder func(Asked) (agent.Answer, error)

// Asked is the decision an answer is read against, as Submit's Decoder
// gets it, under the session's lock.
type Asked struct {
	Rules *monopoly.Rules
	Seat  int      // the answering seat
	Names []string // the players' names by seat
	s     *Session
}

// Pending is the seat's Pending (its view, the decision, its options),
// made on demand: a dialect that reads payloads against the legal
// options asks for it; the others never make it.
func (a Asked) Pending() Pending { return a.s.pending(Viewer{Seat: a.Seat}) }

// At makes Submit refuse, with stale_decision, an answer made for the
// decision pending when the log held entries answers (Pending.Entries)
// once the game has moved on: a client that answers late (a second
// click, a retry after a lost reply) does not answer a later decision
// that the same action happens to fit.
func At(entries int) SubmitOption { return func(o *submitting) { o.at = entries } }

// Hold keeps the bots from playing after the answer: it is committed
// and the caller advances the bots at its own pace, as the terminal does
// to show them move by move.
func Hold() SubmitOption { return func(o *submitting) { o.hold = true } }

// Decode makes Submit answer with what d makes for the answering seat
// instead of the answer given: an answer still in a client's dialect,
// read once the seat is known.
func Decode(d Decoder) SubmitOption { return func(o *submitting) { o.decode = d } }

// Submit answers the pending decision for the seat holding token with
// ans and plays the bots on to the next waiting decision (unless Hold),
// committing everything before it returns, all under the session's lock,
// so that nothing is played between the checks and the answer. A refused
// answer is a *Refused, with the legal options, and changes nothing.
func (s *Session) Submit(ctx context.Context, token string, ans agent.Answer, opts ...SubmitOption) (Progress, error) {
	o := submitting{at: -1}
	for _, opt := range opts {
		opt(&o)
	}
	s.play.Lock()
	defer s.play.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.caller(token)
	if err != nil {
		return Progress{}, err
	}
	if err := s.current(ctx); err != nil {
		return Progress{}, err
	}
	if o.at >= 0 && o.at != len(s.log) {
		r := wire.Refusal{Code: CodeStale, Message: fmt.Sprintf(
			"the answer is for the decision after answer %d, but the game has moved on to answer %d: ask for the pending decision again", o.at, len(s.log))}
		if v.Seat >= 0 {
			o := wire.NewOptions(s.g.View(v.Seat))
			r.Options = &o
		}
		return Progress{}, &Refused{r}
	}
	if err := s.mayAnswer(v); err != nil {
		return Progress{}, err
	}
	if o.decode != nil {
		if ans, err = o.decode(Asked{Rules: s.c.rules, Seat: v.Seat, Names: s.setup.Names(), s: s}); err != nil {
			return Progress{}, &Refused{wire.NewRefusal(err, s.g.View(v.Seat))}
		}
	}
	ans.Action.Player = v.Seat
	if err := s.driver.Apply(s.g, v.Seat, ans); err != nil {
		var se *agent.SeatError
		if errors.As(err, &se) {
			err = se.Err
		}
		return Progress{}, &Refused{wire.NewRefusal(err, s.g.View(v.Seat))}
	}
	n := 0
	if !o.hold {
		n, err = s.playBots(ctx, 0)
	}
	if err == nil {
		err = s.commit(ctx)
	}
	if err != nil {
		return Progress{}, err
	}
	return s.progress(n), nil
}

// mayAnswer refuses a viewer that may not answer now. Called with s.mu
// held.
func (s *Session) mayAnswer(v Viewer) error {
	p := s.g.Decider()
	switch {
	case v.Seat < 0:
		return &Refused{wire.Refusal{Code: CodeNoSeat, Message: "a spectator cannot answer: use a seat's token"}}
	case s.g.Over():
		return &Refused{wire.NewRefusal(monopoly.ErrGameOver, s.g.View(v.Seat))}
	case p < 0:
		return &Refused{wire.NewRefusal(monopoly.ErrNoDice, s.g.View(v.Seat))}
	case p != v.Seat && !s.setup.Seats[p].Kind.Waits():
		return &Refused{wire.Refusal{Code: CodeNotWaited, Message: fmt.Sprintf("%s decides %s now and answers by itself: advance the session", s.setup.Seats[p].Describe(), s.g.Pending().Kind)}}
	case p != v.Seat:
		o := wire.NewOptions(s.g.View(v.Seat))
		return &Refused{wire.Refusal{Code: monopoly.RefusalNotYourDecision.String(), Message: fmt.Sprintf("%s decides %s now, not %s", s.setup.Seats[p].Describe(), s.g.Pending().Kind, s.setup.Seats[v.Seat].Name), Options: &o}}
	}
	return nil
}

// Pending is what a seat needs to answer: the decision, and for the seat
// that decides its legal options and the schema of its answer, with the
// seat's view of the game.
type Pending struct {
	Session  string          `json:"session"`
	Seat     int             `json:"seat"` // the asking seat; -1: a spectator
	Entries  int             `json:"entries"`
	Over     bool            `json:"over"`
	YourTurn bool            `json:"your_turn"` // the asking seat must answer now
	Decision wire.Decision   `json:"decision"`
	Options  *wire.Options   `json:"options,omitempty"`
	Schema   json.RawMessage `json:"schema,omitempty"`
	View     wire.Snapshot   `json:"view"`
}

// Pending returns the pending decision as the token's holder may see it.
func (s *Session) Pending(token string) (Pending, error) {
	if token != "" {
		// A player about to answer reads the game as stored; spectators
		// (no token), many, are kept up by the feed alone.
		s.freshen()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.caller(token)
	if err != nil {
		return Pending{}, err
	}
	return s.pending(v), nil
}

// pending is v's Pending now. Called with s.mu held.
func (s *Session) pending(v Viewer) Pending {
	p := Pending{Session: s.id, Seat: v.Seat, Entries: len(s.log), Over: s.g.Over(),
		Decision: wire.NewDecision(s.g.View(v.Seat)), View: wire.NewSnapshot(s.g, v.Seat, s.setup.Names())}
	if v.Seat >= 0 && s.g.Decider() == v.Seat && !p.Over {
		p.YourTurn = true
		o := wire.NewOptions(s.g.View(v.Seat))
		p.Options = &o
		p.Schema = wire.Schema(s.g.Pending().Kind)
	}
	return p
}

// Game returns a copy of the game now, with everything in it: for the
// host (the terminal, tests), never to be shown to a seat as it is.
func (s *Session) Game() *monopoly.Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.g.Clone()
	g.Record(false)
	return g
}

// Now returns a copy of the game now, as Game does, with the length of
// the log it is after, taken together: a position to compute on (the
// chances to win) without replaying the log.
func (s *Session) Now() (*monopoly.Game, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.g.Clone()
	g.Record(false)
	return g, len(s.log)
}

// Status returns the session's status now.
func (s *Session) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status()
}

// Event is an event of the play as one viewer may see it, with the log
// entry that set it off (-1: the start of the game).
type Event struct {
	Entry int        `json:"entry"`
	Event wire.Event `json:"event"`
	// Engine is the same event as the engine's value, for clients in
	// this process that describe events with the rules (monopoly.Rules.Describe).
	Engine monopoly.Event `json:"-"`
}

// History returns up to limit events from sequence number from on, as the
// token's holder may see them, and the sequence number to ask for next.
func (s *Session) History(token string, from, limit int) ([]Event, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.viewer(token)
	if err != nil {
		return nil, from, err
	}
	if from < 0 {
		return nil, from, badRequest("history from %d: sequence numbers start at 0", from)
	}
	end := len(s.events)
	if limit > 0 {
		end = min(end, from+limit)
	}
	var out []Event
	for seq := from; seq < end; seq++ {
		e := s.events[seq]
		ev := e.Event
		if !v.Research {
			ev = ev.For(v.Seat, s.c.rules)
		}
		out = append(out, Event{Entry: e.entry, Event: wire.NewEvent(s.c.rules, e.Event, v.wireViewer(), seq), Engine: ev})
	}
	return out, max(from, end), nil
}

// Log returns the entries of the log from index from on, as the token's
// holder may see them: another seat's thought and research record are
// left out, and so are the sealed cash limits of another seat's offers
// and acceptances
// (monopoly.Action.For); the research view sees everything.
func (s *Session) Log(token string, from int) ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.viewer(token)
	if err != nil {
		return nil, err
	}
	from = max(0, min(from, len(s.log)))
	out := append([]Entry(nil), s.log[from:]...)
	for i := range out {
		e := &out[i]
		if v.Research || e.Seat == v.Seat {
			continue
		}
		// A research record holds the seat's prompts, with its thoughts.
		e.Thought, e.Research = "", nil
		a, err := wire.DecodeAction(s.c.rules, e.Seat, e.Action)
		if err != nil {
			return nil, fmt.Errorf("session %s: entry %d: %w", s.id, from+i, err)
		}
		if e.Action, err = wire.EncodeAction(s.c.rules, a.For(v.Seat, s.c.rules)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Turns returns the turn boundaries so far.
func (s *Session) Turns() []Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Turn(nil), s.turns...)
}

// Subscribe returns a channel that receives a value whenever the session
// changes (answers committed), and a function to stop. A watcher then
// asks History for the events after the last sequence number it saw: a
// slow watcher misses no event, only notifications.
func (s *Session) Subscribe() (<-chan struct{}, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{}, 1)
	if s.subs == nil {
		s.subs = map[chan struct{}]struct{}{}
	}
	s.subs[ch] = struct{}{}
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.subs, ch)
	}
}

// notify tells the watchers. Called with s.mu held.
func (s *Session) notify() {
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default: // one notification pending is enough
		}
	}
}

// GameAt returns the game as it stood after the first at answers of the
// log: the log replayed on the setup, without asking any bot.
func (s *Session) GameAt(at int) (*monopoly.Game, error) {
	r, log, err := s.replica(at)
	if err == nil {
		err = r.replay(log, at, false)
	}
	if err != nil {
		return nil, err
	}
	r.g.Record(false)
	return r.g, nil
}

// replica is a session of s's setup at the start of its game, not
// stored, and s's log, to replay up to answer at (refused when the log
// has no such answer).
func (s *Session) replica(at int) (*Session, []Entry, error) {
	s.mu.Lock()
	setup, log, err := s.setup, s.log, s.usable()
	s.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	if at < 0 || at > len(log) {
		return nil, nil, badRequest("replay to answer %d: session %s has answers 0 to %d", at, s.id, len(log))
	}
	r, err := s.m.newSession(s.id, setup)
	return r, log, err
}

// SnapshotAt returns the view of the token's holder after the first at
// answers. The view now (at: the log's length) is kept from one change
// of the game to the next and shared by its viewers: its cost does not
// grow with the game. An earlier one replays the log.
func (s *Session) SnapshotAt(token string, at int) (wire.Snapshot, error) {
	s.mu.Lock()
	v, err := s.viewer(token)
	if err == nil && at == len(s.log) {
		defer s.mu.Unlock()
		return s.snapshotNow(v.Seat), nil
	}
	s.mu.Unlock()
	if err != nil {
		return wire.Snapshot{}, err
	}
	g, err := s.GameAt(at)
	if err != nil {
		return wire.Snapshot{}, err
	}
	return wire.NewSnapshot(g, v.Seat, s.setup.Names()), nil
}

// snapshotNow is the view of seat (-1: a spectator) now, made once per
// change of the game. Called with s.mu held.
func (s *Session) snapshotNow(seat int) wire.Snapshot {
	if s.now == nil || s.nowAt != len(s.log) {
		s.now, s.nowAt = map[int]wire.Snapshot{}, len(s.log)
	}
	snap, ok := s.now[seat]
	if !ok {
		snap = wire.NewSnapshot(s.g, seat, s.setup.Names())
		s.now[seat] = snap
	}
	return snap
}
