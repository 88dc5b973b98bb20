package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runDir runs every scenario of a directory as a subtest.
func runDir(t *testing.T, dir string) int {
	files, err := Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		s, err := ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			if err := s.Run(); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		})
	}
	return len(files)
}

func TestProjectScenarios(t *testing.T) {
	if n := runDir(t, "testdata"); n < 18+30 {
		t.Fatalf("only %d scenarios in testdata", n)
	}
}

// TestSharedScenarios picks up the public scenarios beside the checkout,
// so that new ones are run as soon as they appear.
func TestSharedScenarios(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "conformance")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no ../shared/conformance beside the checkout")
	}
	runDir(t, dir)
}

func TestRunPathsSummary(t *testing.T) {
	var out bytes.Buffer
	failed, bad := RunPaths(&out, []string{"testdata/public"})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if failed != 0 || bad || lines[len(lines)-1] != "18 passed, 0 failed" {
		t.Fatalf("summary %q (failed %d, bad %v)", lines[len(lines)-1], failed, bad)
	}
}

// A scenario whose expectation is wrong must fail with the field named.
func TestWrongExpectationFails(t *testing.T) {
	s, err := Parse("wrong.yaml", []byte(`
name: wrong cash
players:
  - {name: A, policy: {buy: always}}
  - {name: B}
dice: [[2, 4]]
expect:
  players:
    A: {cash: 1500}
`))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Run()
	if err == nil || !strings.Contains(err.Error(), "players.A.cash: want 1500, got 1400") {
		t.Fatalf("got %v", err)
	}
}

func TestMalformedScenarios(t *testing.T) {
	cases := []struct {
		name, doc, want string
	}{
		{"unknown key", "name: x\nplayers: [{name: A}, {name: B}]\nfoo: 1\n", "bad.yaml:3: foo: unknown key"},
		{"bad type", "name: x\nplayers:\n  - {name: A, cash: lots}\n  - {name: B}\n", "bad.yaml:3: players[0].cash: want an integer"},
		{"unknown property", "name: x\nplayers: [{name: A}, {name: B}]\nproperties:\n  Nowhere Lane: {owner: A}\n", "bad.yaml:4: properties.Nowhere Lane: unknown property"},
		{"unknown card", "name: x\nplayers: [{name: A}, {name: B}]\ndecks:\n  chance: [free-money]\n", "decks.chance[0]: no (further) card"},
		{"bad rules key", "name: x\nrules: {free_lunch: true}\nplayers: [{name: A}, {name: B}]\n", "rules.free_lunch: unknown key"},
		{"bad dice", "name: x\nplayers: [{name: A}, {name: B}]\ndice: [[7, 1]]\n", "dice[0]: want a pair of dice"},
		{"one player", "name: x\nplayers: [{name: A}]\n", "players: needs 2 to 8 players"},
		{"bad expect", "name: x\nplayers: [{name: A}, {name: B}]\nexpect: {turn: C}\n", "unknown player \"C\""},
		{"two actions", "name: x\nplayers:\n  - name: A\n    policy:\n      actions:\n        - {turn: 1, when: before_roll, do: [{build: Baltic Avenue, mortgage: Baltic Avenue}]}\n  - {name: B}\n", "want exactly one of"},
		{"syntax", "name: x\nplayers: []\n  oops: 1\n", "bad.yaml:3: invalid YAML"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// A scenario that draws more cards than it lists depends on the shuffle:
// the runner must call it faulty rather than pass or fail it by chance.
func TestFaultyDeckScenario(t *testing.T) {
	s, err := Parse("faulty.yaml", []byte(`
name: draws an unlisted card
players:
  - {name: A, position: 4}
  - {name: B}
dice: [[1, 2]]
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(); err == nil || !strings.Contains(err.Error(), "faulty scenario") {
		t.Fatalf("got %v", err)
	}
}
