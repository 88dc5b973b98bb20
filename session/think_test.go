package session_test

import (
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
)

// slowBot plays as baseline, but its first decision waits for release,
// having said so on thinking: a language model that takes its time
// (Outside, as language models and programs are).
type slowBot struct {
	agent.Agent
	first bool
}

var thinking, release = make(chan struct{}), make(chan struct{})

func (b *slowBot) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if b.first {
		b.first = false
		thinking <- struct{}{}
		<-release
	}
	return b.Agent.Decide(v, d)
}

func init() {
	agent.Register(agent.Bot{Name: "test-slow", Doc: "baseline, slow to make its first decision", Outside: true,
		Make: func(p agent.Params, seat int, seed uint64) agent.Agent {
			base, _ := agent.New("baseline", seat, seed)
			return &slowBot{Agent: base, first: true}
		}})
}

// While a bot thinks inside Advance, the game can be read, and it ends
// as the same game played by bots that do not wait.
func TestReadWhileThinking(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{})
	s, err := m.Create(ctx, setup(21, "test-slow,baseline,baseline"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Advance(ctx, 0)
		done <- err
	}()
	<-thinking
	read := make(chan struct{})
	go func() {
		defer close(read)
		st := s.Status()
		if _, err := s.Pending(""); err != nil {
			t.Error(err)
		}
		if _, _, err := s.History("", 0, 10); err != nil {
			t.Error(err)
		}
		if st.Over || st.Entries != 0 {
			t.Errorf("while the first bot thinks: %+v", st)
		}
	}()
	select {
	case <-read:
	case <-time.After(30 * time.Second):
		t.Fatal("reading the game waited for the bot to think")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	same, err := m.Create(ctx, setup(21, "baseline,baseline,baseline"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := same.Advance(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if a, b := s.Status(), same.Status(); !a.Over || a.Digest != b.Digest {
		t.Errorf("the slow game: %+v, the quick one: %+v", a, b)
	}
}
