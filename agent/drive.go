package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gopoly/gopoly/monopoly"
)

// Asker is a player that answers later: a person, a language model, an
// MCP client, a program elsewhere. Ask returns the answer to d, or an
// error when the player fails or ctx ends first. Bots are Agents, which
// answer at once and cost the decision loop nothing more.
type Asker interface {
	Ask(ctx context.Context, v monopoly.View, d monopoly.Decision) (Answer, error)
}

// Stop says why Driver.Run returned.
type Stop uint8

// Reasons to stop.
const (
	StopOver    Stop = iota // the game is over
	StopWaiting             // the seat to decide has no player here: its answer comes from elsewhere
	StopLimit               // Driver.Max decisions were played
)

var stopNames = [...]string{"over", "waiting", "limit"}

func (s Stop) String() string {
	if int(s) < len(stopNames) {
		return stopNames[s]
	}
	return fmt.Sprintf("Stop(%d)", s)
}

// ErrNoDice is returned by Run for a game that waits for scripted dice,
// which no player can answer.
var ErrNoDice = errors.New("agent: the game waits for dice")

// Driver is the one decision loop of gopoly: the engine asks, the seat's
// player answers, the engine applies. Simulations, tournaments, the
// terminal game and sessions all play through it. A Driver may be reused
// from game to game; it allocates nothing in Run when its players do not.
type Driver struct {
	// Agents answer at once, by seat. A seat whose agent is nil is asked
	// of Askers, and when that is nil too Run stops there (StopWaiting).
	Agents []Agent
	Askers []Asker
	// Words asks agents that talk (Talker) for speech and thought, which
	// are recorded as events before their action. Askers' words are always
	// recorded.
	Words bool
	// Timeout bounds one Ask (0: only the context bounds it).
	Timeout time.Duration
	// Max stops Run after this many decisions (0: no limit).
	Max int
	// Applied, if set, is called after every accepted action with the
	// seat and its answer; an error stops Run and is returned.
	Applied func(g *monopoly.Game, seat int, ans Answer) error
	// Think, if set, is called with the seat and true before a player
	// makes its answer (when Words is set, or an Asker answers) and with
	// false after, even if it panics: a session lets go of its lock
	// between them for a slow player (a language model, a program), so
	// that the game can be read while it thinks. The game must not change
	// meanwhile.
	Think func(seat int, thinking bool)

	// followers are the Agents that follow the game, found by Run; nil
	// when none do. Held through a pointer so that escape analysis, which
	// does not tell fields apart, does not move Applied's closure to the
	// heap because a follower is called (one allocation per game).
	followers *[]Follower
	told      int // events of g.Events() the followers were given
}

// Run plays g until it is over, a waiting seat must decide, or Max
// decisions were played, and returns how many were played and why it
// stopped. A refused action stops it with a *SeatError; the refused
// action changed nothing, and neither did its words.
func (d *Driver) Run(ctx context.Context, g *monopoly.Game) (n int, stop Stop, err error) {
	d.findFollowers()
	d.Follow(g)
	for ; !g.Over(); n++ {
		if d.Max > 0 && n == d.Max {
			return n, StopLimit, nil
		}
		p := g.Decider()
		if p < 0 {
			return n, StopOver, ErrNoDice
		}
		var ans Answer
		switch {
		case p < len(d.Agents) && d.Agents[p] != nil && !d.Words:
			// The bots' fast path: an Answer is eleven words, which Go
			// passes through memory, and a simulation makes hundreds of
			// millions of these calls; an Action (four words) stays in
			// registers.
			a := d.Agents[p].Decide(g.View(p), g.Pending())
			if err := g.Apply(a); err != nil {
				return n, StopOver, &SeatError{Seat: p, Err: err}
			}
			if d.followers != nil {
				d.Follow(g)
			}
			if d.Applied != nil {
				if err := d.Applied(g, p, Answer{Action: a}); err != nil {
					return n, StopOver, err
				}
				d.told = len(g.Events())
			}
			continue
		case p < len(d.Agents) && d.Agents[p] != nil:
			ans = d.respond(p, g.View(p), g.Pending())
		case p < len(d.Askers) && d.Askers[p] != nil:
			if ans, err = d.ask(ctx, d.Askers[p], g, p); err != nil {
				return n, StopWaiting, &SeatError{Seat: p, Err: err}
			}
		default:
			return n, StopWaiting, nil
		}
		if err := d.Apply(g, p, ans); err != nil {
			return n, StopOver, err
		}
	}
	return n, StopOver, nil
}

