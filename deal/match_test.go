package deal

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Every name the front ends offer makes an agent under the right rules;
// any other name is the locator's to find or refuse.
func TestNewAgent(t *testing.T) {
	none := func(name string) (string, error) { return "", errors.New("no file " + name) }
	ck, err := Bundled()
	if err != nil {
		t.Fatal(err)
	}
	seat, r, err := NewAgent("bundled", Tiny(), none)
	if err != nil || r.Config().Name != ck.Config.Name || seat.Abstraction != ck.Params.Abstraction {
		t.Fatalf("bundled: %v under %q", err, r.Config().Name)
	}
	for _, name := range ReferenceAgents() {
		seat, r, err := NewAgent(name, Tiny(), none)
		if err != nil || r.Config().Name != "tiny" || seat.Agent == nil {
			t.Fatalf("%s: %v %+v", name, err, seat)
		}
	}
	for _, name := range []string{"", "nobody", "../x.json"} {
		if _, _, err := NewAgent(name, Tiny(), none); err == nil || err.Error() != "no file "+name {
			t.Fatalf("%q: %v, want the locator's refusal", name, err)
		}
	}
	// A located checkpoint plays under its own rules, not cfg's.
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	if err := WriteFileAtomic(path, checkpointBytes(t, train(t, Small(), quickParams(), Sequential, 1, 4))); err != nil {
		t.Fatal(err)
	}
	_, r, err = NewAgent("p.json", Tiny(), func(name string) (string, error) { return filepath.Join(dir, name), nil })
	if err != nil || r.Config().Name != "small" {
		t.Fatalf("checkpoint: %v", err)
	}
	if _, _, err := NewAgent("q.json", Tiny(), func(name string) (string, error) { return filepath.Join(dir, name), nil }); err == nil {
		t.Fatal("a missing checkpoint loads")
	}
}

// A match keeps a record that replays to the same game, shows the agent's
// moves before playing them, refuses the person's moves out of turn, and
// saves its record atomically for everyone to read.
func TestMatch(t *testing.T) {
	r := MustRules(Paper())
	agent, _ := Baseline("risk-aware")
	for seed := uint64(1); seed <= 10; seed++ {
		m := NewMatch(r, agent, seed, int(seed&1))
		g := m.Game()
		moves := 0
		for {
			err := m.AgentPlays(func(before *Game, mv AgentMove) {
				if before.ToAct() != Opponent || before.Over() {
					t.Fatal("an agent move shown after it was played, or out of turn")
				}
				if sum := mv.Probs[mv.Abstract]; sum <= 0 {
					t.Fatalf("the agent played %s at probability %v", mv.Abstract, sum)
				}
				moves++
			})
			if err != nil {
				t.Fatal(err)
			}
			if g.Over() {
				break
			}
			if g.ToAct() != Person {
				t.Fatal("the agent stopped before the person's turn")
			}
			if err := m.Play(g.Legal(nil)[0]); err != nil {
				t.Fatal(err)
			}
		}
		if moves == 0 {
			t.Fatal("the agent never moved")
		}
		rec := m.Record()
		if err := m.Play(Action{Op: OpPass}); err == nil || len(m.Record().Actions) != len(rec.Actions) {
			t.Fatalf("a move after the end: %v", err)
		}
		checkReplays(t, rec, g)
		// The same seed and the same person's moves give the same game.
		if again := NewMatch(r, agent, seed, int(seed&1)); again.Game().Clone() != New(r, seed, int(seed&1)) {
			t.Fatal("a match deals another game than New")
		}
	}
	m := NewMatch(r, agent, 3, Opponent)
	if err := m.Play(m.Game().Legal(nil)[0]); err == nil || len(m.Record().Actions) != 0 {
		t.Fatalf("the person moved in the agent's turn: %v", err)
	}
	path := filepath.Join(t.TempDir(), "game.json")
	if err := m.AgentPlays(func(*Game, AgentMove) {}); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	var back Record
	if err != nil || json.Unmarshal(data, &back) != nil || len(back.Actions) == 0 || len(back.Actions) != len(m.Record().Actions) {
		t.Fatalf("saved record %s: %v", data, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o044 != 0o044 {
		t.Fatalf("saved record not readable by all: %v %v", fi.Mode(), err)
	}
	if err := m.Save(filepath.Join(t.TempDir(), "missing", "game.json")); err == nil {
		t.Fatal("saved into a directory that does not exist")
	}
}
