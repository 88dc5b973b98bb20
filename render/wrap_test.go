package render_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// Wrap breaks at spaces within the width, indents the lines after the
// first, keeps a word too long for a line whole, and counts no column
// for a colour code.
func TestWrap(t *testing.T) {
	text := "t) propose a trade, step by step, with anyone at the table"
	got := render.Wrap(text, 20, "  ", "     ")
	for i, line := range strings.Split(got, "\n") {
		if utf8.RuneCountInString(line) > 20 || i > 0 && !strings.HasPrefix(line, "     ") {
			t.Errorf("line %d %q of\n%s", i, line, got)
		}
	}
	if strings.Join(strings.Fields(got), " ") != text {
		t.Errorf("words lost or split: %q", got)
	}
	if got := render.Wrap("a verylongwordindeed b", 8, "", ""); got != "a\nverylongwordindeed\nb" {
		t.Errorf("a long word: %q", got)
	}
	if got := render.Wrap("b) board   o) owners\nq) quit", 40, "  ", "    "); got != "  b) board   o) owners\n  q) quit" {
		t.Errorf("spacing or lines lost: %q", got)
	}
	red := "\x1b[1;31mAnn\x1b[0m"
	if got := render.Wrap(red+" pays $10 to Bob", 19, "", ""); got != red+" pays $10 to Bob" {
		t.Errorf("colour counted as columns: %q", got)
	}
}

// The ownership map lists each player's squares with buildings and the
// rent they ask now (a utility's as a multiple of the dice), mortgaged
// ones marked, and counts the unowned.
func TestOwnership(t *testing.T) {
	r := monopoly.DefaultRules()
	g := monopoly.New(r, 2, 1)
	snap := wire.NewSnapshot(g, 0, []string{"Ann", "Bob"})
	own := func(sq, owner, houses int, mortgaged bool) {
		snap.Board[sq].Owner, snap.Board[sq].Houses, snap.Board[sq].Mortgaged = owner, houses, mortgaged
	}
	own(39, 0, 2, false) // Boardwalk
	own(12, 1, 0, false) // Electric Company
	own(5, 1, 0, true)   // Reading Railroad
	rents := map[int]int{39: 600, 12: 4, 5: 0}
	got := render.Ownership(snap, func(sq int) int { return rents[sq] })
	for _, want := range []string{
		"Ann (you) ($1500): Boardwalk (2 houses): rent $600\n",
		"Bob ($1500): Reading Railroad (mortgaged); Electric Company: rent 4× the dice\n",
		"Unowned: 25 squares.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
