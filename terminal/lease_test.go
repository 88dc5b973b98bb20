package terminal

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

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
