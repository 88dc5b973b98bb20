package session_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/session"
)

// A config is checked before it is stored: a bad one is refused with its
// line and field, and stores nothing; a good one plays as its rules say.
func TestSaveConfig(t *testing.T) {
	m := session.NewManager(openStore(t), session.Options{})
	for _, tc := range []struct{ id, yaml, want string }{
		{"fast", "max_rounds: 20\nstarting_cash: -5\n", "config fast:2: starting_cash"},
		{"fast", "max_rounds: 20\nauctionz: false\n", "auctionz"},
		{"Bad ID", "max_rounds: 20\n", "config id"},
		{"fast", "max_rounds: [\n", "config fast"},
	} {
		if _, err := m.SaveConfig(ctx, tc.id, "", tc.yaml); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %q: %v, want %q", tc.id, tc.yaml, err, tc.want)
		}
	}
	if cs, err := m.Configs(ctx); err != nil || len(cs) != 0 {
		t.Fatalf("refused configs stored: %v %v", cs, err)
	}
	if _, err := m.SaveConfig(ctx, "fast", "Fast games", "max_rounds: 20\nauctions: false\n"); err != nil {
		t.Fatal(err)
	}
	c, err := m.Config(ctx, "fast")
	if err != nil || c.Name != "Fast games" {
		t.Fatalf("%+v %v", c, err)
	}
	s, err := m.Create(ctx, session.Setup{Rules: c.YAML, Seed: 3, Seats: setup(3, "baseline,baseline").Seats})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules().MaxRounds != 20 || s.Rules().Auctions {
		t.Errorf("rules from the config: max_rounds %d, auctions %v", s.Rules().MaxRounds, s.Rules().Auctions)
	}
	if err := m.DeleteConfig(ctx, "fast"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Config(ctx, "fast"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("deleted config: %v", err)
	}
}
