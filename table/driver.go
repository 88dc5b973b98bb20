package table

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/gopoly/gopoly/session"
)

// A game of bots alone would be played to its end in a moment; its
// driver plays it one event at a time so that people can watch it, at a
// speed anyone holding one of its tokens sets: paused (and stepped), or
// 0.5× to 5×. Games with people need no pacing: the bots answer at once
// and the front ends show their moves as they come.
//
// Drivers keeps one driver per game in this process, the one loop that
// plays its bots on its own: the browser's pacing and MCP's advance_game
// both go through Drivers, so that a game is moved in one place. When
// several processes share a store, which of them drives a game is a lease
// in the store (session.Leases): the driver that holds it plays, renewing
// it every LeaseTTL/3; the others' drivers watch (their sessions kept up
// by the store's feed) and ask for it as often, so that one of them takes
// over within LeaseTTL of a process dying. A lease that lapses while its
// holder still plays (a process frozen longer than LeaseTTL) costs no
// consistency: the store refuses an append that does not continue the log
// (session.ErrConflict), so that two drivers can never both add to it.

// Step is the time between two events at 1×.
const Step = 700 * time.Millisecond

// LeaseTTL is how long a process's lease on driving a game lasts
// unrenewed: the longest a game of a process that died waits for another
// to take it over. Shorter, and a process that stalls (a long pause of
// the machine, a slow database) loses its games more often.
const LeaseTTL = 5 * time.Second

// renewEvery is how often a driver renews its lease, and how often one
// that watches asks for it: three tries before a lease lapses, so that
// one slow round trip does not lose it.
const renewEvery = LeaseTTL / 3

// Speeds a paced game takes.
const (
	MinSpeed = 0.5
	MaxSpeed = 5
)

// Pace is how a game is paced.
type Pace struct {
	Paced  bool    `json:"paced"` // a game of bots the server plays at a speed
	Speed  float64 `json:"speed"`
	Paused bool    `json:"paused"`
}

// Drivers are the drivers of the games of one process.
type Drivers struct {
	ctx    context.Context
	cancel context.CancelFunc
	log    *slog.Logger
	owner  string // who holds this process's leases: unique to these drivers
	wg     sync.WaitGroup
	mu     sync.Mutex
	games  map[string]*driver
}

// driver paces one game.
type driver struct {
	sess    *session.Session // replaced by the game reopened when it falls stale
	speed   float64
	paused  bool
	wake    chan struct{} // a change of speed or a step
	steps   int           // steps asked while paused
	events  int           // the game's events after the last beat; -1 before the first
	held    bool          // this process holds the game's lease (under the drivers' lock)
	watched bool          // the store last said another process holds the lease
	renewed time.Time     // when the lease was last taken or renewed (the pacer's own)
	seen    int64         // the store's count of steps asked, as last adopted
}

// ErrDrivenElsewhere is Advance's refusal while another process holds the
// game's lease.
var ErrDrivenElsewhere = errors.New("another process drives this game's bots: watch it, or ask again once it stops")

// NewDrivers returns the drivers of a process, which log their failures
// to log (nil: slog.Default()).
func NewDrivers(log *slog.Logger) *Drivers {
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	host, _ := os.Hostname()
	owner := fmt.Sprintf("%s/%d/%s", host, os.Getpid(), rand.Text()[:10])
	return &Drivers{ctx: ctx, cancel: cancel, log: log, owner: owner, games: map[string]*driver{}}
}

// Owner names these drivers as the holder of their leases: the host, the
// process id and a random part.
func (d *Drivers) Owner() string { return d.owner }

// Close stops the drivers, waits for them, and gives up their leases, so
// that another process takes their games over at once.
func (d *Drivers) Close() {
	d.cancel()
	d.wg.Wait()
}

// AllBots reports whether every seat of setup is a bot: a game that is
// paced.
func AllBots(setup session.Setup) bool {
	for _, seat := range setup.Seats {
		if seat.Kind.Waits() {
			return false
		}
	}
	return true
}

// Begin sets a new (or reopened) game going: a game of bots is paced at
// 1× unless it is already; in a game with people the bots play up to the
// first person's decision.
func (d *Drivers) Begin(ctx context.Context, sess *session.Session) error {
	if AllBots(sess.Setup()) {
		shared, _, err := sess.SharedPace(ctx)
		if err != nil {
			return err
		}
		d.pace(sess, shared)
		return nil
	}
	_, err := d.Advance(ctx, sess, 0)
	return err
}

