package bench

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "draw positions.json again with Generate")

// The set's generation: perKind positions a kind, from at most maxSeeds
// games, chosen by the spread of genOptions' rollouts (a seed the
// scoring does not use).
const perKind, maxSeeds = 12, 600

var genOptions = Options{Rollouts: 32, Horizon: 30, Seed: 1001}

// TestPositionsStored: every stored position reads, at a decision of its
// kind, and every kind has its perKind positions. With -update it draws
// the set again (go test ./bench -run TestPositionsStored -update): the
// positions are games, so a change of the bots does not move them, and
// drawing them again is a new Version.
func TestPositionsStored(t *testing.T) {
	set, err := Positions()
	if *update {
		gen, err := Generate(perKind, maxSeeds, genOptions)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(gen)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("positions.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		set, err = gen, nil // the embedded file is the one compiled in
	}
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i, p := range set.Positions {
		if _, _, err := set.Load(i); err != nil {
			t.Error(err)
		}
		kinds[p.Kind]++
	}
	for _, k := range Kinds {
		if kinds[k] != perKind {
			t.Errorf("%d %s positions, want %d", kinds[k], k, perKind)
		}
	}
	t.Logf("positions by kind: %v", kinds)
}

// TestLoadRefuses: a position whose game does not read, whose rules the
// set lacks, or whose game waits for another kind of decision, is an
// error naming it, not a position.
func TestLoadRefuses(t *testing.T) {
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(p *Position)
		want   string
	}{
		{"torn game", func(p *Position) { p.Game = p.Game[:len(p.Game)/2] }, "position 0"},
		{"unknown rules", func(p *Position) { p.Rules = "house" }, `no rules "house"`},
		{"other kind", func(p *Position) { p.Kind = "jail" }, "is a jail position"},
		{"bad state", func(p *Position) {
			p.Game = []byte(strings.Replace(string(p.Game), `"current":`, `"current":9,"x":`, 1))
		}, "position 0"},
	} {
		bad := set
		bad.Positions = append([]Position(nil), set.Positions[:1]...)
		c.change(&bad.Positions[0])
		if _, _, err := bad.Load(0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	if _, _, err := set.Load(0); err != nil {
		t.Errorf("the set itself: %v (a change leaked)", err)
	}
}
