package session

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Several processes may share a store: the front ends of a public table
// behind a load balancer. A store with a Feed tells every process of the
// answers each commits, and Follow keeps the sessions open here up with
// them, so that a spectator here sees a move made elsewhere as soon as a
// local one. A store without one (SQLite) serves one process: a session
// there that falls behind finds out at its next append (ErrConflict).

// Follow keeps the sessions open in this manager up with the answers
// other processes commit to its store, until ctx ends; it returns at
// once, with nil, for a store without a feed. Its error is the feed's
// (a store it cannot listen to).
func (m *Manager) Follow(ctx context.Context) error {
	feed, ok := m.store.(Feed)
	if !ok {
		return nil
	}
	return feed.Follow(ctx, func(c Change) { m.changed(ctx, c) })
}

// changed catches up the session c is about, if it is open here and
// behind; with no session named (changes may have been missed), every
// open session.
func (m *Manager) changed(ctx context.Context, c Change) {
	m.mu.Lock()
	var behind []*Session
	if c.ID == "" {
		for _, s := range m.open {
			behind = append(behind, s)
		}
	} else if s := m.open[c.ID]; s != nil && int64(c.Entries) > s.storedN.Load() {
		// This process's own appends are heard too: they are not behind.
		behind = append(behind, s)
	}
	m.mu.Unlock()
	for _, s := range behind {
		s.behind.kick(ctx, s)
	}
}

// catchUp runs a session's Sync in the background, one at a time: the
// feed's goroutine is not held up by a slow one, and changes heard while
// one runs make one more, not one each.
type catchUp struct {
	mu      sync.Mutex
	running bool
	again   bool
}

// kick makes s Sync soon.
func (c *catchUp) kick(ctx context.Context, s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		c.again = true
		return
	}
	c.running = true
	go func() {
		for {
			if err := s.Sync(ctx); err != nil && ctx.Err() == nil {
				slog.Debug("session: catching up", "id", s.id, "err", err)
			}
			c.mu.Lock()
			if !c.again {
				c.running = false
				c.mu.Unlock()
				return
			}
			c.again = false
			c.mu.Unlock()
		}
	}()
}

// tailer is a store that loads the tail of a log (every Feed does).
type tailer interface {
	LoadFrom(ctx context.Context, id string, from int) (Record, []Entry, error)
}

// Sync brings the session up to its store: the answers committed
// elsewhere since its own last commit are replayed here (its bots asked
// again, as when a session is opened, and the digest checked), and its
// watchers told. A store that cannot be read leaves the session as it
// was; answers that do not replay leave it stale.
func (s *Session) Sync(ctx context.Context) error {
	s.play.Lock()
	defer s.play.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.catchUp(ctx)
}

// current catches the session up if the store holds more than it does:
// what a seat reads to answer, and its answer, must be of the game as
// stored, not as this process last heard of it (its feed may lag the
// client that played elsewhere a moment ago). Nothing for a store without
// a feed. Called with s.play and s.mu held.
func (s *Session) current(ctx context.Context) error {
	feed, ok := s.m.store.(Feed)
	if !ok {
		return nil
	}
	n, err := feed.Entries(ctx, s.id)
	if err != nil || n <= s.stored {
		return err
	}
	return s.catchUp(ctx)
}

// freshen is current for a reader, who holds no lock: a failure leaves
// the game as this process has it.
func (s *Session) freshen() {
	feed, ok := s.m.store.(Feed)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), freshenTimeout)
	defer cancel()
	if n, err := feed.Entries(ctx, s.id); err == nil && int64(n) > s.storedN.Load() {
		s.Sync(ctx)
	}
}

// freshenTimeout bounds freshen's look at the store: a reader served a
// moment late is better than one kept waiting.
const freshenTimeout = 2 * time.Second

