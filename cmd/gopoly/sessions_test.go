package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// sessionStore opens a manager of the session store in dir, as a
// process other than the CLI's would.
func sessionStore(t *testing.T, dir string) *session.Manager {
	t.Helper()
	st, err := store.Open(context.Background(), store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return session.NewManager(st, session.Options{Research: true})
}

// newStoredSession creates a session of seats (see session.ParseSeats)
// in m and plays it: bots to the end or to the first waiting seat, whose
// answers, steps at most, come from a stand-in baseline bot. A game of a
// short round limit keeps the tests fast.
func newStoredSession(t *testing.T, m *session.Manager, seed uint64, seats string, steps int) *session.Session {
	t.Helper()
	ctx := context.Background()
	list, err := session.ParseSeats(seats)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Create(ctx, session.Setup{Seed: seed, Seats: list, Rules: "max_rounds: 25"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Advance(ctx, 0)
	for n := 0; err == nil && !p.Over && n < steps; n++ {
		stand, nerr := agent.New("baseline", p.Waiting, agent.SeatSeed(seed, p.Waiting))
		if nerr != nil {
			t.Fatal(nerr)
		}
		g := s.Game()
		p, err = s.Submit(ctx, s.Tokens().Seats[p.Waiting], agent.Answer{Action: stand.Decide(g.View(p.Waiting), g.Pending())})
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sessionsRun runs gopoly args in process with --data dir and fails the
// test unless it exits with code want.
func sessionsRun(t *testing.T, dir string, want int, args ...string) (string, string) {
	t.Helper()
	stdout, stderr, code := inProcess(append(args, "--data", dir)...)
	if code != want {
		t.Fatalf("%v: exit %d, want %d; stderr %q", args, code, want, stderr)
	}
	return stdout, stderr
}

var createdRE = regexp.MustCompile(`^session ([0-9a-f]+): `)

// createdID is the id of the session a fork or an import reports.
func createdID(t *testing.T, stdout string) string {
	t.Helper()
	m := createdRE.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no session id in %q", stdout)
	}
	return m[1]
}

func TestSessionsListAndDelete(t *testing.T) {
	dir := t.TempDir()
	m := sessionStore(t, dir)
	done := newStoredSession(t, m, 1, "baseline,shark", 0)
	waiting := newStoredSession(t, m, 2, "human,turtle,random", 0)
	fork, err := m.Fork(context.Background(), done.ID(), 20, nil)
	if err != nil {
		t.Fatal(err)
	}

	stdout, _ := sessionsRun(t, dir, 0, "sessions", "--json")
	var got []sessionInfo
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	want := []*session.Session{fork, waiting, done} // newest first
	if len(got) != len(want) {
		t.Fatalf("%d sessions listed, want %d", len(got), len(want))
	}
	for i, s := range want {
		g, st := got[i], s.Status()
		if g.ID != s.ID() || g.Entries != st.Entries || g.Round != st.Round || g.Status != st.Summary || len(g.Seats) != len(s.Setup().Seats) {
			t.Errorf("listed %d: %+v, want %s: %+v", i, g, s.ID(), st)
		}
	}
	if got[0].Parent != done.ID() || got[1].Parent != "" || got[2].Winner != done.Status().Winner || !got[2].Over {
		t.Errorf("listed parents %q, %q; winner %d", got[0].Parent, got[1].Parent, got[2].Winner)
	}

	text, _ := sessionsRun(t, dir, 0, "sessions")
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 4 {
		t.Fatalf("listing of %d lines:\n%s", len(lines), text)
	}
	for i, s := range want {
		for _, part := range []string{s.ID(), s.Setup().Seats[1].Describe(), s.Status().Summary, " " + strconv.Itoa(s.Status().Entries) + " "} {
			if !strings.Contains(lines[i+1], part) {
				t.Errorf("line %q lacks %q", lines[i+1], part)
			}
		}
	}
	if !strings.Contains(lines[1], " "+done.ID()+" ") {
		t.Errorf("the fork's line does not name its parent: %q", lines[1])
	}

	// One unknown id, and nothing is deleted.
	_, stderr := sessionsRun(t, dir, 2, "sessions", "delete", waiting.ID(), "0123456789ab")
	if !strings.Contains(stderr, "no session 0123456789ab in ") || !strings.Contains(stderr, "gopoly sessions lists them") {
		t.Errorf("stderr %q", stderr)
	}
	if recs, _ := m.List(context.Background()); len(recs) != 3 {
		t.Fatalf("%d sessions left after a refused delete", len(recs))
	}
	sessionsRun(t, dir, 0, "sessions", "delete", waiting.ID(), fork.ID())
	if recs, _ := m.List(context.Background()); len(recs) != 1 || recs[0].ID != done.ID() {
		t.Errorf("left after delete: %+v", recs)
	}

	empty := t.TempDir()
	if out, _ := sessionsRun(t, empty, 0, "sessions"); !strings.HasPrefix(out, "no sessions in sqlite ") {
		t.Errorf("empty store: %q", out)
	}
	if out, _ := sessionsRun(t, empty, 0, "sessions", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("empty store, --json: %q", out)
	}
}

func TestReplayCmd(t *testing.T) {
	dir := t.TempDir()
	m := sessionStore(t, dir)
	s := newStoredSession(t, m, 5, "human,shark,hustler", 60)
	st := s.Status()
	if st.Over || st.Entries < 100 {
		t.Fatalf("a session of %d answers, over %v: want a long one in play", st.Entries, st.Over)
	}
	// The events up to answer at, as the viewer with token sees them.
	upTo := func(token string, at int) []session.Event {
		evs, _, err := s.History(token, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for n < len(evs) && evs[n].Entry < at {
			n++
		}
		return evs[:n]
	}
	turnLine := regexp.MustCompile(`(?m)^  (Ann|Bob|Cat)  \$-?[0-9]+  (on |in jail)`)
	for _, at := range []int{0, 57, st.Entries} {
		for _, thoughts := range []bool{false, true} {
			args := []string{"replay", s.ID(), "--at", strconv.Itoa(at)}
			token := ""
			if thoughts {
				args, token = append(args, "--thoughts"), s.Tokens().Research
			}
			want := upTo(token, at)
			var turns, thinks int
			for _, e := range want {
				switch {
				case e.Engine.Kind == monopoly.EvTurnStart:
					turns++
				case e.Engine.Thought != "":
					thinks++
				}
			}
			if thoughts && at > 0 && thinks == 0 {
				t.Fatalf("no thoughts to show up to answer %d", at)
			}
			text, _ := sessionsRun(t, dir, 0, args...)
			if n := len(turnLine.FindAllString(text, -1)); n != turns {
				t.Errorf("%v: %d turns shown, want %d", args, n, turns)
			}
			if n := strings.Count(text, " thinks: "); n != thinks {
				t.Errorf("%v: %d thoughts shown, want %d", args, n, thinks)
			}
			g, err := s.GameAt(at)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(text, "── Round "); n != g.Round() {
				t.Errorf("%v: %d round headers, the game is in round %d", args, n, g.Round())
			}
			if !strings.Contains(text, "── After answer "+strconv.Itoa(at)+" of "+strconv.Itoa(st.Entries)+" ") || strings.Contains(text, "Final standings") {
				t.Errorf("%v: no status block:\n%s", args, text)
			}
			if who := s.Setup().Seats[g.Decider()]; !strings.Contains(text, who.Name+" ("+seatLabel(who)+") to decide "+g.Pending().Kind.String()) {
				t.Errorf("%v: does not say %s decides", args, who.Describe())
			}

			jsonLines, _ := sessionsRun(t, dir, 0, append(args, "--json")...)
			var b bytes.Buffer
			for _, e := range want {
				line, _ := json.Marshal(e.Event)
				b.Write(append(line, '\n'))
			}
			if jsonLines != b.String() {
				t.Errorf("%v --json: %d lines differ from the %d events of the history", args, strings.Count(jsonLines, "\n"), len(want))
			}
		}
	}

	// A game over shows the final standings.
	over := newStoredSession(t, m, 6, "baseline,turtle", 0)
	text, _ := sessionsRun(t, dir, 0, "replay", over.ID())
	if !strings.Contains(text, "── Final standings") || !strings.Contains(text, "Winner: ") && !strings.Contains(text, "No winner") {
		t.Errorf("replay of a game over:\n%s", text)
	}

	if _, stderr := sessionsRun(t, dir, 2, "replay", s.ID(), "--at", strconv.Itoa(st.Entries+1)); !strings.Contains(stderr, "answers 0 to "+strconv.Itoa(st.Entries)) {
		t.Errorf("--at past the log: %q", stderr)
	}
	if _, stderr := sessionsRun(t, dir, 2, "replay", "0123456789ab"); !strings.Contains(stderr, "replay: no session 0123456789ab in sqlite ") {
		t.Errorf("unknown id: %q", stderr)
	}
}

func TestForkCmd(t *testing.T) {
	dir := t.TempDir()
	m := sessionStore(t, dir)
	src := newStoredSession(t, m, 7, "baseline,shark,professor", 0)
	const at = 40
	listed := func() int {
		recs, err := m.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return len(recs)
	}
	for _, bad := range [][]string{
		{"--at", "40", "--seats", "human,shark"},
		{"--at", "40", "--seats", "human,shark,nobody"},
		{"--at", "-1"},
		{"--at", "100000"},
		{},
	} {
		sessionsRun(t, dir, 2, append([]string{"fork", src.ID()}, bad...)...)
	}
	if n := listed(); n != 1 {
		t.Fatalf("%d sessions after refused forks", n)
	}

	for _, seats := range []string{"", "human,shark,turtle"} {
		args := []string{"fork", src.ID(), "--at", strconv.Itoa(at)}
		if seats != "" {
			args = append(args, "--seats", seats)
		}
		stdout, _ := sessionsRun(t, dir, 0, args...)
		id := createdID(t, stdout)
		if !strings.Contains(stdout, "gopoly play --resume "+id) {
			t.Errorf("%v: no hint to resume:\n%s", args, stdout)
		}
		f, err := sessionStore(t, dir).Open(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		a, errA := f.GameAt(at)
		b, errB := src.GameAt(at)
		if errA != nil || errB != nil || !a.SameState(b) || f.Status().Entries != at {
			t.Errorf("%v: the fork's game differs from its source's at %d (%v, %v)", args, at, errA, errB)
		}
		want := src.Setup().Seats
		if seats != "" {
			// The seats changed answer from the fork on.
			want[0] = session.Seat{Name: "Ann", Kind: session.SeatHuman, Since: at}
			want[2].Bot, want[2].Since = "turtle", at
		}
		for i, seat := range f.Setup().Seats {
			if seat != want[i] {
				t.Errorf("%v: fork seat %d is %+v, want %+v", args, i, seat, want[i])
			}
		}
	}
	if n := listed(); n != 3 {
		t.Errorf("%d sessions after two forks", n)
	}
}

func TestExportImportCmd(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	src := newStoredSession(t, sessionStore(t, dir), 8, "human,hustler", 60)
	file := filepath.Join(t.TempDir(), "game.json")
	sessionsRun(t, dir, 0, "export", src.ID(), "-o", file)
	// Another data directory has another key: the export is refused
	// there unless trusted, and then says it was.
	if _, stderr := sessionsRun(t, other, 2, "import", file); !strings.Contains(stderr, "signature") || !strings.Contains(stderr, "--trust") {
		t.Errorf("import elsewhere: %q, want the signature refused with a hint", stderr)
	}
	stdout, _ := sessionsRun(t, other, 0, "import", file, "--trust")
	m := sessionStore(t, other)
	in, err := m.Open(context.Background(), createdID(t, stdout))
	if err != nil {
		t.Fatal(err)
	}
	if in.ID() != src.ID() || in.Status().Digest != src.Status().Digest || in.Status().Entries != src.Status().Entries {
		t.Errorf("imported %s: %+v, exported %s: %+v", in.ID(), in.Status(), src.ID(), src.Status())
	}
	if listing, _ := sessionsRun(t, other, 0, "sessions"); !strings.Contains(listing, "imported trusted") {
		t.Errorf("the trusted import is not marked in the list:\n%s", listing)
	}

	// Export to stdout, import from stdin into the same data directory:
	// the signature checks out, and the id is taken, so the import is
	// stored under a new one.
	exported, _ := sessionsRun(t, dir, 0, "export", src.ID())
	var out, errOut bytes.Buffer
	if code := execute([]string{"import", "-", "--data", dir}, strings.NewReader(exported), &out, &errOut); code != 0 {
		t.Fatalf("import -: exit %d, %s", code, errOut.String())
	}
	again, err := sessionStore(t, dir).Open(context.Background(), createdID(t, out.String()))
	if err != nil || again.ID() == src.ID() || again.Status().Digest != src.Status().Digest || again.Setup().Trusted {
		t.Errorf("import from stdin: %v", err)
	}

	// Malformed documents are refused and nothing is stored.
	empty := t.TempDir()
	truncated := filepath.Join(t.TempDir(), "truncated.json")
	doctored := filepath.Join(t.TempDir(), "doctored.json")
	data, _ := os.ReadFile(file)
	os.WriteFile(truncated, data[:len(data)/2], 0o666)
	os.WriteFile(doctored, bytes.Replace(data, []byte(`"seed": 8`), []byte(`"seed": 9`), 1), 0o666)
	for file, want := range map[string]string{truncated: "line ", doctored: "replays differently"} {
		_, stderr := sessionsRun(t, empty, 2, "import", file, "--trust")
		if !strings.Contains(stderr, file) || !strings.Contains(stderr, want) {
			t.Errorf("import %s: %q, want %q", filepath.Base(file), stderr, want)
		}
	}
	if recs, err := sessionStore(t, empty).List(context.Background()); err != nil || len(recs) != 0 {
		t.Errorf("%d sessions stored from malformed files (%v)", len(recs), err)
	}
	if _, stderr := sessionsRun(t, empty, 2, "export", "0123456789ab"); !strings.Contains(stderr, "export: no session 0123456789ab") {
		t.Errorf("export of an unknown id: %q", stderr)
	}
}
