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
