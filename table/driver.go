package table

import (
	"context"
	"errors"
	"log/slog"
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
// both go through Advance, so that a game is moved in one place (and,
// when several processes share a store, one process's driver is what a
// lease would hand over).

// Step is the time between two events at 1×.
const Step = 700 * time.Millisecond

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
	wg     sync.WaitGroup
	mu     sync.Mutex
	games  map[string]*driver
}

// driver paces one game.
type driver struct {
	sess   *session.Session
	speed  float64
	paused bool
	wake   chan struct{} // a change of speed or a step
	steps  int           // steps asked while paused
	events int           // the game's events after the last beat; -1 before the first
}

// NewDrivers returns the drivers of a process, which log their failures
// to log.
func NewDrivers(log *slog.Logger) *Drivers {
	ctx, cancel := context.WithCancel(context.Background())
	return &Drivers{ctx: ctx, cancel: cancel, log: log, games: map[string]*driver{}}
}

// Close stops the drivers and waits for them.
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
		d.pace(sess)
		return nil
	}
	_, err := d.Advance(ctx, sess, 0)
	return err
}

// pace starts pacing sess, a game of bots, unless it is paced or over.
func (d *Drivers) pace(sess *session.Session) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.games[sess.ID()]; ok || sess.Status().Over {
		return
	}
	p := &driver{sess: sess, speed: 1, wake: make(chan struct{}, 1), events: -1}
	d.games[sess.ID()] = p
	d.wg.Add(1)
	go d.play(p)
}

// Pace is how game id is paced now.
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
func (d *Drivers) Set(id string, speed *float64, pause *bool, step bool) (Pace, error) {
	if speed != nil && (*speed < MinSpeed || *speed > MaxSpeed) {
		return Pace{}, &Error{Code: CodeBadInput, Reason: "bad_speed", Err: errors.New("speed: from 0.5 to 5")}
	}
	d.mu.Lock()
	p, ok := d.games[id]
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
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return d.Pace(id), nil
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
// with people).
func (d *Drivers) Advance(ctx context.Context, sess *session.Session, max int) (session.Progress, error) {
	return sess.Advance(ctx, max)
}

// play advances p's game one event per beat until it ends, the drivers
// close or the game is deleted.
func (d *Drivers) play(p *driver) {
	defer d.wg.Done()
	id := p.sess.ID()
	defer d.Stop(id)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		d.mu.Lock()
		if d.games[id] != p {
			d.mu.Unlock()
			return // deleted
		}
		paused, speed, stepping := p.paused, p.speed, p.steps > 0
		if stepping {
			p.steps--
		}
		d.mu.Unlock()
		if !paused || stepping {
			over, err := d.beat(p)
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					d.log.Error("table: pacing", "id", id, "err", err)
				}
				return
			}
			if over {
				return
			}
		}
		wait := time.Duration(float64(Step) / speed)
		if paused && !stepping {
			wait = time.Hour // until woken
		}
		timer.Reset(wait)
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
		prog, err := d.Advance(d.ctx, p.sess, 1)
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
