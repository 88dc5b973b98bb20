package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// snapshot is the snapshot being rendered, with the phrases Text and SVG
// share as its methods.
type snapshot wire.Snapshot

// Text renders the snapshot as plain text for a terminal of 80 columns
// or a language model's prompt: a header, the players, the ownable
// squares by colour group in board order and then by kind, and the bank.
// Blocks are separated by blank lines. The viewer's own line is marked
// "(you)"; nothing else depends on the viewer.
//
// Everything comes from the snapshot, the board included, so that a
// board from a rules file renders as well as the standard one.
func Text(snap wire.Snapshot) string {
	s := snapshot(snap)
	var b strings.Builder
	s.writeHeader(&b)
	b.WriteString("\n")
	s.writePlayers(&b)
	b.WriteString("\n")
	s.writeProperties(&b)
	b.WriteString("\n")
	b.WriteString(s.bankLine())
	if s.Jackpot != 0 {
		b.WriteString(" " + s.jackpotLine())
	}
	b.WriteString("\n")
	return b.String()
}

func (s snapshot) writeHeader(b *strings.Builder) {
	fmt.Fprintf(b, "Round %d, turn %d: %s; %s\n", s.Round, s.Turn, s.standing(), s.lastRoll())
	if w := s.waiting(); w != "" {
		b.WriteString(w + "\n")
	}
}

// The phrases below are shared by Text and SVG, so that the two boards
// say the same things in the same words.

// standing says who is to play, or how the game ended.
func (s snapshot) standing() string {
	switch {
	case s.Over && s.Winner >= 0:
		return "game over, " + s.playerName(s.Winner) + " wins"
	case s.Over:
		return "game over, no winner"
	}
	if s.Phase == monopoly.PhaseAfterRoll {
		return s.playerName(s.Current) + " to play, after the roll"
	}
	return s.playerName(s.Current) + " to play"
}

// lastRoll gives the dice last rolled.
func (s snapshot) lastRoll() string {
	if s.Dice == [2]int{} {
		return "no roll yet"
	}
	roll := fmt.Sprintf("last roll %d+%d", s.Dice[0], s.Dice[1])
	if f, ok := monopoly.ParseSpeedFace(s.SpeedDie); ok {
		roll += ", speed die " + f.Describe()
	}
	return roll
}

// waiting names the seat that decides and what, or is "" when none does.
func (s snapshot) waiting() string {
	return waiting(s.Decision, s.playerName)
}

// bankLine gives the buildings left in the bank.
func (s snapshot) bankLine() string {
	return fmt.Sprintf("Bank: %s, %s left.", count(s.HouseSupply, "house", "houses"), count(s.HotelSupply, "hotel", "hotels"))
}

// jackpotLine gives the Free Parking pot.
func (s snapshot) jackpotLine() string {
	return "Free Parking jackpot: " + money(s.Jackpot) + "."
}

func (s snapshot) writePlayers(b *strings.Builder) {
	nameW, whereW := 0, 0
	for _, p := range s.Players {
		nameW = max(nameW, width(s.playerLabel(p.Seat)))
		whereW = max(whereW, width(where(p)))
	}
	b.WriteString("Players\n")
	for _, p := range s.Players {
		if p.Bankrupt {
			line(b, "  %-*s  bankrupt", nameW, s.playerLabel(p.Seat))
			continue
		}
		line(b, "  %-*s  %6s  %-*s  worth %s", nameW, s.playerLabel(p.Seat), money(p.Cash), whereW, where(p), money(p.NetWorth))
		// Cards get a line of their own: the decks' names would push the
		// player's line past 80 columns.
		if p.JailCards > 0 {
			decks := make([]string, len(p.JailCardDecks))
			for i, d := range p.JailCardDecks {
				decks[i] = DeckTitle(d)
			}
			line(b, "    %s: %s", count(p.JailCards, "Get Out of Jail Free card", "Get Out of Jail Free cards"), strings.Join(decks, ", "))
		}
	}
}

// where says where a player stands, jail apart from the Jail square,
// where a player may only be visiting.
func where(p wire.PlayerState) string {
	if p.InJail {
		return "in jail (" + count(p.JailTurns, "failed roll", "failed rolls") + ")"
	}
	return "on " + p.PositionName
}

