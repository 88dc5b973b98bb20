package session_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
)

// botSession plays a whole bot-only session.
func botSession(t *testing.T, m *session.Manager, seed uint64, seats string) *session.Session {
	t.Helper()
	s, err := m.Create(ctx, setup(seed, seats))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.Advance(ctx, 0); err != nil || !p.Over {
		t.Fatalf("advance: %+v, %v", p, err)
	}
	return s
}

// GameAt replays the log to any point: the game at the end is the game,
// and every turn boundary is the start of that turn.
func TestGameAtAndTurns(t *testing.T) {
	s := botSession(t, session.NewManager(openStore(t), session.Options{}), 2, "baseline,shark,turtle")
	st := s.Status()
	end, err := s.GameAt(st.Entries)
	if err != nil || !end.SameState(s.Game()) {
		t.Fatalf("GameAt(end) differs from the game (%v)", err)
	}
	turns := s.Turns()
	if len(turns) != st.Turn || turns[0].At != 0 {
		t.Fatalf("%d turn boundaries for %d turns, first at %d", len(turns), st.Turn, turns[0].At)
	}
	for _, i := range []int{1, len(turns) / 2, len(turns) - 1} {
		g, err := s.GameAt(turns[i].At)
		if err != nil {
			t.Fatal(err)
		}
		if g.Turn() != turns[i].Turn+1 || g.Current() != turns[i].Player || g.Phase().String() != "before_roll" {
			t.Errorf("turn %d at %d: game in turn %d of seat %d, phase %s", turns[i].Turn, turns[i].At, g.Turn(), g.Current(), g.Phase())
		}
	}
	if _, err := s.GameAt(st.Entries + 1); err == nil {
		t.Error("GameAt past the log succeeded")
	}
}

// A fork with the same seats plays on as its source did; a fork with a
// bot replaced by a person waits for that person; the source is untouched.
func TestFork(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		m := session.NewManager(open(t), session.Options{})
		src := botSession(t, m, 6, "baseline,hustler,professor")
		want := src.Status()
		at := src.Turns()[10].At
		same, err := m.Fork(ctx, src.ID(), at, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := same.Advance(ctx, 0); err != nil || !p.Over || same.Status().Digest != want.Digest {
			t.Errorf("a fork with the same seats ends with %s, its source with %s (%v)", same.Status().Digest, want.Digest, err)
		}
		person, err := m.Fork(ctx, src.ID(), at, []session.Seat{{}, {Kind: session.SeatHuman}})
		if err != nil {
			t.Fatal(err)
		}
		if person.Setup().Seats[1].Name != "Bob" || person.Tokens().Seats[1] == "" {
			t.Errorf("forked seat 1: %+v", person.Setup().Seats[1])
		}
		p, err := person.Advance(ctx, 0)
		if err != nil || p.Waiting != 1 {
			t.Fatalf("fork waits for %d (%v), want the person at seat 1", p.Waiting, err)
		}
		playThrough(t, person, map[int]agent.Agent{1: stand(t, "random", 1, 1)}, 0)
		if src.Status().Digest != want.Digest || src.Status().Entries != want.Entries {
			t.Error("forking changed the source")
		}
		recs, err := m.List(ctx)
		if err != nil || len(recs) != 3 {
			t.Fatalf("%d sessions listed (%v)", len(recs), err)
		}
		for _, r := range recs {
			if r.ID != src.ID() && r.Parent != src.ID() {
				t.Errorf("fork %s has parent %q", r.ID, r.Parent)
			}
		}
	})
}

// Export and import move a session whole, between two stores of one
// user (one key); a doctored export is refused.
func TestExportImport(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		key := testKey(t)
		s := botSession(t, session.NewManager(open(t), session.Options{Key: key}), 9, "cautious,shark")
		data, err := s.Export()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(s.Tokens().Research)) {
			t.Fatal("the export carries a token")
		}
		other := session.NewManager(open(t), session.Options{Key: key})
		in, err := other.Import(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		if in.ID() != s.ID() || in.Status().Digest != s.Status().Digest || !in.Game().SameState(s.Game()) {
			t.Error("the imported session differs")
		}
		if again, err := other.Import(ctx, data); err != nil || again.ID() == s.ID() {
			t.Errorf("a second import: %v, id %s", err, again.ID())
		}

		var x map[string]any
		json.Unmarshal(data, &x)
		log := x["log"].([]any)
		log[len(log)/2].(map[string]any)["speech"] = "words never said"
		doctored, _ := json.Marshal(x)
		if _, err := other.Import(ctx, doctored); !errors.Is(err, session.ErrSignature) {
			t.Errorf("doctored speech: %v, want ErrSignature", err)
		}
		if _, err := other.Import(ctx, doctored, session.Trust()); !errors.Is(err, session.ErrReplay) {
			t.Errorf("doctored speech, trusted: %v, want ErrReplay", err)
		}
		bad := bytes.Replace(data, []byte(`"seat"`), []byte(`"seet"`), 1)
		if _, err := other.Import(ctx, bad); err == nil || !strings.Contains(err.Error(), "seet") {
			t.Errorf("unknown field: %v", err)
		}
		if _, err := other.Import(ctx, data[:len(data)/2]); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("truncated export: %v, want a line", err)
		}
	})
}

