package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/internal/strictyaml"
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
	const two = "name: x\nplayers: [{name: A}, {name: B}]\n"
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
		{"speed die without the variant", two + "dice: [[1, 2, bus]]\n", "bad.yaml:3: dice[0]: a speed die face, but the rules have no speed die"},
		{"bad speed die face", "name: x\nrules: {speed_die: true}\nplayers: [{name: A}, {name: B}]\ndice: [[1, 2, taxi]]\n", "bad.yaml:4: dice[0]: speed die: want 1-6, mr_monopoly or bus"},
		{"four dice", two + "dice: [[1, 2, 3, 4]]\n", "dice[0]: want a pair of dice 1-6"},
		{"bad bus policy", "name: x\nplayers:\n  - {name: A, policy: {bus: both}}\n  - {name: B}\n", "bad.yaml:3: players[0].policy.bus: want die1, die2 or total"},
		{"bad triples square", "name: x\nplayers:\n  - {name: A, policy: {triples: Nowhere}}\n  - {name: B}\n", "players[0].policy.triples"},
		{"bad expect", "name: x\nplayers: [{name: A}, {name: B}]\nexpect: {turn: C}\n", "unknown player \"C\""},
		{"two actions", "name: x\nplayers:\n  - name: A\n    policy:\n      actions:\n        - {turn: 1, when: before_roll, do: [{build: Baltic Avenue, mortgage: Baltic Avenue}]}\n  - {name: B}\n", "want exactly one of"},
		{"syntax", "name: x\nplayers: []\n  oops: 1\n", "bad.yaml:3: invalid YAML"},
		// Positions the engine cannot start from are errors at their line.
		{"mortgaged with houses", two + "properties:\n  Mediterranean Avenue: {owner: A}\n  Baltic Avenue:\n    owner: A\n    houses: 1\n    mortgaged: true\n",
			"bad.yaml:7: properties.Baltic Avenue.houses: a mortgaged property cannot have buildings"},
		{"houses on a railroad", two + "properties:\n  Reading Railroad: {owner: A, houses: 2}\n", "bad.yaml:4: properties.Reading Railroad.houses: only streets take buildings"},
		{"houses without the group", two + "properties:\n  Baltic Avenue: {owner: A, houses: 1}\n  Mediterranean Avenue: {owner: B}\n",
			"bad.yaml:4: properties.Baltic Avenue.houses: buildings need the whole colour group"},
		{"more houses than the bank's", "name: x\nrules: {max_houses: 2}\nplayers: [{name: A}, {name: B}]\nproperties:\n  Baltic Avenue: {owner: A, houses: 2}\n  Mediterranean Avenue: {owner: A, houses: 1}\n",
			"bad.yaml:6: properties.Mediterranean Avenue.houses: 3 houses standing with these, more than the bank's 2"},
		{"negative bank", two + "bank: {houses: -1}\n", "bad.yaml:3: bank.houses: cannot be negative"},
		{"negative cash", "name: x\nplayers:\n  - {name: A, cash: -5}\n  - {name: B}\n", "bad.yaml:3: players[0].cash: cannot be negative"},
		{"in jail off the jail square", "name: x\nplayers:\n  - {name: A, in_jail: true, position: 5}\n  - {name: B}\n", "bad.yaml:3: players[0].position: a player in jail is on the jail square (10)"},
		{"jail card held twice", "name: x\nplayers:\n  - {name: A, jail_cards: [chance]}\n  - name: B\n    jail_cards: [community_chest, chance]\n",
			"bad.yaml:5: players[1].jail_cards[1]: the chance Get Out of Jail Free card is held already"},
		{"held card on top of its deck", "name: x\nplayers:\n  - {name: A, jail_cards: [chance]}\n  - {name: B}\ndecks:\n  chance: [get-out-of-jail-free]\n",
			"bad.yaml:6: decks.chance[0]: no (further) card"},
		{"no name", "# a comment\nplayers: [{name: A}, {name: B}]\n", "bad.yaml:2: name: is required"},
		{"rules without a default deck", "name: x\nplayers: [{name: A}, {name: B}]\nrules:\n  decks: [{name: luck, cards: [{id: a, do: PAY 1}]}]\n", `bad.yaml:3: rules.decks: no deck "community_chest", which the default board uses`},
		{"too large", "name: x\n#" + strings.Repeat("x", strictyaml.MaxBytes) + "\n", "bad.yaml: larger than 1048576 bytes (1 MiB)"},
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

// The speed die's face is given exactly for the rolls that throw it: a
// face missing, a face on a roll that does not throw the die, and triples
// with no square to go to make a scenario faulty, not a pass or a fail.
func TestFaultySpeedDieScenarios(t *testing.T) {
	const head = "name: x\nrules: {speed_die: true}\n"
	cases := []struct{ name, doc, want string }{
		{"face missing", head + "players:\n  - {name: A, passed_go: true}\n  - {name: B}\ndice: [[1, 2]]\n",
			"dice[0]: the roll throws the speed die"},
		{"face before the first lap", head + "players: [{name: A}, {name: B}]\ndice: [[1, 2, 3]]\n",
			"dice[0]: gives a speed die face, but that roll does not throw the speed die"},
		{"face in jail", head + "players:\n  - {name: A, passed_go: true, in_jail: true}\n  - {name: B}\ndice: [[1, 2, 3]]\n",
			"dice[0]: gives a speed die face, but that roll does not throw the speed die"},
		{"triples with nowhere to go", head + "players:\n  - {name: A, passed_go: true}\n  - {name: B}\ndice: [[2, 2, 2]]\n",
			"A rolled triples but its policy names no triples square"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("faulty.yaml", []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(); err == nil || !strings.Contains(err.Error(), "faulty scenario: "+c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// A scenario the engine cannot set up is bad input, an ERROR naming the
// file and line, as other mistakes in a scenario are: not a FAIL, which
// says the engine broke a rule.
func TestImpossibleSetupIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "impossible.yaml")
	os.WriteFile(path, []byte("name: impossible\nplayers: [{name: A}, {name: B}]\nproperties:\n  Mediterranean Avenue: {owner: A}\n  Baltic Avenue: {owner: A, houses: 1, mortgaged: true}\n"), 0o644)
	var out bytes.Buffer
	failed, bad := RunPaths(&out, []string{path})
	if want := "ERROR " + path + ":5: properties.Baltic Avenue.houses: a mortgaged property cannot have buildings\n0 passed, 1 failed\n"; failed != 1 || !bad || out.String() != want {
		t.Fatalf("failed %d, bad input %v, output %q; want %q", failed, bad, out.String(), want)
	}
}