// section is a heading and the ownable squares under it, by index.
type section struct {
	heading string
	group   bool // a colour group, which a single owner makes a monopoly
	squares []int
}

func (s snapshot) writeProperties(b *strings.Builder) {
	// Colour groups come first, then the other ownable kinds (railroads,
	// utilities), each section in the order of its first square.
	var groups, others []*section
	byKey := map[string]*section{}
	nameW, priceW, ownerW := 0, 0, len("unowned")
	for _, sq := range s.Board {
		if !ownable(sq) {
			continue
		}
		key, list := "kind "+sq.Kind, &others
		if sq.Group != "" {
			key, list = "group "+sq.Group, &groups
		}
		sec := byKey[key]
		if sec == nil {
			sec = &section{heading: sq.Group, group: sq.Group != ""}
			if !sec.group {
				sec.heading = kindHeading(sq.Kind)
			}
			byKey[key] = sec
			*list = append(*list, sec)
		}
		sec.squares = append(sec.squares, sq.Index)
		nameW = max(nameW, width(sq.Name))
		priceW = max(priceW, width(money(sq.Price)))
		if sq.Owner >= 0 {
			ownerW = max(ownerW, width(s.playerName(sq.Owner)))
		}
	}
	// A long player name overflows its own lines rather than pushing
	// every line past 80 columns.
	ownerW = min(ownerW, 16)
	for _, sec := range append(groups, others...) {
		b.WriteString(sec.heading)
		if o := s.monopolist(sec); o >= 0 {
			fmt.Fprintf(b, ": monopoly of %s", s.playerName(o))
		}
		b.WriteString("\n")
		for _, i := range sec.squares {
			sq := s.Board[i]
			owner := "unowned"
			if sq.Owner >= 0 {
				owner = s.playerName(sq.Owner)
			}
			line(b, "  %-*s  %*s  %-*s  %s", nameW, sq.Name, priceW, money(sq.Price), ownerW, owner, buildings(sq))
		}
	}
}

// monopolist is the seat that owns every square of a colour group, or -1.
func (s snapshot) monopolist(sec *section) int {
	if !sec.group {
		return -1
	}
	o := s.Board[sec.squares[0]].Owner
	for _, i := range sec.squares[1:] {
		if s.Board[i].Owner != o {
			return -1
		}
	}
	return o
}

// ownable reports whether a square can be owned; the snapshot gives a
// price only to those.
func ownable(sq wire.SquareState) bool {
	return sq.Price > 0 || sq.Kind == "street" || sq.Kind == "railroad" || sq.Kind == "utility"
}

func kindHeading(kind string) string {
	switch kind {
	case "railroad":
		return "Railroads"
	case "utility":
		return "Utilities"
	}
	return kind
}

// buildings describes what stands on a square and its mortgage.
func buildings(sq wire.SquareState) string {
	var parts []string
	switch {
	case sq.Hotel:
		parts = append(parts, "hotel")
	case sq.Houses > 0:
		parts = append(parts, count(sq.Houses, "house", "houses"))
	}
	if sq.Mortgaged {
		parts = append(parts, "mortgaged")
	}
	return strings.Join(parts, ", ")
}

// playerName is the name of a seat, which a snapshot from another source
// might lack.
func (s snapshot) playerName(seat int) string {
	if seat >= 0 && seat < len(s.Players) && s.Players[seat].Name != "" {
		return s.Players[seat].Name
	}
	return seatName(nil, seat)
}

// playerLabel is a seat's name in the players' list, where the viewer
// finds itself.
func (s snapshot) playerLabel(seat int) string {
	if seat == s.Viewer {
		return s.playerName(seat) + " (you)"
	}
	return s.playerName(seat)
}

// line writes one formatted line without the padding its last column
// may leave.
func line(b *strings.Builder, format string, args ...any) {
	b.WriteString(strings.TrimRight(fmt.Sprintf(format, args...), " "))
	b.WriteString("\n")
}

// width is the columns a string takes, as fmt pads it: one per rune.
func width(s string) int { return utf8.RuneCountInString(s) }

func money(n int) string {
	if n < 0 {
		return fmt.Sprintf("-$%d", -n)
	}
	return fmt.Sprintf("$%d", n)
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
