package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// actorLog hands a game's events one by one to a text log and checks
// that what the log writes for each event by a player names that player.
type actorLog struct {
	t     *testing.T
	text  *textPlayLog
	out   *bytes.Buffer
	names []string
	seen  map[monopoly.EventKind]int
}

func (l *actorLog) events(g tableState, evs []monopoly.Event, rounds []int) {
	for i, e := range evs {
		l.out.Reset()
		l.text.event(g, e, rounds[i])
		// A roll waits for the move it causes, to share its line.
		said := l.out.String() + l.text.roll
		switch e.Kind {
		case monopoly.EvRollResolved, monopoly.EvGameOver:
			continue // the move and the standings say these
		case monopoly.EvAuctionStart, monopoly.EvAuctionUnsold:
			continue // the bank's doing: Player is where the calls start
		}
		if e.Player < 0 || int(e.Player) >= len(l.names) {
			continue // the bank or the Free Parking pot pays
		}
		l.seen[e.Kind]++
		if !strings.Contains(said, l.names[e.Player]) {
			l.t.Errorf("%s by %s: the log says %q", e.Kind, l.names[e.Player], said)
		}
	}
	l.text.flushRoll()
}

func (l *actorLog) standings(playStandings) {}

// Every line of the text log about something a player does names that
// player: bids, drop-outs, payments and trades come from players other
// than the one whose turn it is, and a line without a name would read as
// the last one named (issue: "drops out of the auction" after "Cat bids
// $160" was Dan's).
func TestPlayLogNamesActors(t *testing.T) {
	rules, err := loadRules(newRootCmd(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	seats := []string{"shark", "professor", "hustler", "turtle"}
	names := seatNames[:len(seats)]
	seen := map[monopoly.EventKind]int{}
	for _, seed := range []uint64{1, 2} {
		var out bytes.Buffer
		l := &actorLog{t: t, text: newTextPlayLog(&out, rules, names, seats, seed, false), out: &out, names: names, seen: seen}
		if _, err := playGame(rules, seats, agent.SeatParams{}, seed, true, defaultPlayOptions().maxDecisions, l); err != nil {
			t.Fatal(err)
		}
	}
	// The games have what the check is about.
	for _, k := range []monopoly.EventKind{monopoly.EvRoll, monopoly.EvBuy, monopoly.EvBid, monopoly.EvDropOut,
		monopoly.EvRent, monopoly.EvPay, monopoly.EvTradeProposed, monopoly.EvTradeAccepted, monopoly.EvTradeRejected,
		monopoly.EvBuild, monopoly.EvMortgage, monopoly.EvBankrupt, monopoly.EvSpeech} {
		if seen[k] == 0 {
			t.Errorf("no %s in the games", k)
		}
	}
}

// With colour on, an amount is green whole: "$1,100", not "$1" and a
// plain ",100"; a comma after an amount is no part of it.
func TestPlayLogColorsWholeAmounts(t *testing.T) {
	var out bytes.Buffer
	l := newTextPlayLog(&out, monopoly.DefaultRules(), seatNames[:2], []string{"shark", "turtle"}, 1, true)
	out.Reset()
	l.line(`Ann: "Owe $1,100 to Bob. $200, done. $1,234,567 or $5."`)
	got := out.String()
	for _, want := range []string{ansiMoney + "$1,100" + ansiReset + " to", ansiMoney + "$200" + ansiReset + ", done",
		ansiMoney + "$1,234,567" + ansiReset + " or", ansiMoney + "$5" + ansiReset + "."} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}
