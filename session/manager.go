package session

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/internal/jsonerr"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// Options configure a Manager.
type Options struct {
	// Research lets a session's research token see every thought and
	// sealed limit. Off, the research token is refused like any unknown
	// token.
	Research bool
	// Now is the clock for log entries (nil: time.Now).
	Now func() time.Time
	// Players looks up the bots the sessions seat, by name: the registry
	// the host passes in, which decides, for one, whether programs
	// (exec:, tcp:, monopyly:) may be seated. Nil: agent.Lookup, every
	// player linked into the program.
	Players func(name string) (agent.Bot, error)
	// Key signs exports and checks the signatures of imports (LoadKey:
	// the data directory's). Nil: exports go unsigned, and imports need
	// Trust.
	Key []byte
}

// Lookup finds a bot in the manager's registry (Options.Players): what
// its sessions seat, and what a host's other runs for the same clients
// (tournaments, experiments, chances to win) may seat.
func (m *Manager) Lookup(name string) (agent.Bot, error) {
	if m.opt.Players != nil {
		return m.opt.Players(name)
	}
	return agent.Lookup(name)
}

// Manager holds the sessions of one process: those in play in memory,
// all of them in its store.
type Manager struct {
	store Store
	opt   Options
	mu    sync.Mutex
	open  map[string]*Session
	// secrets are the manager's own secrets, for a store that keeps none.
	secrets map[string][]byte
}

// NewManager returns a manager of the sessions in st.
func NewManager(st Store, o Options) *Manager {
	return &Manager{store: st, opt: o, open: map[string]*Session{}}
}

// Store returns the manager's store.
func (m *Manager) Store() Store { return m.store }

func (m *Manager) now() time.Time {
	if m.opt.Now != nil {
		return m.opt.Now().UTC()
	}
	return time.Now().UTC()
}

// newID returns a fresh session id: 12 hex digits, short enough to type.
func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newToken returns a fresh secret.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newTokens makes a token for every waiting seat and the research view.
func newTokens(setup Setup) Tokens {
	t := Tokens{Seats: make([]string, len(setup.Seats)), Research: newToken()}
	for i, seat := range setup.Seats {
		if seat.Kind.Waits() {
			t.Seats[i] = newToken()
		}
	}
	return t
}

// Create starts a session with a new id and stores it. Nothing is played
// yet: Advance plays the bots up to the first waiting decision.
func (m *Manager) Create(ctx context.Context, setup Setup) (*Session, error) {
	setup.Seats = slices.Clone(setup.Seats)
	// Only a fork and an import say these, of answers made elsewhere.
	setup.Trusted = false
	for i := range setup.Seats {
		setup.Seats[i].Since = 0
	}
	s, err := m.newSession(newID(), setup)
	if err != nil {
		return nil, err
	}
	s.tokens = newTokens(s.setup)
	return s, m.store1(ctx, s)
}

// store1 stores a new session, with the log it starts with, and opens it.
func (m *Manager) store1(ctx context.Context, s *Session) error {
	if s.created.IsZero() {
		s.created = m.now()
	}
	setup, err := json.Marshal(s.setup)
	if err != nil {
		return err
	}
	tokens, err := json.Marshal(s.tokens)
	if err != nil {
		return err
	}
	rec := Record{ID: s.id, Version: FormatVersion, Setup: setup, Tokens: tokens, Parent: s.parent, Created: s.created, Status: s.status()}
	if err := m.store.Create(ctx, rec, s.log); err != nil {
		return err
	}
	s.setStored()
	m.mu.Lock()
	m.open[s.id] = s
	m.mu.Unlock()
	return nil
}

// Open returns the session with the given id: the one in play here, or
// the stored one, replayed and checked against the digest stored with it.
func (m *Manager) Open(ctx context.Context, id string) (*Session, error) {
	m.mu.Lock()
	s := m.open[id]
	m.mu.Unlock()
	if s != nil {
		return s, nil
	}
	rec, log, err := m.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	s, err = m.restore(rec, log)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.open[id]; t != nil { // opened meanwhile by another caller
		return t, nil
	}
	m.open[id] = s
	return s, nil
}

