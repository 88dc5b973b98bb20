package terminal

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// quietLog shows nothing.
type quietLog struct{}

func (quietLog) Skip([]monopoly.Event)        {}
func (quietLog) Show(State, []monopoly.Event) {}
func (quietLog) Over(*monopoly.Game)          {}
func (quietLog) Bold(s string) string         { return s }
func (quietLog) Money(amount int) string      { return "" }
func newQuietLog(labels []string) Log         { return quietLog{} }
func quietInput() *LineReader                 { return NewLineReader(strings.NewReader(""), io.Discard) }

// While another process (a server's pacer on the same store) holds the
// game's lease, the terminal moves no bot of its own; once the lease is
// given up, it plays the bots on.
func TestFollowsAnotherDriver(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	seats, err := session.ParseSeats("baseline,baseline,baseline")
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.NewManager(st, session.Options{}).Create(ctx, session.Setup{Seats: seats, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Lease(ctx, "another process", time.Minute); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}
	before := s.Status().Entries
	play := func() error {
		tb, err := New(s, quietInput(), io.Discard, false, 0, newQuietLog)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer cancel()
		return tb.Play(ctx)
	}
	if err := play(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("while another process drives: %v, want to wait", err)
	}
	if n := s.Status().Entries; n != before {
		t.Fatalf("the terminal moved %d bot answers while another process held the lease", n-before)
	}
	if err := s.Release(ctx, "another process"); err != nil {
		t.Fatal(err)
	}
	if err := play(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
	if n := s.Status().Entries; n == before {
		t.Fatal("the lease given up, the terminal still moved no bot")
	}
}

// cashLog records the cash each turn's opening line would show.
type cashLog struct {
	quietLog
	turns map[int]int // player -> cash at the last turn start shown
}

func (l cashLog) Show(st State, evs []monopoly.Event) {
	for _, e := range evs {
		if e.Kind == monopoly.EvTurnStart {
			l.turns[int(e.Player)] = st.Cash(int(e.Player))
		}
	}
}

// A resumed game shows its last moves as they were played: the turn
// under way opens with the cash of its start, not of now.
func TestResumeShowsTheTurnAsPlayed(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	seats, err := session.ParseSeats("human,baseline")
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.NewManager(st, session.Options{}).Create(ctx, session.Setup{Seats: seats, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	me := s.Tokens().Seats[0]
	bot, err := agent.New("baseline", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Play the person's seat as a baseline until, after a roll, its cash
	// is no longer what it was when its turn began.
	start := -1
	for range 2000 {
		if _, err := s.Advance(ctx, 0); err != nil {
			t.Fatal(err)
		}
		g := s.Game()
		if g.Over() {
			break
		}
		if d := g.Pending(); d.Kind == monopoly.DecisionManage && g.Phase() == monopoly.PhaseAfterRoll {
			evs, _, err := s.History(me, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i := len(evs) - 1; i >= 0; i-- {
				if evs[i].Engine.Kind == monopoly.EvTurnStart {
					then, err := s.SnapshotAt(me, evs[i].Entry+1)
					if err != nil {
						t.Fatal(err)
					}
					start = then.Players[0].Cash
					break
				}
			}
			if start >= 0 && start != g.Cash(0) {
				break
			}
			start = -1
		}
		d := g.Pending()
		a := bot.Decide(g.View(0), d)
		if _, err := s.Submit(ctx, me, agent.Answer{Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	if start < 0 {
		t.Fatal("the person's cash never changed within a turn")
	}
	log := cashLog{turns: map[int]int{}}
	tb, err := New(s, quietInput(), io.Discard, false, 0, func([]string) Log { return log })
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Resume(); err != nil {
		t.Fatal(err)
	}
	if got, ok := log.turns[0]; !ok || got != start {
		t.Fatalf("resumed, the turn opens with $%d (shown: %v); it began with $%d, and the player has $%d now", got, ok, start, s.Game().Cash(0))
	}
}
