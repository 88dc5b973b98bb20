package wire_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire/wiretest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The random games are wiretest's, shared with the tests of render.
type (
	variant      = wiretest.Variant
	randomPlayer = wiretest.Player
	found        = wiretest.Found
)

var (
	variants        = wiretest.Variants
	rulesOf         = wiretest.RulesOf
	newRandomPlayer = wiretest.NewPlayer
	newGame         = wiretest.NewGame
	positions       = wiretest.Positions
	candidates      = wiretest.Candidates
	findPosition    = wiretest.FindPosition
	deckOf          = wiretest.DeckOf
)

// sameAction compares actions by value, offers by what they hold.
func sameAction(a, b monopoly.Action) bool {
	if (a.Offer == nil) != (b.Offer == nil) {
		return false
	}
	if a.Offer != nil && *a.Offer != *b.Offer {
		return false
	}
	a.Offer, b.Offer = nil, nil
	return a == b
}

// golden compares got, as indented JSON, with testdata/name, or writes
// it there under -update.
func golden(t *testing.T, name string, got any) {
	t.Helper()
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./wire -update to write it)", err)
	}
	if string(want) != string(data) {
		t.Errorf("%s differs from the golden file; if the change is meant, run go test ./wire -update and review the diff\ngot:\n%s", path, data)
	}
}
