package arena

import (
	"context"
	"testing"

	"github.com/gopoly/gopoly/monopoly"
)

func TestQuickBaseline(t *testing.T) {
	r, _ := monopoly.DefaultRules().WithOverrides("t", []byte("max_rounds: 500"))
	c := Config{Rules: r, Players: 4, Bots: []string{"baseline"}, Seed: 1, Games: 400, Workers: 2}
	res, err := Simulate(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(c, res)
	t.Logf("%+v", s)
}
