package deal

import "testing"

// FuzzApply feeds arbitrary action sequences to Apply: illegal actions
// must be refused without a change, legal ones must keep every card
// accounted for, and nothing may panic.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), []byte{1, 2, 1, 0, 2, 0, 3, 1, 6, 0})
	f.Add(uint64(7), []byte{1, 5, 1, 6, 4, 3, 5, 0, 7, 0, 2, 0})
	r := MustRules(Paper())
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		g := New(r, seed, int(seed&1))
		for i := 0; i+1 < len(data) && !g.Over(); i += 2 {
			a := Action{Op: Op(data[i] % 8), Card: Card(data[i+1] % 16)}
			before := g
			if err := g.Apply(a); err != nil {
				if g != before {
					t.Fatalf("refused %v changed the game", a)
				}
				// Keep the game moving with its first legal action.
				if err := g.Apply(g.Legal(nil)[0]); err != nil {
					t.Fatal(err)
				}
			}
			checkConservation(t, &g)
		}
	})
}