// restore rebuilds a stored session and checks it replays as recorded.
func (m *Manager) restore(rec Record, log []Entry) (*Session, error) {
	if rec.Version > FormatVersion || rec.Version < 1 {
		return nil, fmt.Errorf("session %s: format version %d; this gopoly reads version %d", rec.ID, rec.Version, FormatVersion)
	}
	var setup Setup
	if err := strictJSON(rec.Setup, &setup); err != nil {
		return nil, fmt.Errorf("session %s: setup: %w", rec.ID, err)
	}
	if rec.Version < 2 {
		setup.inferSince(log)
	}
	s, err := m.newSession(rec.ID, setup)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", rec.ID, err)
	}
	if err := strictJSON(rec.Tokens, &s.tokens); err != nil || len(s.tokens.Seats) != len(setup.Seats) {
		return nil, fmt.Errorf("session %s: tokens: %v", rec.ID, err)
	}
	s.parent, s.created = rec.Parent, rec.Created
	if err := s.replay(log, len(log), true); err != nil {
		return nil, err
	}
	if rec.Status.Digest != "" && rec.Status.Digest != s.digest.Sum() {
		return nil, fmt.Errorf("%w: session %s: its %d answers give digest %s on this engine, not the stored %s",
			ErrReplay, rec.ID, len(log), s.digest.Sum(), rec.Status.Digest)
	}
	s.setStored()
	return s, nil
}

// replay plays log[:n] into a session at its start. Bots are asked at
// each of their decisions, so that they reach the state they had; warm
// also checks that a bot answers as it did, words included, for every
// entry from the seat's Since on, whatever the entry's By says: By is
// checked too, but it is part of what an edited file could change.
func (s *Session) replay(log []Entry, n int, warm bool) error {
	for i, e := range log[:n] {
		if e.Seat < 0 || e.Seat >= len(s.setup.Seats) {
			return fmt.Errorf("%w: session %s: entry %d: no seat %d", ErrReplay, s.id, i, e.Seat)
		}
		seat := s.setup.Seats[e.Seat]
		if i >= seat.Since && e.By != seat.by() {
			return fmt.Errorf("%w: session %s: entry %d is by %q, but %s plays seat %d", ErrReplay, s.id, i, e.By, seat.Describe(), e.Seat)
		}
		if p := s.g.Decider(); p != e.Seat {
			return fmt.Errorf("%w: session %s: entry %d answers for seat %d, but seat %d decides", ErrReplay, s.id, i, e.Seat, p)
		}
		a, err := wire.DecodeAction(s.c.rules, e.Seat, e.Action)
		if err != nil {
			return fmt.Errorf("%w: session %s: entry %d: %w", ErrReplay, s.id, i, err)
		}
		ans := agent.Answer{Action: a, Speech: e.Speech, Thought: e.Thought, Research: e.Research}
		if r, ok := s.driver.Agents[e.Seat].(agent.Replayer); ok {
			// A language model is not asked again: it is told what it
			// answered, so that a replay calls no model.
			r.Replay(s.g.View(e.Seat), s.g.Pending(), ans)
		} else if bot := s.driver.Agents[e.Seat]; warm && bot != nil && !s.outside[e.Seat] {
			// A program outside gopoly answers as it likes: its logged
			// answers stand, and it is not asked again (nor started).
			// Answers before Since were another player's, who is not
			// seated to be asked.
			mine := agent.Respond(bot, s.g.View(e.Seat), s.g.Pending(), s.driver.Words)
			switch {
			case i < seat.Since:
			case !sameAction(mine.Action, a):
				return fmt.Errorf("%w: session %s: entry %d: %s answered %s then, %s now", ErrReplay, s.id, i,
					seat.Describe(), e.Action, encode(s.c.rules, mine.Action))
			case mine.Speech != e.Speech || mine.Thought != e.Thought:
				return fmt.Errorf("%w: session %s: entry %d: %s said %q (thinking %q) then, %q (thinking %q) now", ErrReplay, s.id, i,
					seat.Describe(), e.Speech, e.Thought, mine.Speech, mine.Thought)
			}
		}
		if err := s.driver.Apply(s.g, e.Seat, ans); err != nil {
			return fmt.Errorf("%w: session %s: entry %d: %w", ErrReplay, s.id, i, err)
		}
		last := &s.log[len(s.log)-1]
		last.By, last.At = e.By, e.At
	}
	return nil
}