// catchUp is Sync with s.play and s.mu held.
func (s *Session) catchUp(ctx context.Context) error {
	if err := s.usable(); err != nil {
		return err
	}
	var rec Record
	var tail []Entry
	var err error
	if t, ok := s.m.store.(tailer); ok {
		rec, tail, err = t.LoadFrom(ctx, s.id, s.stored)
	} else {
		var log []Entry
		rec, log, err = s.m.store.Load(ctx, s.id)
		tail = log[min(s.stored, len(log)):]
	}
	if err != nil {
		return err
	}
	if len(tail) == 0 {
		return nil
	}
	if len(s.log) != s.stored {
		// Unreachable with play held (what is played is committed before
		// play is let go); kept so that a log here and one there are
		// never mixed.
		return s.fall(fmt.Errorf("%d answers played here are not stored", len(s.log)-s.stored))
	}
	if err := s.replay(tail, len(tail), true); err != nil {
		return s.fall(err)
	}
	if rec.Status.Digest != "" && rec.Status.Digest != s.digest.Sum() {
		return s.fall(fmt.Errorf("%w: its %d answers give digest %s here, not the stored %s", ErrReplay, len(s.log), s.digest.Sum(), rec.Status.Digest))
	}
	s.setStored()
	s.notify()
	return nil
}

// fall makes the session stale for err and forgets it: it is opened
// again from the store. Its watchers are told, so that they move to the
// game reopened (Err, Reopen). Called with s.mu held.
func (s *Session) fall(err error) error {
	s.stale = fmt.Errorf("%w: session %s: %w", ErrStale, s.id, err)
	s.m.forget(s)
	s.notify()
	return s.stale
}

// Err is nil while the session is usable, and ErrStale wrapped once it
// fell behind its store: every change fails then, and Reopen gives the
// game as stored.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usable()
}

// setStored marks the whole log durable. Called with s.mu held.
func (s *Session) setStored() {
	s.stored = len(s.log)
	s.storedN.Store(int64(s.stored))
}

// Reopen returns the game's session as the manager has it now: s itself,
// or, once s fell stale, the game opened again from the store.
func (s *Session) Reopen(ctx context.Context) (*Session, error) {
	return s.m.Open(ctx, s.id)
}

// leaseName is the name of the lease on driving game id.
func leaseName(id string) string { return "drive " + id }

// Lease takes or renews owner's lease on driving the game's bots, for
// ttl: false while another owner holds it. A store without leases serves
// one process, whose drivers take turns in memory: it always says yes.
func (s *Session) Lease(ctx context.Context, owner string, ttl time.Duration) (bool, error) {
	l, ok := s.m.store.(Leases)
	if !ok {
		return true, nil
	}
	return l.Lease(ctx, leaseName(s.id), owner, ttl)
}

// Release gives up owner's lease on driving the game, for another
// process to take at once.
func (s *Session) Release(ctx context.Context, owner string) error {
	l, ok := s.m.store.(Leases)
	if !ok {
		return nil
	}
	return l.Release(ctx, leaseName(s.id), owner)
}

// Secret returns the secret name shared by every process of the store (a
// front end's signing key), or, for a store that keeps none, one of this
// manager's own, made once.
func (m *Manager) Secret(ctx context.Context, name string) ([]byte, error) {
	if sec, ok := m.store.(Secrets); ok {
		return sec.Secret(ctx, name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.secrets == nil {
		m.secrets = map[string][]byte{}
	}
	if b, ok := m.secrets[name]; ok {
		return b, nil
	}
	b := make([]byte, 32)
	rand.Read(b)
	m.secrets[name] = b
	return b, nil
}

// paceName is the name of game id's pace in the store.
func paceName(id string) string { return "pace " + id }

// SharedPace returns how the game is paced as the store keeps it for
// every process; false when it keeps none (never set here or elsewhere,
// or a store without paces).
func (s *Session) SharedPace(ctx context.Context) (Paced, bool, error) {
	ps, ok := s.m.store.(Paces)
	if !ok {
		return Paced{}, false, nil
	}
	return ps.Pace(ctx, paceName(s.id))
}

// SetSharedPace changes the game's pace in the store (Paces.SetPace);
// false, with nothing changed, for a store without paces.
func (s *Session) SetSharedPace(ctx context.Context, speed *float64, paused *bool, step bool) (Paced, bool, error) {
	ps, ok := s.m.store.(Paces)
	if !ok {
		return Paced{}, false, nil
	}
	p, err := ps.SetPace(ctx, paceName(s.id), speed, paused, step)
	return p, err == nil, err
}
