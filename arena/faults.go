package arena

// A program that fails is not scored as if it had played. Its fallback
// bot answers the decisions it fails, and plays its seat on once it is
// retired, so that the game goes on and the other seats' results stand;
// the game still counts for every seat (wins add up to the games, and
// ratings and win shares are over all of them). But what its fallback
// did is reported beside its results wherever they are: each game's
// record names the seats retired and counts the fallback's answers by
// seat, and each result line carries Faults, with the wins of seats
// whose program had been retired in that game apart, so that a program
// that failed to start, whose fallback played its every game, shows
// wins_while_retired equal to its wins, and the tables warn of it.

// Faults count what a program's fallback did in its place
// (agent.Accountable), over the games of a result line. They are zero
// for bots, and their JSON is then absent.
type Faults struct {
	Fallbacks   int `json:"fallbacks,omitempty"`   // answers its fallback gave
	Retirements int `json:"retirements,omitempty"` // seat-games in which it was retired
	// WinsWhileRetired are the wins of seats whose program was retired
	// in that game: its fallback's, more than its own.
	WinsWhileRetired float64 `json:"wins_while_retired,omitempty"`
}

// Any reports whether a program's fallback answered at all.
func (f Faults) Any() bool { return f.Fallbacks > 0 || f.Retirements > 0 }

// retiredSeats returns the seats of r whose program was retired; nil
// when none was.
func retiredSeats(r GameResult) []int {
	var seats []int
	for s, a := range r.Accounts {
		if a.Retirements > 0 {
			seats = append(seats, s)
		}
	}
	return seats
}

// fallbacks returns the fallback answers of r by seat, of players
// seats; nil when no seat is a program.
func fallbacks(r GameResult, players int) []int {
	if r.Accountable == 0 {
		return nil
	}
	n := make([]int, players)
	for s := range n {
		n[s] = r.Accounts[s].Fallbacks
	}
	return n
}
