package wire

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gopoly/gopoly/monopoly"
)

// squareByName finds the square whose name is name, ignoring case. Names
// a board repeats (Chance, Community Chest) are ambiguous: their squares
// are given by index.
func squareByName(r *monopoly.Rules, name string) (int, error) {
	found, n := -1, 0
	for i := range r.Squares {
		if strings.EqualFold(r.Squares[i].Name, name) {
			if found < 0 {
				found = i
			}
			n++
		}
	}
	switch {
	case n == 1:
		return found, nil
	case n > 1:
		return -1, fmt.Errorf("square name %q is ambiguous (squares %s): give the index", name, indexesNamed(r, name))
	}
	return -1, &unknownSquare{r, name}
}

// unknownSquare is a name no square has. Its message, with a suggestion,
// is made only when asked for: the notation tries many runs of words
// that are not names before it finds one that is.
type unknownSquare struct {
	r    *monopoly.Rules
	name string
}

func (e *unknownSquare) Error() string {
	return fmt.Sprintf("unknown square %q%s", e.name, suggest(squareNames(e.r), e.name))
}

func isUnknown(err error) bool {
	_, ok := err.(*unknownSquare)
	return ok
}

// squareUnique reports whether no other square shares sq's name, ignoring
// case: only then does the name alone say which square is meant.
func squareUnique(r *monopoly.Rules, sq int) bool {
	for i := range r.Squares {
		if i != sq && strings.EqualFold(r.Squares[i].Name, r.Squares[sq].Name) {
			return false
		}
	}
	return true
}

func indexesNamed(r *monopoly.Rules, name string) string {
	var l []string
	for i := range r.Squares {
		if strings.EqualFold(r.Squares[i].Name, name) {
			l = append(l, strconv.Itoa(i))
		}
	}
	return strings.Join(l, ", ")
}

func squareNames(r *monopoly.Rules) []string {
	names := make([]string, len(r.Squares))
	for i := range r.Squares {
		names[i] = r.Squares[i].Name
	}
	return names
}

// squareIndex checks a square given by index.
func squareIndex(r *monopoly.Rules, n int64) (int, error) {
	if n < 0 || n >= int64(len(r.Squares)) {
		return -1, fmt.Errorf("no square %d (the board has squares 0 to %d)", n, len(r.Squares)-1)
	}
	return int(n), nil
}

// deckByName finds a deck by name, ignoring case.
func deckByName(r *monopoly.Rules, name string) (int, error) {
	for d := range r.Decks {
		if strings.EqualFold(r.Decks[d].Name, name) {
			return d, nil
		}
	}
	names := make([]string, len(r.Decks))
	for d := range r.Decks {
		names[d] = r.Decks[d].Name
	}
	return -1, fmt.Errorf("unknown deck %q (decks: %s)", name, strings.Join(names, ", "))
}

func deckIndex(r *monopoly.Rules, n int64) (int, error) {
	if n < 0 || n >= int64(len(r.Decks)) {
		return -1, fmt.Errorf("no deck %d (decks are 0 to %d)", n, len(r.Decks)-1)
	}
	return int(n), nil
}

// keepDecks returns the deck of each Get Out of Jail Free card by its bit
// in TradeOffer card sets, and how many there are. The engine numbers
// these cards in board order of decks and cards; JailCardBit confirms the
// numbering for the first card of each deck (TestKeepDecks).
func keepDecks(r *monopoly.Rules) (decks [8]int, n int) {
	for d := range r.Decks {
		for c := range r.Decks[d].Cards {
			if r.Decks[d].Cards[c].Keep && n < len(decks) {
				decks[n] = d
				n++
			}
		}
	}
	return decks, n
}

// nextJailCard is the bit of the first Get Out of Jail Free card of deck
// that cards does not hold yet, or -1 when it holds them all: a deck
// named twice in one side of an offer means its first two cards, for the
// rare rules whose deck holds more than one.
func nextJailCard(r *monopoly.Rules, deck int, cards uint8) int {
	keep, n := keepDecks(r)
	for k := range n {
		if keep[k] == deck && cards&(1<<k) == 0 {
			return k
		}
	}
	return -1
}

// suggest returns ` (did you mean "X"?)` for the known name nearest to
// got, when one is near enough to be a slip; "" otherwise.
func suggest(known []string, got string) string {
	best, bestD := "", -1
	g := strings.ToLower(got)
	for _, k := range known {
		d := distance(strings.ToLower(k), g)
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD < 0 || bestD > max(2, utf8.RuneCountInString(got)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance between a and b, by runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return max(len(ra), len(rb)) // too long to be a slip of a square's name
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
