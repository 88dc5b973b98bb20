package bench

import (
	"encoding/json"
	"flag"
	"os"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite positions.json from Generate")

// The set's generation: perKind positions a kind, from at most maxSeeds
// games.
const perKind, maxSeeds = 8, 60

// TestPositionsStored: positions.json is what Generate draws, so a change
// of the engine's play that moves the positions is seen (and the version
// raised with go test ./bench -run TestPositionsStored -update); every
// position loads, at a decision of its kind.
func TestPositionsStored(t *testing.T) {
	gen := Generate(perKind, maxSeeds)
	if *update {
		data, err := json.MarshalIndent(gen, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("positions.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	set, err := Positions()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.Positions, gen.Positions) {
		t.Fatalf("positions.json (%d) is not what Generate draws (%d): raise Version and rewrite it with -update", len(set.Positions), len(gen.Positions))
	}
	kinds := map[string]int{}
	for _, p := range set.Positions {
		g, d, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if k := kindOf(g, d); k != p.Kind {
			t.Errorf("%+v loads at a %s decision", p, k)
		}
		kinds[p.Kind]++
	}
	t.Logf("positions by kind: %v", kinds)
}
