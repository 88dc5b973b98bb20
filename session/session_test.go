package session_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/internal/citest"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
	"github.com/gopoly/gopoly/wire"
)

var ctx = context.Background()

// openStore opens a fresh SQLite store in a temporary directory.
func openStore(t *testing.T) session.Store {
	t.Helper()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// eachStore runs test on each backend, as the subtests "sqlite" and
// "postgres": a session must behave the same whatever keeps it. open
// returns a new, empty store at each call, so that a test may open two.
func eachStore(t *testing.T, test func(t *testing.T, open func(t *testing.T) session.Store)) {
	t.Run("sqlite", func(t *testing.T) { test(t, openStore) })
	t.Run("postgres", func(t *testing.T) {
		dsn := postgresDSN(t)
		test(t, func(t *testing.T) session.Store { return openPostgres(t, dsn) })
	})
}

// postgresDSN is the test server's DSN. Without one the PostgreSQL
// subtests are skipped, except on CI, where a skip would pass unnoticed
// with the backend untested.
func postgresDSN(t *testing.T) string {
	t.Helper()
	return citest.PostgresDSN(t, "sessions on PostgreSQL")
}

// openPostgres opens a PostgreSQL store in a schema of its own, dropped
// when the test ends: tests, and runs sharing the server, never see each
// other's sessions.
func openPostgres(t *testing.T, dsn string) session.Store {
	t.Helper()
	return openDSN(t, pgSchemaDSN(t, dsn))
}

// pgSchemaDSN makes a schema of its own for a test, dropped when the
// test ends, and returns the DSN of a store in it.
func pgSchemaDSN(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("GOPOLY_TEST_POSTGRES: %v", err)
	}
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := "gopoly_session_test_" + strings.ToLower(rand.Text()[:12])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		t.Fatal(err)
	}
	// Registered before the stores' Close, so run after it.
	t.Cleanup(func() {
		if _, err := admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close(ctx)
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// openDSN opens the PostgreSQL store at dsn, closed when the test ends.
func openDSN(t *testing.T, dsn string) session.Store {
	t.Helper()
	st, err := store.Open(ctx, store.Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// answerJSON reads an answer in the wire format for the answering seat.
func answerJSON(data []byte) session.Decoder {
	return func(q session.Asked) (agent.Answer, error) {
		a, speech, thought, err := wire.DecodeAnswer(q.Rules, q.Seat, data)
		return agent.Answer{Action: a, Speech: speech, Thought: thought}, err
	}
}

// setup is a table of one person (seat 0) and bots.
func setup(seed uint64, seats string) session.Setup {
	s, err := session.ParseSeats(seats)
	if err != nil {
		panic(err)
	}
	return session.Setup{Seed: seed, Seats: s, Rules: "max_rounds: 60"}
}

// stand is a bot that answers for a person: the player the person's seat
// would have had as that bot, so that a session played through Submit can
// be compared with the same game played by bots alone.
func stand(t *testing.T, bot string, seed uint64, seat int) agent.Agent {
	t.Helper()
	a, err := agent.New(bot, seat, agent.SeatSeed(seed, seat))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// playThrough answers every waiting decision with the stand-ins, through
// Submit with each seat's token, after at most steps answers (0: to the
// end), and returns how many it submitted.
func playThrough(t *testing.T, s *session.Session, stands map[int]agent.Agent, steps int) int {
	t.Helper()
	tokens := s.Tokens()
	p, err := s.Advance(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for !p.Over && (steps == 0 || n < steps) {
		if p.Waiting < 0 {
			t.Fatalf("advance stopped with nobody waiting: %+v", p)
		}
		g := s.Game()
		a := stands[p.Waiting].Decide(g.View(p.Waiting), g.Pending())
		if p, err = s.Submit(ctx, tokens.Seats[p.Waiting], agent.Answer{Action: a}); err != nil {
			t.Fatalf("submit %d: %v", n, err)
		}
		n++
	}
	return n
}

// A session with a person's seat played by the bot that seat would have
// had ends exactly as the bots' game played by the arena.
func TestSessionPlaysAsArena(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		m := session.NewManager(open(t), session.Options{})
		const seed = 11
		s, err := m.Create(ctx, setup(seed, "human,baseline,shark,professor"))
		if err != nil {
			t.Fatal(err)
		}
		if n := playThrough(t, s, map[int]agent.Agent{0: stand(t, "baseline", seed, 0)}, 0); n < 20 {
			t.Fatalf("only %d answers from the person's seat", n)
		}
		rules := s.Rules()
		var tb arena.Table
		if _, err := tb.Play(arena.Match{Rules: rules, Seed: seed, Seats: []arena.Seat{{Bot: "baseline"}, {Bot: "baseline"}, {Bot: "shark"}, {Bot: "professor"}}}); err != nil {
			t.Fatal(err)
		}
		if !s.Game().SameState(tb.Game()) {
			t.Error("the session's game differs from the arena's")
		}
		st := s.Status()
		if !st.Over || st.Waiting != -1 || !strings.Contains(st.Summary, "over") {
			t.Errorf("status %+v", st)
		}
	})
}

// A session resumed by another manager (a restart) after any answer
// continues to the same end as one played without a break.
func TestResumeEqualsUninterrupted(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		const seed = 4
		whole := session.NewManager(open(t), session.Options{})
		w, err := whole.Create(ctx, setup(seed, "human,hustler,turtle"))
		if err != nil {
			t.Fatal(err)
		}
		playThrough(t, w, map[int]agent.Agent{0: stand(t, "cautious", seed, 0)}, 0)

		st := open(t)
		s, err := session.NewManager(st, session.Options{}).Create(ctx, setup(seed, "human,hustler,turtle"))
		if err != nil {
			t.Fatal(err)
		}
		id, person := s.ID(), stand(t, "cautious", seed, 0)
		for breaks := 0; ; breaks++ {
			playThrough(t, s, map[int]agent.Agent{0: person}, 7)
			if s.Status().Over {
				if breaks < 3 {
					t.Fatalf("over after %d breaks", breaks)
				}
				break
			}
			// A new manager is a new process: it knows only the store.
			if s, err = session.NewManager(st, session.Options{}).Open(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		if a, b := s.Status().Digest, w.Status().Digest; a != b || !s.Game().SameState(w.Game()) {
			t.Errorf("resumed play ends with digest %s, unbroken with %s", a, b)
		}
	})
}

// Refused answers and requests change nothing: not the game, not the log,
// not the store.
func TestRefusalsChangeNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		st := open(t)
		m := session.NewManager(st, session.Options{})
		s, err := m.Create(ctx, setup(3, "human,human,baseline"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Advance(ctx, 0); err != nil {
			t.Fatal(err)
		}
		tok := s.Tokens()
		before, status := s.Game(), s.Status()
		waiting := status.Waiting
		other := tok.Seats[1-waiting]
		cases := []struct {
			name, token, answer, code string
		}{
			{"malformed", tok.Seats[waiting], `{"action":{"kind":"build","square":`, "bad_action"},
			{"unknown kind", tok.Seats[waiting], `{"action":{"kind":"fly"}}`, "bad_action"},
			{"unknown square", tok.Seats[waiting], `{"action":{"kind":"mortgage","square":"Nowhere Lane"}}`, "bad_action"},
			{"not owned", tok.Seats[waiting], `{"action":{"kind":"mortgage","square":"Boardwalk"}}`, "not_owner"},
			{"not an answer", tok.Seats[waiting], `{"action":{"kind":"bid","amount":10}}`, "not_an_answer"},
			{"other seat", other, `{"action":{"kind":"continue"}}`, "not_your_decision"},
			{"spectator", "", `{"action":{"kind":"continue"}}`, session.CodeNoSeat},
			{"bad token", "0123456789abcdef", `{"action":{"kind":"continue"}}`, session.CodeBadToken},
			{"research off", tok.Research, `{"action":{"kind":"continue"}}`, session.CodeBadToken},
		}
		for _, c := range cases {
			_, err := s.Submit(ctx, c.token, agent.Answer{}, session.Decode(answerJSON([]byte(c.answer))))
			var r *session.Refused
			if !errors.As(err, &r) || r.Code != c.code || r.Message == "" {
				t.Errorf("%s: error %v, want refusal %s", c.name, err, c.code)
				continue
			}
			if c.code != session.CodeBadToken && c.code != session.CodeNoSeat && r.Options == nil {
				t.Errorf("%s: refusal without the legal options", c.name)
			}
		}
		if !s.Game().SameState(before) || s.Status().Digest != status.Digest || s.Status().Entries != status.Entries {
			t.Error("refused answers changed the session")
		}
		rec, log, err := st.Load(ctx, s.ID())
		if err != nil || len(log) != status.Entries || rec.Status.Digest != status.Digest {
			t.Errorf("stored: %d entries, digest %s, %v", len(log), rec.Status.Digest, err)
		}
	})
}

// Each seat sees its own thoughts and nobody else's; a spectator sees
// none; the research view, when the host enables it, sees them all.
func TestThoughtsArePrivate(t *testing.T) {
	eachStore(t, func(t *testing.T, open func(t *testing.T) session.Store) {
		m := session.NewManager(open(t), session.Options{Research: true})
		s, err := m.Create(ctx, setup(8, "human,shark,hustler"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Advance(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		tok := s.Tokens()
		g := s.Game()
		a := stand(t, "baseline", 8, 0).Decide(g.View(0), g.Pending())
		if _, err := s.Submit(ctx, tok.Seats[p.Waiting], agent.Answer{Action: a, Speech: "hello table", Thought: "my secret plan"}); err != nil {
			t.Fatal(err)
		}
		playThrough(t, s, map[int]agent.Agent{0: stand(t, "baseline", 8, 0)}, 30)
		count := func(token string) (mine, others, speech int) {
			evs, _, err := s.History(token, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				b, _ := json.Marshal(e.Event)
				var v struct {
					Kind    string `json:"kind"`
					Player  int    `json:"player"`
					Speech  string `json:"speech"`
					Thought string `json:"thought"`
				}
				json.Unmarshal(b, &v)
				if v.Kind != "speech" {
					continue
				}
				if v.Speech != "" {
					speech++
				}
				if v.Thought != "" && v.Player == 0 {
					mine++
				} else if v.Thought != "" {
					others++
				}
			}
			return
		}
		if mine, others, speech := count(tok.Seats[0]); mine != 1 || others != 0 || speech < 2 {
			t.Errorf("seat 0 sees %d own thoughts, %d of others, %d speeches", mine, others, speech)
		}
		if mine, others, _ := count(""); mine+others != 0 {
			t.Errorf("a spectator sees %d thoughts", mine+others)
		}
		if mine, others, _ := count(tok.Research); mine != 1 || others == 0 {
			t.Errorf("the research view sees %d + %d thoughts", mine, others)
		}
		log, err := s.Log(tok.Seats[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range log {
			if e.Seat != 0 && e.Thought != "" {
				t.Fatalf("seat 0 reads seat %d's thought in the log", e.Seat)
			}
		}
	})
}

// Many goroutines answering the same decision at once: one answer is
// taken, the others are refused as stale and change nothing, and the game
// goes on as if one person had answered; readers meanwhile see
// consistent states.
func TestConcurrentAnswers(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{})
	const seed = 13
	s, err := m.Create(ctx, setup(seed, "human,shark,professor"))
	if err != nil {
		t.Fatal(err)
	}
	tok := s.Tokens().Seats[0]
	person := stand(t, "baseline", seed, 0)
	if _, err := s.Advance(ctx, 0); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				st := s.Status()
				p, err := s.Pending("")
				if err != nil || p.Entries < st.Entries {
					t.Errorf("a reader saw %d entries after %d (%v)", p.Entries, st.Entries, err)
					return
				}
			}
		}()
	}
	for turn := 0; turn < 40; turn++ {
		p, err := s.Pending(tok)
		if err != nil {
			t.Fatal(err)
		}
		if p.Over {
			break
		}
		g := s.Game()
		a := person.Decide(g.View(0), g.Pending())
		var taken, stale atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Submit(ctx, tok, agent.Answer{Action: a}, session.At(p.Entries))
				var r *session.Refused
				switch {
				case err == nil:
					taken.Add(1)
				case errors.As(err, &r) && r.Code == session.CodeStale:
					stale.Add(1)
				default:
					t.Errorf("answer %d: %v", turn, err)
				}
			}()
		}
		wg.Wait()
		if taken.Load() != 1 || stale.Load() != 7 {
			t.Fatalf("answer %d: %d taken, %d stale", turn, taken.Load(), stale.Load())
		}
	}
	close(stop)
	readers.Wait()

	// The same answers, one at a time, give the same game.
	one, err := m.Create(ctx, setup(seed, "human,shark,professor"))
	if err != nil {
		t.Fatal(err)
	}
	playThrough(t, one, map[int]agent.Agent{0: stand(t, "baseline", seed, 0)}, 40)
	if got, want := s.Status(), one.Status(); got.Digest != want.Digest || got.Entries != want.Entries {
		t.Errorf("concurrent answers: %d entries, digest %s; one at a time: %d, %s", got.Entries, got.Digest, want.Entries, want.Digest)
	}
}

// Under sealed deals the log shows a seat's cash limits to that seat and
// the research view only: not to the other seats, not to a spectator.
func TestLogHidesSealedLimits(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{Research: true})
	table := setup(6, "human,hustler,shark")
	table.Rules += "\ndeal_protocol: sealed"
	s, err := m.Create(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	playThrough(t, s, map[int]agent.Agent{0: stand(t, "baseline", 6, 0)}, 0)
	tok := s.Tokens()
	// limits counts the entries by seat that name a cash limit.
	limits := func(token string) map[int]int {
		log, err := s.Log(token, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := map[int]int{}
		for _, e := range log {
			var a struct {
				Kind  string `json:"kind"`
				Limit int    `json:"limit"`
				Offer *struct {
					Give, Get struct {
						Cash int `json:"cash"`
					}
				} `json:"offer"`
			}
			if err := json.Unmarshal(e.Action, &a); err != nil {
				t.Fatal(err)
			}
			if a.Limit != 0 || a.Offer != nil && (a.Offer.Give.Cash != 0 || a.Offer.Get.Cash != 0) {
				n[e.Seat]++
			}
		}
		return n
	}
	all := limits(tok.Research)
	if all[1]+all[2] == 0 {
		t.Fatal("the bots named no sealed limit in the whole game: the test shows nothing")
	}
	if got := limits(""); len(got) != 0 {
		t.Errorf("a spectator reads limits of seats %v", got)
	}
	if got := limits(tok.Seats[0]); got[1]+got[2] != 0 || got[0] != all[0] {
		t.Errorf("seat 0 reads %v of the limits, the research view %v", got, all)
	}
}

// Submit's decoder reads the answer only once the token and the turn are
// checked, for the seat that answers; rules the caller checked are not
// parsed again.
func TestDecodeAfterChecks(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{})
	st := setup(4, "human,human,baseline")
	checked, err := session.ParseRules("mine.yaml", "max_rounds: 9\n")
	if err != nil {
		t.Fatal(err)
	}
	st.Checked = checked
	s, err := m.Create(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules().MaxRounds != 9 {
		t.Errorf("the checked rules' round limit is %d, want 9: the text was parsed again", s.Rules().MaxRounds)
	}
	p, err := s.Advance(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	asked := -1
	decode := session.Decode(func(q session.Asked) (agent.Answer, error) {
		asked = q.Seat
		return agent.Answer{}, errors.New("unread")
	})
	tok := s.Tokens()
	for _, bad := range []string{"", "0123", tok.Seats[1-p.Waiting]} {
		if _, err := s.Submit(ctx, bad, agent.Answer{}, decode); err == nil || asked != -1 {
			t.Errorf("token %q: decoder asked for seat %d, %v", bad, asked, err)
		}
	}
	if _, err := s.Submit(ctx, tok.Seats[p.Waiting], agent.Answer{}, decode); err == nil || asked != p.Waiting {
		t.Errorf("the waiting seat: decoder asked for seat %d, want %d (%v)", asked, p.Waiting, err)
	}
}

// A game the round limit ends is over after the limit's rounds, as play
// and replay count them: the engine's counter has moved on to the round
// not played.
func TestCappedSummary(t *testing.T) {
	st := setup(5, "baseline,baseline,baseline")
	st.Rules = "max_rounds: 3"
	s, err := session.NewManager(openStore(t), session.Options{}).Create(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(ctx, 100_000); err != nil {
		t.Fatal(err)
	}
	status := s.Status()
	if !status.Over || !s.Game().Capped() {
		t.Fatalf("not ended by the round limit: %+v", status)
	}
	if !strings.HasPrefix(status.Summary, "over after 3 rounds") {
		t.Fatalf("summary %q", status.Summary)
	}
}