// respond is seat p's Respond, between the calls to Think.
func (d *Driver) respond(p int, v monopoly.View, dec monopoly.Decision) Answer {
	if d.Think != nil {
		d.Think(p, true)
		defer d.Think(p, false)
	}
	return Respond(d.Agents[p], v, dec, d.Words)
}

func (d *Driver) ask(ctx context.Context, a Asker, g *monopoly.Game, p int) (Answer, error) {
	if d.Think != nil {
		d.Think(p, true)
		defer d.Think(p, false)
	}
	if d.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.Timeout)
		defer cancel()
	}
	return a.Ask(ctx, g.View(p), g.Pending())
}

// Apply carries out seat p's answer to the pending decision: its words
// are recorded, then its action applied, and Applied is told. A refused
// action is a *SeatError, and the game, words included, is unchanged.
// Sessions submit the answers that come from elsewhere through it.
func (d *Driver) Apply(g *monopoly.Game, p int, ans Answer) error {
	if (ans.Speech != "" || ans.Thought != "") && g.Recording() {
		// Words are recorded before the action's events; an action the
		// rules refuse must leave no words behind.
		if err := g.Check(ans.Action); err != nil {
			return &SeatError{Seat: p, Err: err}
		}
		g.Say(p, ans.Speech, ans.Thought)
	}
	if err := g.Apply(ans.Action); err != nil {
		return &SeatError{Seat: p, Err: err}
	}
	// Apply is also called on its own (sessions submit and replay through
	// it), so it finds the followers itself: a few type assertions on
	// the slow path.
	d.findFollowers()
	d.Follow(g)
	if d.Applied != nil {
		err := d.Applied(g, p, ans)
		d.told = len(g.Events())
		return err
	}
	return nil
}

// findFollowers notes the Agents that are Followers; a Driver without
// any allocates nothing.
func (d *Driver) findFollowers() {
	if !Following(d.Agents) {
		d.followers = nil // the fast path tests for nil alone
		return
	}
	if d.followers == nil {
		d.followers = new([]Follower)
	}
	fs := (*d.followers)[:0]
	for _, a := range d.Agents {
		if f, ok := a.(Follower); ok {
			fs = append(fs, f)
		}
	}
	*d.followers = fs
}

// Follow hands the followers the events g recorded since they were last
// told. Run and Apply call it after every action, before Applied (which
// may take the events); a caller that changes the game itself, as
// adjourning it does, calls it afterwards.
func (d *Driver) Follow(g *monopoly.Game) {
	evs := g.Events()
	if d.told > len(evs) {
		d.told = 0 // someone took the events (TakeEvents) since
	}
	if d.followers != nil && d.told < len(evs) {
		for _, f := range *d.followers {
			f.Follow(g.Rules(), evs[d.told:])
		}
	}
	d.told = len(evs)
}

// Respond asks agent a for its answer to d: with words when words is set
// and a talks (Talker), otherwise the bare action, which costs nothing
// more.
func Respond(a Agent, v monopoly.View, d monopoly.Decision, words bool) Answer {
	if words {
		if t, ok := a.(Talker); ok {
			return t.Answer(v, d)
		}
	}
	return Answer{Action: a.Decide(v, d)}
}

// SeatError is a seat's answer the rules refused, or a player that failed
// to answer.
type SeatError struct {
	Seat int
	Bot  string // when known
	Err  error
}

func (e *SeatError) Error() string {
	if e.Bot != "" {
		return fmt.Sprintf("seat %d (%s): %v", e.Seat, e.Bot, e.Err)
	}
	return fmt.Sprintf("seat %d: %v", e.Seat, e.Err)
}

func (e *SeatError) Unwrap() error { return e.Err }
