package table

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/arena"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

var ctx = context.Background()

// newGame makes a stored game of seats (a person in seat 0 waits).
func newGame(t *testing.T, seats string) *session.Session {
	t.Helper()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	list, err := session.ParseSeats(seats)
	if err != nil {
		t.Fatal(err)
	}
	m := session.NewManager(st, session.Options{Players: Players(false, "no programs here")})
	s, err := m.Create(ctx, session.Setup{Seed: 5, Seats: list, Rules: "max_rounds: 40\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(ctx, 0); err != nil {
		t.Fatal(err)
	}
	return s
}

// The chances to win are computed once per position, whoever asks and
// however many ask at once, and again when the game moves; the cache
// keeps the latest of at most max games.
func TestOddsOncePerPosition(t *testing.T) {
	games := []*session.Session{newGame(t, "human,baseline"), newGame(t, "human,shark"), newGame(t, "human,turtle")}
	o := NewOdds(2, nil)
	opt := arena.OddsOptions{Samples: 20, Horizon: 20}
	var wg sync.WaitGroup
	results := make([]arena.Odds, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if results[i], err = o.Of(ctx, games[0], opt, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if o.runs != 1 {
		t.Errorf("8 viewers of one position: %d estimates, want 1", o.runs)
	}
	for _, r := range results[1:] {
		if r.Win[0] != results[0].Win[0] {
			t.Errorf("viewers got different odds: %v, %v", r.Win, results[0].Win)
		}
	}
	seed := uint64(9)
	if _, err := o.Of(ctx, games[0], opt, &seed); err != nil || o.runs != 2 {
		t.Errorf("another seed: %d estimates (want 2), %v", o.runs, err)
	}
	for _, g := range games[1:] {
		if _, err := o.Of(ctx, g, opt, nil); err != nil {
			t.Fatal(err)
		}
	}
	if o.Len() != 2 {
		t.Errorf("%d games kept, want at most 2", o.Len())
	}
	if _, err := o.Of(ctx, games[0], opt, &seed); err != nil || o.runs != 5 {
		t.Errorf("the least recently asked game was dropped: %d estimates (want 5), %v", o.runs, err)
	}
	o.Forget(games[0].ID())
	if o.Len() != 1 {
		t.Errorf("after Forget: %d games kept, want 1", o.Len())
	}
}

// The round limit is written into the rules, replacing one given and
// keeping the rest; bad YAML is a bad setup.
func TestWithMaxRounds(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "max_rounds: 30\n"},
		{"speed_die: true\n", "speed_die: true\nmax_rounds: 30\n"},
		{"max_rounds: 7\nauctions: false\n", "max_rounds: 30\nauctions: false\n"},
	} {
		r, err := Rules{Text: c.in}.WithMaxRounds("f.yaml", 30)
		if err != nil || r.Text != c.want || r.Rules.MaxRounds != 30 {
			t.Errorf("%q: %q, %v", c.in, r.Text, err)
		}
	}
	_, err := Rules{Text: "max_rounds: [\n"}.WithMaxRounds("f.yaml", 30)
	if e := Classify(err); e == nil || e.Code != CodeBadSetup || !strings.Contains(err.Error(), "f.yaml") {
		t.Errorf("bad YAML: %v", err)
	}
	if _, err := ParseRules("g.yaml", "no_such_rule: 1\n"); Classify(err).Code != CodeBadSetup || !strings.Contains(err.Error(), "g.yaml") {
		t.Errorf("an unknown rule: %v", err)
	}
}

// A rules file on top of a preset replaces the keys it gives and keeps
// the preset's others; an error in the file names its own line.
func TestRulesWith(t *testing.T) {
	preset, err := ParseRules("preset", "deal_protocol: sealed\nmax_rounds: 500\nnet_worth: resale\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := preset.With("mine.yaml", "max_rounds: 100\nauctions: false\n")
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Rules; g.MaxRounds != 100 || g.Auctions || g.DealProtocol != monopoly.DealsSealed || g.NetWorth != monopoly.NetWorthResale {
		t.Errorf("merged: %q", r.Text)
	}
	_, err = preset.With("mine.yaml", "# mine\nauctions: maybe\n")
	if Classify(err).Code != CodeBadSetup || !strings.Contains(err.Error(), "mine.yaml:2") {
		t.Errorf("a bad file on a preset: %v", err)
	}
	if _, err := preset.With("mine.yaml", "# mine\ncounter_offers: 2\n"); Classify(err).Code != CodeBadSetup || !strings.Contains(err.Error(), "mine.yaml:2") {
		t.Errorf("counter-offers on sealed deals: %v", err)
	}
}

// Every session error has its code.
func TestClassify(t *testing.T) {
	s := newGame(t, "human,baseline")
	tok := s.Tokens().Seats[0]
	_, badToken := s.Submit(ctx, "nobody's", agent.Answer{})
	_, spectator := s.Submit(ctx, "", agent.Answer{})
	_, stale := s.Submit(ctx, tok, agent.Answer{}, session.At(99999))
	var setup error = &session.SetupError{Err: errors.New("seat 2: no")}
	for _, c := range []struct {
		err  error
		want Code
	}{
		{session.ErrNotFound, CodeNotFound},
		{setup, CodeBadSetup},
		{badToken, CodeForbidden},
		{spectator, CodeForbidden},
		{stale, CodeRefused},
		{errors.New("disk full"), CodeInternal},
		{&Error{Code: CodeConflict, Err: errors.New("x")}, CodeConflict},
	} {
		if got := Classify(c.err); got.Code != c.want {
			t.Errorf("%v: %s, want %s", c.err, got.Code, c.want)
		}
	}
	if Classify(nil) != nil {
		t.Error("nil is classified")
	}
}

// Programs are seated only where the host says so; bots always.
func TestPlayersRefusePrograms(t *testing.T) {
	if _, err := Players(false, "ask the host")("exec:true"); err == nil || !strings.Contains(err.Error(), "ask the host") {
		t.Errorf("a program refused: %v", err)
	}
	if _, err := Players(true, "")("exec:true"); err != nil {
		t.Errorf("a program allowed: %v", err)
	}
	if _, err := Players(false, "x")("shark"); err != nil {
		t.Errorf("a bot: %v", err)
	}
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := session.NewManager(st, session.Options{Players: Players(false, "not here")})
	seats, _ := session.ParseSeats("human,exec:true")
	_, err = m.Create(ctx, session.Setup{Seats: seats})
	if Classify(err).Code != CodeBadSetup || !strings.Contains(err.Error(), "seat 2") || !strings.Contains(err.Error(), "not here") {
		t.Errorf("a session seating a program: %v", err)
	}
}

// Each dialect reads an answer once, for the seat that answers; a bad
// one is refused and changes nothing.
func TestDialects(t *testing.T) {
	for _, d := range []Dialect{JSON, Notation} {
		got, err := LookupDialect(d.Name())
		if err != nil || got != d {
			t.Errorf("%s: %v", d.Name(), err)
		}
	}
	if _, err := LookupDialect("klingon"); Classify(err).Code != CodeBadInput {
		t.Errorf("an unknown dialect: %v", err)
	}
	s := newGame(t, "human,baseline")
	tok := s.Tokens().Seats[0]
	p, err := s.Pending(tok)
	if err != nil || !p.YourTurn {
		t.Fatalf("pending: %+v, %v", p, err)
	}
	before := s.Status()
	if _, err := s.Submit(ctx, tok, agent.Answer{}, Answer(Notation, []byte("fly to the moon"))); Classify(err).Code != CodeRefused {
		t.Errorf("bad notation: %v", err)
	}
	if _, err := s.Submit(ctx, tok, agent.Answer{}, Answer(JSON, []byte(`{"action":{"kind":"fly"}}`))); Classify(err).Code != CodeRefused {
		t.Errorf("bad JSON: %v", err)
	}
	if st := s.Status(); st.Entries != before.Entries || st.Digest != before.Digest {
		t.Fatal("refused answers changed the game")
	}
	// Answered in the notation and held, until the bot is to play: it
	// does not, until advanced.
	for range 200 {
		pr, err := s.Submit(ctx, tok, agent.Answer{}, Answer(Notation, []byte(p.Options.Notation[0])), session.At(p.Entries), session.Hold())
		if err != nil || pr.Entries != p.Entries+1 || pr.Played != 0 {
			t.Fatalf("%q in notation, held: %+v, %v", p.Options.Notation[0], pr, err)
		}
		if pr.Waiting < 0 && !pr.Over {
			if pr, err := s.Advance(ctx, 0); err != nil || pr.Played == 0 {
				t.Errorf("the held bot's turn: %+v, %v", pr, err)
			}
			return
		}
		if p, err = s.Pending(tok); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the bot never came to play")
}

// Pacing a game that is not paced is a conflict; a speed out of range is
// bad input; neither changes anything.
func TestDriversRefuse(t *testing.T) {
	d := NewDrivers(nil)
	defer d.Close()
	s := newGame(t, "human,baseline")
	if err := d.Begin(ctx, s); err != nil {
		t.Fatal(err)
	}
	if d.Pace(s.ID()).Paced {
		t.Error("a game with a person is paced")
	}
	fast := 9.0
	if _, err := d.Set(s.ID(), &fast, nil, false); Classify(err).Code != CodeBadInput || Classify(err).Name() != "bad_speed" {
		t.Errorf("speed 9: %v", err)
	}
	if _, err := d.Set(s.ID(), nil, nil, true); Classify(err).Code != CodeConflict || Classify(err).Name() != "not_paced" {
		t.Errorf("a step of a game with a person: %v", err)
	}
}
