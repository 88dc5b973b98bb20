package web

import (
	"github.com/gopoly/gopoly/session"
)

// The pages name a seat once, with who plays it ("Ann — shark"), and
// count seats from 1, as people do.

// playedBy says who plays a seat, in people's words: a bot's or
// personality's name, "a person", or the kind of player it waits for.
func playedBy(seat session.Seat) string {
	switch seat.Kind {
	case session.SeatBot:
		return seat.Bot
	case session.SeatHuman:
		return "a person"
	case session.SeatLLM:
		return "a language model"
	case session.SeatMCP:
		return "an MCP client"
	case session.SeatExternal:
		return "an external program"
	}
	return string(seat.Kind)
}

// seatLabel is seat i's name (the default one when it has none) and who
// plays it: "Ann — shark".
func seatLabel(i int, seat session.Seat) string {
	name := seat.Name
	if name == "" && i >= 0 && i < len(session.DefaultNames) {
		name = session.DefaultNames[i]
	}
	return name + " — " + playedBy(seat)
}

// playedByAll is playedBy of every seat of a setup, for the game page's
// player panel.
func playedByAll(seats []session.Seat) []string {
	out := make([]string, len(seats))
	for i, seat := range seats {
		out[i] = playedBy(seat)
	}
	return out
}
