package session_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
)

// testKey is a fresh data directory's export key.
func testKey(t *testing.T) []byte {
	t.Helper()
	key, err := session.LoadKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// The key is made once and read back the same; a key file too short to
// be a key is refused, not used.
func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	a, err := session.LoadKey(filepath.Join(dir, "new"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := session.LoadKey(filepath.Join(dir, "new"))
	if err != nil || string(a) != string(b) || len(a) < 32 {
		t.Fatalf("key %q, then %q (%v)", a, b, err)
	}
	if c := testKey(t); string(c) == string(a) {
		t.Fatal("two data directories have the same key")
	}
	if info, err := os.Stat(filepath.Join(dir, "new", session.KeyFile)); err != nil || info.Mode().Perm()&0o077 != 0 {
		t.Errorf("key file mode %v (%v): others may read it", info.Mode(), err)
	}
	os.WriteFile(filepath.Join(dir, session.KeyFile), []byte("short\n"), 0o600)
	if _, err := session.LoadKey(dir); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a short key: %v", err)
	}
}

// editExport applies edit to an export's JSON and returns it, signature
// and all as they were.
func editExport(t *testing.T, data []byte, edit func(x map[string]any)) []byte {
	t.Helper()
	var x map[string]any
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	edit(x)
	out, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// entries is an export's log, to edit.
func entries(x map[string]any) []map[string]any {
	var out []map[string]any
	for _, e := range x["log"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

// pasteDigest sets the digest an import's refusal says the log gives, as
// someone would who edits the log and then pastes the digest in.
func pasteDigest(t *testing.T, data []byte, err error) []byte {
	t.Helper()
	m := regexp.MustCompile(`give digest (\S+) on this engine`).FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		t.Fatalf("the refusal names no digest: %v", err)
	}
	return editExport(t, data, func(x map[string]any) { x["digest"] = m[1] })
}

// An export with its setup edited (seat 1's shark made a turtle, and its
// entries marked as the turtle's) is
// refused for its signature, and, trusted, because the turtle does not
// answer as the log says. The same file from another data directory
// (another key) is refused for its signature too.
func TestImportEditedSetup(t *testing.T) {
	key := testKey(t)
	m := session.NewManager(openStore(t), session.Options{Key: key})
	s := botSession(t, m, 9, "cautious,shark")
	data, err := s.Export()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(by bool) []byte {
		return editExport(t, data, func(x map[string]any) {
			seat := x["setup"].(map[string]any)["seats"].([]any)[1].(map[string]any)
			if seat["bot"] != "shark" {
				t.Fatalf("seat 1 is %v", seat)
			}
			seat["bot"] = "turtle"
			for _, e := range entries(x) {
				if by && e["seat"] == float64(1) {
					e["by"] = "bot:turtle" // as a careful editor would
				}
			}
		})
	}
	here := session.NewManager(openStore(t), session.Options{Key: key})
	for _, tc := range []struct {
		by   bool
		want string // the refusal, trusted
	}{{false, `is by "bot:shark", but Bob (turtle) plays`}, {true, "Bob (turtle) answered"}} {
		edited := edit(tc.by)
		if _, err := here.Import(ctx, edited); !errors.Is(err, session.ErrSignature) {
			t.Errorf("edited setup (by too: %v): %v, want ErrSignature", tc.by, err)
		}
		if _, err := here.Import(ctx, edited, session.Trust()); !errors.Is(err, session.ErrReplay) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("edited setup (by too: %v), trusted: %v, want %q", tc.by, err, tc.want)
		}
	}
	if recs, err := here.List(ctx); err != nil || len(recs) != 0 {
		t.Errorf("refused imports stored %d sessions (%v)", len(recs), err)
	}
	elsewhere := session.NewManager(openStore(t), session.Options{Key: testKey(t)})
	if _, err := elsewhere.Import(ctx, data); !errors.Is(err, session.ErrSignature) {
		t.Errorf("another data directory's export: %v, want ErrSignature", err)
	}
	in, err := elsewhere.Import(ctx, data, session.Trust())
	if err != nil || !in.Setup().Trusted || !strings.Contains(in.Status().Summary, "trusted") {
		t.Fatalf("another data directory's export, trusted: %v; setup %+v, summary %q", err, in.Setup(), in.Status().Summary)
	}
	if recs, err := elsewhere.List(ctx); err != nil || len(recs) != 1 || !strings.Contains(recs[0].Status.Summary, "trusted") {
		t.Errorf("the stored record does not say it was trusted: %+v (%v)", recs, err)
	}
	if again, err := elsewhere.Open(ctx, in.ID()); err != nil || !again.Setup().Trusted {
		t.Errorf("reopened, the session forgot it was trusted (%v)", err)
	}
	if s.Setup().Trusted || strings.Contains(s.Status().Summary, "trusted") {
		t.Error("a session played here says it was trusted")
	}
}

// A person's answer edited, with the digest the refusal printed pasted
// in, is refused for the signature; trusted, it imports, marked so.
// A bot's answer edited the same way is refused even trusted: the bot is
// asked again, and answers otherwise.
func TestImportTamperedLog(t *testing.T) {
	key := testKey(t)
	m := session.NewManager(openStore(t), session.Options{Key: key})
	s, err := m.Create(ctx, setup(4, "human,shark"))
	if err != nil {
		t.Fatal(err)
	}
	playThrough(t, s, map[int]agent.Agent{0: stand(t, "random", 4, 0)}, 0)
	data, err := s.Export()
	if err != nil {
		t.Fatal(err)
	}
	tamper := func(seat int, words string) []byte {
		return editExport(t, data, func(x map[string]any) {
			for _, e := range entries(x)[40:] {
				if e["seat"] == float64(seat) {
					e["speech"] = words
					return
				}
			}
			t.Fatalf("seat %d has no answer past entry 40", seat)
		})
	}
	here := session.NewManager(openStore(t), session.Options{Key: key})
	person := tamper(0, "I never said this")
	_, err = here.Import(ctx, person, session.Trust())
	if !errors.Is(err, session.ErrReplay) {
		t.Fatalf("tampered log: %v, want its digest refused", err)
	}
	pasted := pasteDigest(t, person, err)
	if _, err := here.Import(ctx, pasted); !errors.Is(err, session.ErrSignature) {
		t.Errorf("tampered log with the digest pasted: %v, want ErrSignature", err)
	}
	if in, err := here.Import(ctx, pasted, session.Trust()); err != nil || !in.Setup().Trusted {
		t.Errorf("tampered log with the digest pasted, trusted: %v, want it imported and marked", err)
	}
	if _, err := here.Import(ctx, tamper(1, "I never said this"), session.Trust()); !errors.Is(err, session.ErrReplay) || !strings.Contains(err.Error(), "(shark) said") {
		t.Errorf("a bot's words tampered, trusted: %v, want the bot's answer refused", err)
	}
}

// A bot's answers marked as a person's are still the bot's to give.
// The log is cut after an answer of the bot changed (a purchase
// declined), so that what is left replays, and the digest that log gives
// (as a setup with a person in that seat reports it) is pasted in:
// trusted, the import still refuses the first answer marked.
func TestImportByHuman(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{Key: testKey(t)})
	s := botSession(t, m, 9, "cautious,shark")
	data, err := s.Export()
	if err != nil {
		t.Fatal(err)
	}
	first := -1
	marked := editExport(t, data, func(x map[string]any) {
		log := entries(x)
		for i, e := range log {
			if e["seat"] == float64(1) && strings.Contains(fmt.Sprint(e["action"]), "buy") {
				e["action"] = map[string]any{"kind": "decline"}
				x["log"] = x["log"].([]any)[:i+1]
				break
			}
		}
		for i, e := range entries(x) {
			if e["seat"] == float64(1) {
				e["by"] = "human"
				if first < 0 {
					first = i
				}
			}
		}
	})
	if first < 0 {
		t.Fatal("seat 1 never answered")
	}
	here := session.NewManager(openStore(t), session.Options{})
	asPerson := editExport(t, marked, func(x map[string]any) {
		x["setup"].(map[string]any)["seats"].([]any)[1] = map[string]any{"name": "Bob", "kind": "human"}
	})
	_, err = here.Import(ctx, asPerson, session.Trust())
	pasted := pasteDigest(t, marked, err)
	_, err = here.Import(ctx, pasted, session.Trust())
	if !errors.Is(err, session.ErrReplay) || !strings.Contains(err.Error(), fmt.Sprintf(`entry %d is by "human"`, first)) {
		t.Errorf("a bot's answers marked human, trusted: %v, want entry %d refused", err, first)
	}
}

// A fork that seated another bot imports whole: the answers before the
// fork were the old bot's, which the new one is not asked to have given
// (Seat.Since), and every answer after is its own. A version 1 record of
// such a fork, with no Since, opens with Since read from its log.
func TestForkSince(t *testing.T) {
	key := testKey(t)
	st := openStore(t)
	m := session.NewManager(st, session.Options{Key: key})
	src := botSession(t, m, 6, "baseline,shark")
	at := src.Turns()[10].At
	fork, err := m.Fork(ctx, src.ID(), at, []session.Seat{{}, {Kind: session.SeatBot, Bot: "turtle"}})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := fork.Advance(ctx, 0); err != nil || !p.Over {
		t.Fatalf("advance the fork: %+v, %v", p, err)
	}
	if got := fork.Setup().Seats; got[0].Since != 0 || got[1].Since != at {
		t.Fatalf("the fork's seats start at %d and %d, want 0 and %d", got[0].Since, got[1].Since, at)
	}
	again, err := m.Fork(ctx, fork.ID(), at/2, nil)
	if err != nil || again.Setup().Seats[1].Since != at/2 {
		t.Fatalf("a fork of the fork before its point: %v", err)
	}
	data, err := fork.Export()
	if err != nil {
		t.Fatal(err)
	}
	in, err := session.NewManager(openStore(t), session.Options{Key: key}).Import(ctx, data)
	if err != nil || in.Status().Digest != fork.Status().Digest {
		t.Fatalf("import of the fork: %v", err)
	}

	rec, log, err := st.Load(ctx, fork.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec.ID, rec.Version = "version1", 1
	rec.Setup = []byte(strings.Replace(string(rec.Setup), fmt.Sprintf(`,"since":%d`, at), "", 1))
	if strings.Contains(string(rec.Setup), "since") {
		t.Fatalf("setup %s still has since", rec.Setup)
	}
	if err := st.Create(ctx, rec, log); err != nil {
		t.Fatal(err)
	}
	old, err := session.NewManager(st, session.Options{}).Open(ctx, "version1")
	if err != nil || old.Setup().Seats[1].Since != at {
		t.Fatalf("a version 1 fork: %v", err)
	}
}