// pace starts pacing sess, a game of bots, unless it is paced or over,
// as shared says (the pace the store keeps; zero: none, 1×).
func (d *Drivers) pace(sess *session.Session, shared session.Paced) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.games[sess.ID()]; ok || sess.Status().Over {
		return
	}
	p := &driver{sess: sess, speed: 1, wake: make(chan struct{}, 1), events: -1, seen: shared.Steps}
	if shared.Speed > 0 {
		p.speed, p.paused = shared.Speed, shared.Paused
	}
	d.games[sess.ID()] = p
	d.wg.Add(1)
	go d.play(p)
}

// Pace is how game id is paced now by this process (which drives it, or
// would if it took the game over).
func (d *Drivers) Pace(id string) Pace {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.games[id]
	if !ok {
		return Pace{}
	}
	return Pace{Paced: true, Speed: p.speed, Paused: p.paused}
}

// Set changes a paced game's speed (nil: kept), pauses or resumes it
// (nil: kept), or plays one step (pausing it). It fails with CodeConflict
// when the game is not paced, and CodeBadInput for a speed out of range.
// The pace is the store's, for every process: the one that drives the
// game plays as asked, whichever process was asked.
func (d *Drivers) Set(id string, speed *float64, pause *bool, step bool) (Pace, error) {
	if speed != nil && (*speed < MinSpeed || *speed > MaxSpeed) {
		return Pace{}, &Error{Code: CodeBadInput, Reason: "bad_speed", Err: errors.New("speed: from 0.5 to 5")}
	}
	d.mu.Lock()
	p, ok := d.games[id]
	d.mu.Unlock()
	if ok {
		if step {
			yes := true
			pause = &yes
		}
		ctx, cancel := context.WithTimeout(d.ctx, renewEvery)
		shared, kept, err := p.sess.SetSharedPace(ctx, speed, pause, step)
		cancel()
		if err != nil {
			return Pace{}, err
		}
		if kept {
			d.mu.Lock()
			p.adopt(shared)
			d.mu.Unlock()
			d.poke(p)
			return d.Pace(id), nil
		}
	}
	d.mu.Lock()
	p, ok = d.games[id]
	if ok {
		if speed != nil {
			p.speed = *speed
		}
		if pause != nil {
			p.paused = *pause
		}
		if step {
			p.paused = true
			p.steps++
		}
	}
	d.mu.Unlock()
	if !ok {
		return Pace{}, &Error{Code: CodeConflict, Reason: "not_paced", Err: errors.New("this game is not paced: it has people at the table, or it is over")}
	}
	d.poke(p)
	return d.Pace(id), nil
}

// poke wakes p's pacer for a change of its pace.
func (d *Drivers) poke(p *driver) {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// adopt takes the store's pace: its speed, its pause, and the steps asked
// since the last adopted. Called with the drivers' lock held.
func (p *driver) adopt(shared session.Paced) {
	p.speed, p.paused = shared.Speed, shared.Paused
	if shared.Steps > p.seen {
		p.steps += int(shared.Steps - p.seen)
		p.seen = shared.Steps
	}
}

// follow adopts the pace the store keeps, if it keeps one: a change
// asked of another process.
func (d *Drivers) follow(p *driver) {
	shared, ok, err := p.sess.SharedPace(d.ctx)
	if err != nil || !ok {
		return
	}
	d.mu.Lock()
	p.adopt(shared)
	d.mu.Unlock()
}

// Stop stops pacing game id (a deleted game).
func (d *Drivers) Stop(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.games, id)
}

// Advance plays sess's bots until a waiting seat must decide or the game
// ends, at most max answers (0: no limit), and commits them: what a
// front end asks of a game it steers itself (advance_game, a new game
// with people). It fails with CodeConflict (driven_elsewhere) while
// another process holds the game's lease; it takes the lease for the
// call otherwise, unless this process's pacer holds it.
func (d *Drivers) Advance(ctx context.Context, sess *session.Session, max int) (session.Progress, error) {
	d.mu.Lock()
	p := d.games[sess.ID()]
	held := p != nil && p.held
	d.mu.Unlock()
	if !held {
		ok, err := sess.Lease(ctx, d.owner, LeaseTTL)
		if err != nil {
			return session.Progress{}, err
		}
		if !ok {
			return session.Progress{}, &Error{Code: CodeConflict, Reason: "driven_elsewhere", Err: ErrDrivenElsewhere}
		}
		defer sess.Release(context.WithoutCancel(ctx), d.owner)
		// The last driver may have played on since this process heard.
		if err := sess.Sync(ctx); err != nil {
			return session.Progress{}, err
		}
	}
	return sess.Advance(ctx, max)
}

