package render

import (
	"fmt"
	"strings"

	"github.com/gopoly/gopoly/wire"
)

// Ownership is a compact map of who owns what in snap, a line per
// player in seat order: each square with its buildings and the rent it
// asks now, mortgaged ones marked, then how many squares are unowned.
// rent(sq) is a square's rent now with a dice total of 1, so that a
// utility's is its multiplier; the engine's Game.Rent gives it.
func Ownership(snap wire.Snapshot, rent func(sq int) int) string {
	s := snapshot(snap)
	byOwner := make([][]string, len(s.Players))
	unowned := 0
	for _, sq := range s.Board {
		if !ownable(sq) {
			continue
		}
		if sq.Owner < 0 || sq.Owner >= len(byOwner) {
			unowned++
			continue
		}
		item := sq.Name
		if b := buildings(sq); b != "" && !sq.Mortgaged {
			item += " (" + b + ")"
		}
		switch {
		case sq.Mortgaged:
			item += " (mortgaged)"
		case sq.Kind == "utility":
			item += fmt.Sprintf(": rent %d× the dice", rent(sq.Index))
		default:
			item += ": rent " + money(rent(sq.Index))
		}
		byOwner[sq.Owner] = append(byOwner[sq.Owner], item)
	}
	var b strings.Builder
	for _, p := range s.Players {
		if p.Bankrupt {
			continue
		}
		owns := "nothing"
		if items := byOwner[p.Seat]; len(items) > 0 {
			owns = strings.Join(items, "; ")
		}
		fmt.Fprintf(&b, "%s (%s): %s\n", s.playerLabel(p.Seat), money(p.Cash), owns)
	}
	fmt.Fprintf(&b, "Unowned: %s.\n", count(unowned, "square", "squares"))
	return b.String()
}