// A stored session whose digest this engine does not reproduce is refused
// and left as it is.
func TestStoredDigestMismatch(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		st := open(t)
		s := botSession(t, session.NewManager(st, session.Options{}), 5, "baseline,random")
		rec, log, err := st.Load(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		rec.ID = "doctored"
		rec.Status.Digest = strings.Repeat("0", len(rec.Status.Digest))
		if err := st.Create(ctx, rec, log); err != nil {
			t.Fatal(err)
		}
		if _, err := session.NewManager(st, session.Options{}).Open(ctx, "doctored"); !errors.Is(err, session.ErrReplay) {
			t.Fatalf("open: %v, want ErrReplay", err)
		}
		if again, _, err := st.Load(ctx, "doctored"); err != nil || again.Status.Digest != rec.Status.Digest {
			t.Error("the refused session was changed")
		}
	})
}

// Two processes at one session: the second to answer finds the session
// changed, is told so, and reopens it to go on.
func TestConcurrentManagers(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		st := open(t)
		a := session.NewManager(st, session.Options{})
		s, err := a.Create(ctx, setup(1, "human,baseline"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Advance(ctx, 0); err != nil {
			t.Fatal(err)
		}
		tok := s.Tokens().Seats[0]
		t2, err := session.NewManager(st, session.Options{}).Open(ctx, s.ID())
		if err != nil {
			t.Fatal(err)
		}
		answer := func(x *session.Session) error {
			g := x.Game()
			_, err := x.Submit(ctx, tok, agent.Answer{Action: stand(t, "baseline", 1, 0).Decide(g.View(0), g.Pending())})
			return err
		}
		if err := answer(s); err != nil {
			t.Fatal(err)
		}
		if _, feed := st.(session.Feed); feed {
			// A store with a feed: the second process catches up before
			// it takes an answer, so that an answer made for the decision
			// it last saw is refused as one to a decision the game has
			// moved past, and changes nothing; its next answer goes on.
			var r *session.Refused
			if err := answer(t2); !errors.As(err, &r) {
				t.Fatalf("an answer to a decision past: %v, want a refusal", err)
			}
			if t2.Status().Digest != s.Status().Digest {
				t.Fatal("the second process did not catch up")
			}
			if err := answer(t2); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := answer(t2); !errors.Is(err, session.ErrStale) || !errors.Is(err, session.ErrConflict) {
			t.Fatalf("second answer: %v, want ErrStale and ErrConflict", err)
		}
		if _, err := t2.Pending(tok); !errors.Is(err, session.ErrStale) {
			t.Errorf("a stale session answered Pending: %v", err)
		}
		fresh, err := session.NewManager(st, session.Options{}).Open(ctx, s.ID())
		if err != nil || fresh.Status().Digest != s.Status().Digest {
			t.Fatalf("reopened: %v", err)
		}
		if err := answer(fresh); err != nil {
			t.Error(err)
		}
	})
}

// Watchers hear of every committed change.
func TestSubscribe(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{})
	s, err := m.Create(ctx, setup(2, "baseline,human"))
	if err != nil {
		t.Fatal(err)
	}
	ch, stop := s.Subscribe()
	defer stop()
	if _, err := s.Advance(ctx, 0); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(time.Second):
		t.Fatal("no notification")
	}
	evs, next, err := s.History("", 0, 5)
	if err != nil || len(evs) != 5 || next != 5 {
		t.Fatalf("history page: %d events, next %d, %v", len(evs), next, err)
	}
	rest, end, _ := s.History("", next, 0)
	if end != s.Status().Entries && end != next+len(rest) {
		t.Errorf("history: next %d after %d more", end, len(rest))
	}
}