// play advances p's game one event per beat, while it holds the game's
// lease, until the game ends, the drivers close or the game is deleted;
// it then gives up the lease.
func (d *Drivers) play(p *driver) {
	defer d.wg.Done()
	id := p.sess.ID()
	defer d.Stop(id)
	defer func() {
		// Given up at once, not left to lapse: another process's pacer
		// takes the game over at its next ask.
		if d.holding(p) {
			ctx, cancel := context.WithTimeout(context.Background(), renewEvery)
			defer cancel()
			p.sess.Release(ctx, d.owner)
		}
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		held := d.hold(p)
		d.follow(p)
		d.mu.Lock()
		if d.games[id] != p {
			d.mu.Unlock()
			return // deleted
		}
		paused, speed, stepping := p.paused, p.speed, p.steps > 0
		if stepping && held {
			p.steps--
		}
		d.mu.Unlock()
		if held && (!paused || stepping) {
			over, err := d.beat(p)
			switch {
			case errors.Is(err, session.ErrStale):
				// Another process played on (this one froze past its
				// lease): the game as stored is the one to drive or watch.
				d.log.Warn("table: pacing: the game moved on elsewhere", "id", id, "err", err)
				if !d.reopen(p) {
					return
				}
			case err != nil:
				if !errors.Is(err, context.Canceled) {
					d.log.Error("table: pacing", "id", id, "err", err)
				}
				return
			case over:
				return
			}
		}
		if over := p.sess.Status().Over; over && !held {
			return // played to its end by another process
		}
		wait := time.Duration(float64(Step) / speed)
		if !held || (paused && !stepping) {
			wait = renewEvery // until woken, renewing or asking for the lease
		}
		timer.Reset(min(wait, renewEvery))
		select {
		case <-d.ctx.Done():
			return
		case <-p.wake:
			if !timer.Stop() {
				<-timer.C
			}
		case <-timer.C:
		}
	}
}

// beat plays bot answers until the game has a new event, ends, or waits
// for a person. Answers that change nothing visible (a bot's building
// checks) are played in the same beat.
func (d *Drivers) beat(p *driver) (over bool, err error) {
	for range 1000 {
		prog, err := p.sess.Advance(d.ctx, 1)
		if err != nil {
			return false, err
		}
		// A beat ends with a new event (the first beat with one answer),
		// the game's end, a person to wait for, or nothing to play.
		seen := p.events
		p.events = prog.Events
		if prog.Events > seen || prog.Over || prog.Waiting >= 0 || prog.Played == 0 {
			return prog.Over, nil
		}
	}
	return false, nil
}

// hold takes or renews p's lease when due and reports whether this
// process holds it. A lease newly taken is a game another process may
// have played on: it is caught up first.
func (d *Drivers) hold(p *driver) bool {
	now := time.Now()
	if d.holding(p) && now.Sub(p.renewed) < renewEvery {
		return true
	}
	ok, err := p.sess.Lease(d.ctx, d.owner, LeaseTTL)
	if err != nil {
		// Not a lease held for sure: no beat until the store answers.
		if !errors.Is(err, context.Canceled) {
			d.log.Warn("table: lease", "id", p.sess.ID(), "err", err)
		}
		ok = false
	}
	if ok && !d.holding(p) {
		if err := p.sess.Sync(d.ctx); err != nil {
			if !errors.Is(err, session.ErrStale) || !d.reopen(p) {
				p.sess.Release(d.ctx, d.owner)
				return false
			}
		}
	}
	if ok {
		p.renewed = now
	}
	d.mu.Lock()
	if ok && p.watched {
		// Steps adopted while another process drove were its to play; a
		// lease that only failed to renew (a busy store) keeps its steps.
		p.steps = 0
	}
	if err == nil {
		p.watched = !ok
	}
	p.held = ok
	d.mu.Unlock()
	return ok
}

// holding reports whether p's lease is held here.
func (d *Drivers) holding(p *driver) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return p.held
}

// reopen replaces p's stale session by the game as stored; false if it
// cannot be opened (deleted, or the drivers closed).
func (d *Drivers) reopen(p *driver) bool {
	sess, err := p.sess.Reopen(d.ctx)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			d.log.Error("table: pacing: reopen", "id", p.sess.ID(), "err", err)
		}
		return false
	}
	p.sess, p.events = sess, -1
	d.mu.Lock()
	p.held, p.watched = false, true // another process played on
	d.mu.Unlock()
	return true
}
