package table

import (
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