func encode(r *monopoly.Rules, a monopoly.Action) string {
	b, err := wire.EncodeAction(r, a)
	if err != nil {
		return a.Kind.String()
	}
	return string(b)
}

// sameAction compares actions, offers by value. An offer's From is not
// compared: the wire does not carry it (the proposer is the seat that
// answers), and a bot may leave it to the engine.
func sameAction(a, b monopoly.Action) bool {
	if a.Offer != nil && b.Offer != nil {
		oa, ob := *a.Offer, *b.Offer
		oa.From, ob.From = 0, 0
		if oa != ob {
			return false
		}
		a.Offer, b.Offer = nil, nil
	}
	return a == b
}

// forget drops a session from memory (it stays in the store).
func (m *Manager) forget(s *Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.open[s.id] == s {
		delete(m.open, s.id)
	}
}

// List returns the stored sessions, newest first.
func (m *Manager) List(ctx context.Context) ([]Record, error) { return m.store.List(ctx) }

// Delete removes a session from memory and from the store.
func (m *Manager) Delete(ctx context.Context, id string) error {
	m.mu.Lock()
	s := m.open[id]
	delete(m.open, id)
	m.mu.Unlock()
	if s != nil {
		// s.mu after m.mu is let go: a session's commit, holding s.mu,
		// takes m.mu to forget itself, and the other order would deadlock.
		s.mu.Lock()
		s.stale = fmt.Errorf("%w: session %s was deleted", ErrStale, id)
		s.mu.Unlock()
	}
	return m.store.Delete(ctx, id)
}

// Fork starts a new session from session id's state after its first at
// answers, with seats changed where seats gives a seat (nil, or a seat
// with no Kind, keeps it: a bot may be replaced by a person, or the
// reverse). The source is not changed.
func (m *Manager) Fork(ctx context.Context, id string, at int, seats []Seat) (*Session, error) {
	src, err := m.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	src.mu.Lock()
	setup, log, err := src.Setup(), slices.Clone(src.log), src.usable()
	src.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if at < 0 || at > len(log) {
		return nil, badRequest("fork at %d: session %s has answers 0 to %d", at, id, len(log))
	}
	if len(seats) > len(setup.Seats) {
		return nil, badRequest("fork: %d seats for a %d-player game", len(seats), len(setup.Seats))
	}
	for i, seat := range seats {
		if seat.Kind != "" {
			if seat.Name == "" {
				seat.Name = setup.Seats[i].Name
			}
			old := setup.Seats[i]
			seat.Since = at // the answers inherited were another player's
			if seat.Kind == old.Kind && seat.Bot == old.Bot && seat.Params == old.Params {
				seat.Since = old.Since
			}
			setup.Seats[i] = seat
		}
	}
	for i := range setup.Seats {
		// A seat's player answers from Since on; the fork's log past at
		// is its own.
		setup.Seats[i].Since = min(setup.Seats[i].Since, at)
	}
	s, err := m.newSession(newID(), setup)
	if err != nil {
		return nil, err
	}
	s.parent = id
	s.tokens = newTokens(s.setup)
	if err := s.replay(log, at, true); err != nil {
		return nil, err
	}
	return s, m.store1(ctx, s)
}

// Export returns the session as one JSON document, its setup and log: the
// PGN of gopoly. Thoughts are kept; seat tokens are not. It is signed
// with the manager's Key, if it has one.
func (s *Session) Export() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := exported{Format: exportFormat, Version: FormatVersion, ID: s.id, Parent: s.parent, Created: s.created,
		Setup: s.setup, Digest: s.digest.Sum(), Log: make([]exportedEntry, len(s.log))}
	for i, e := range s.log {
		x.Log[i] = exportedEntry(e)
	}
	if key := s.m.opt.Key; len(key) > 0 {
		sig, err := x.sign(key)
		if err != nil {
			return nil, err
		}
		x.Signature = sig
	}
	return json.MarshalIndent(x, "", "  ")
}

