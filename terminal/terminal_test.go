package terminal

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// A scripted input is echoed, so that the transcript reads as a game
// played by hand, and ends with io.EOF; the choices a person types are
// numbered from 1, and one out of range is refused.
func TestScriptedInput(t *testing.T) {
	var echo strings.Builder
	l := NewLineReader(strings.NewReader("1 3\n2,1\n4\n0\nx\n\n"), &echo)
	want := map[string]string{"1 3": "[0 2] true", "2,1": "[1 0] true", "4": "[] false", "0": "[] false", "x": "[] false", "": "[] true"}
	for range len(want) {
		line, err := l.read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got, ok := pick(line, 3)
		if s := fmt.Sprint(got, " ", ok); s != want[line] {
			t.Errorf("pick(%q, 3) = %s, want %s", line, s, want[line])
		}
	}
	if _, err := l.read(context.Background()); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}
	if echo.String() != "1 3\n2,1\n4\n0\nx\n\n" {
		t.Errorf("echoed %q", echo.String())
	}
}

// Moves typed in words read as the notation's command words; other
// words, and "roll" alone (go on), are left as they are.
func TestTypedWords(t *testing.T) {
	for in, want := range map[string]string{
		"pay fine":                          "pay_fine",
		"Pay the fine":                      "pay_fine",
		"use card chance":                   "use_card chance",
		"roll doubles":                      "roll_doubles",
		"roll for doubles":                  "roll_doubles",
		"roll":                              "roll",
		"lift mortgage":                     "lift_mortgage",
		"drop out":                          "pass",
		"propose Bob give jail card chance": "propose Bob give jail_card chance",
		"build Boardwalk":                   "build Boardwalk",
	} {
		if got := typed(in); got != want {
			t.Errorf("typed(%q) = %q, want %q", in, got, want)
		}
	}
}

// The width is $COLUMNS where the output is no terminal, else 80.
func TestWidth(t *testing.T) {
	t.Setenv("COLUMNS", "")
	if w := Width(io.Discard); w != 80 {
		t.Errorf("no terminal, no COLUMNS: %d", w)
	}
	t.Setenv("COLUMNS", "50")
	if w := Width(io.Discard); w != 50 {
		t.Errorf("COLUMNS=50: %d", w)
	}
}
