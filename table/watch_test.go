package table

import (
	"errors"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
)

// answer plays the waiting person's first legal answer in s, a change.
func answer(t *testing.T, s *session.Session) {
	t.Helper()
	tok := s.Tokens().Seats[0]
	p, err := s.Pending(tok)
	if err != nil || p.Options == nil || len(p.Options.Actions) == 0 {
		t.Fatalf("no answer to give: %+v, %v", p, err)
	}
	raw := append(append([]byte(`{"action":`), p.Options.Actions[0]...), '}')
	if _, err := s.Submit(ctx, tok, agent.Answer{}, Answer(JSON, raw)); err != nil {
		t.Fatal(err)
	}
}

// told waits for a change to be told on ch, and reports whether it was.
func told(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(2 * time.Second):
		return false
	}
}

// Every listener of a game is told of its changes through the one watch
// of that game, until it stops; the watch ends with its last listener.
func TestWatchersShareOneWatch(t *testing.T) {
	s := newGame(t, "human,baseline")
	w := NewWatchers()
	defer w.Close()
	a, b := make(chan struct{}, 8), make(chan struct{}, 8)
	stopA := w.Watch(s, func() { a <- struct{}{} })
	stopB := w.Watch(s, func() { b <- struct{}{} })
	if n := w.Games(); n != 1 {
		t.Fatalf("%d games watched for two listeners of one, want 1", n)
	}
	answer(t, s)
	if !told(a) || !told(b) {
		t.Fatal("a listener was not told of the answer")
	}
	stopA()
	answer(t, s)
	if !told(b) {
		t.Fatal("the remaining listener was not told")
	}
	select {
	case <-a:
		t.Error("a stopped listener was told")
	case <-time.After(50 * time.Millisecond):
	}
	stopB()
	if n := w.Games(); n != 0 {
		t.Errorf("%d games watched with no listener left, want 0", n)
	}
	w.Watch(s, func() {})
	w.Forget(s.ID())
	if n := w.Games(); n != 0 {
		t.Errorf("%d games watched after Forget, want 0", n)
	}
}

// A watched game whose session here falls behind its store (another
// process answered, and an answer here was refused) is watched again as
// stored, for the same listeners, who hear of the game's later changes.
func TestWatchersFollowReopened(t *testing.T) {
	ma, mb := twoProcesses(t)
	sa := create(t, ma, "human,baseline", 3, 40)
	if _, err := sa.Advance(ctx, 0); err != nil {
		t.Fatal(err)
	}
	w := NewWatchers()
	defer w.Close()
	told1 := make(chan struct{}, 8)
	defer w.Watch(sa, func() { told1 <- struct{}{} })()
	sb, err := mb.Open(ctx, sa.ID())
	if err != nil {
		t.Fatal(err)
	}
	answer(t, sb) // the other process answers
	p, err := sa.Pending(sa.Tokens().Seats[0])
	if err != nil {
		t.Fatal(err)
	}
	raw := append(append([]byte(`{"action":`), p.Options.Actions[0]...), '}')
	if _, err := sa.Submit(ctx, sa.Tokens().Seats[0], agent.Answer{}, Answer(JSON, raw)); !errors.Is(err, session.ErrStale) {
		t.Fatalf("an answer to a game moved on elsewhere: %v, want ErrStale", err)
	}
	if !told(told1) {
		t.Fatal("the listener was not told that the game here fell stale")
	}
	cur, err := ma.Open(ctx, sa.ID())
	if err != nil || cur == sa {
		t.Fatalf("reopened: %v, the same session: %v", err, cur == sa)
	}
	for len(told1) > 0 {
		<-told1
	}
	answer(t, cur)
	if !told(told1) {
		t.Fatal("the listener did not hear of a change of the game reopened")
	}
}