const exportFormat = "gopoly-session"

type exported struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	ID      string          `json:"id"`
	Parent  string          `json:"parent,omitempty"`
	Created time.Time       `json:"created"`
	Setup   Setup           `json:"setup"`
	Digest  string          `json:"digest"` // a consistency check, not a proof of origin (see sign.go)
	Log     []exportedEntry `json:"log"`
	// Signature is the HMAC of the rest (see sign), under the exporting
	// data directory's key; "" when unsigned.
	Signature string `json:"signature,omitempty"`
}

// exportedEntry is an Entry under the export's JSON names. The two are
// converted into each other rather than copied field by field, so that a
// field added to one does not compile until the other has it too.
type exportedEntry struct {
	Seat     int             `json:"seat"`
	Action   json.RawMessage `json:"action"`
	Speech   string          `json:"speech,omitempty"`
	Thought  string          `json:"thought,omitempty"`
	By       string          `json:"by"`
	At       time.Time       `json:"at"`
	Research json.RawMessage `json:"research,omitempty"`
}

// Import stores an exported session, replayed and checked against its
// digest. Its signature must check out with the manager's Key unless
// Trust is given; either way the setup (rules, seed, seats) is replayed
// with the log, and every bot seat's answer is the one its bot gives
// (see replay). It keeps its id unless a session here has it already;
// seat tokens are new. A refused import stores nothing.
func (m *Manager) Import(ctx context.Context, data []byte, opts ...ImportOption) (*Session, error) {
	var o importing
	for _, opt := range opts {
		opt(&o)
	}
	var x exported
	if err := strictJSON(data, &x); err != nil {
		return nil, fmt.Errorf("session: import: %w", err)
	}
	switch {
	case x.Format != exportFormat:
		return nil, fmt.Errorf("session: import: format %q, want %q", x.Format, exportFormat)
	case x.Version < 1 || x.Version > FormatVersion:
		return nil, fmt.Errorf("session: import: version %d; this gopoly reads version %d", x.Version, FormatVersion)
	}
	unchecked := !x.signedBy(m.opt.Key)
	if unchecked && !o.trust {
		why := "it was changed after it was exported, or exported from another data directory"
		switch {
		case len(m.opt.Key) == 0:
			why = "there is no key here to check it with"
		case x.Signature == "":
			why = "it is not signed"
		}
		return nil, fmt.Errorf("%w: %s", ErrSignature, why)
	}
	x.Setup.Trusted = x.Setup.Trusted || unchecked
	id := x.ID
	if _, _, err := m.store.Load(ctx, id); id == "" || !errors.Is(err, ErrNotFound) {
		id = newID()
	}
	s, err := m.newSession(id, x.Setup)
	if err != nil {
		return nil, fmt.Errorf("session: import: %w", err)
	}
	s.parent, s.tokens = x.Parent, newTokens(s.setup)
	log := make([]Entry, len(x.Log))
	for i, e := range x.Log {
		log[i] = Entry(e)
	}
	if err := s.replay(log, len(log), true); err != nil {
		return nil, fmt.Errorf("session: import: %w", err)
	}
	if x.Digest != s.digest.Sum() {
		return nil, fmt.Errorf("%w: session: import: %d answers give digest %s on this engine, not the exported %s", ErrReplay, len(log), s.digest.Sum(), x.Digest)
	}
	s.created = x.Created
	return s, m.store1(ctx, s)
}

// strictJSON decodes data into v, refusing unknown fields and trailing
// data, with the line and column of a syntax error.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data after the document")
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := jsonerr.Pos(data, int64(len(data)))
		return fmt.Errorf("line %d, column %d: the document ends early", line, col)
	case errors.As(err, &se):
		line, col := jsonerr.Pos(data, se.Offset)
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	case errors.As(err, &te):
		line, col := jsonerr.Pos(data, te.Offset)
		return fmt.Errorf("line %d, column %d: field %s: %w", line, col, te.Field, err)
	}
	return err
}
