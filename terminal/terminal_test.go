package terminal

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
)

// pick reads choices numbered from 1 and refuses one out of range.
func TestPick(t *testing.T) {
	for _, c := range []struct {
		line string
		n    int
		want []int
		ok   bool
	}{
		{"", 3, nil, true},
		{"1 3", 3, []int{0, 2}, true},
		{"2,1", 2, []int{1, 0}, true},
		{"4", 3, nil, false},
		{"0", 3, nil, false},
		{"x", 3, nil, false},
	} {
		got, ok := pick(c.line, c.n)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("pick(%q, %d) = %v, %v; want %v, %v", c.line, c.n, got, ok, c.want, c.ok)
		}
	}
}

// A scripted input is echoed, so that the transcript reads as a game
// played by hand, and ends with io.EOF.
func TestLineReaderEchoes(t *testing.T) {
	var echo strings.Builder
	l := NewLineReader(strings.NewReader("buy\nq\n"), &echo)
	for _, want := range []string{"buy", "q"} {
		if got, err := l.read(context.Background()); got != want || err != nil {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	if _, err := l.read(context.Background()); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}
	if echo.String() != "buy\nq\n" {
		t.Errorf("echoed %q", echo.String())
	}
}
