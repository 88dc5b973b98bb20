package jsonerr_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/gopoly/gopoly/internal/jsonerr"
)

// The position of a syntax error is the line and column of the byte
// where the decoder stopped.
func TestPos(t *testing.T) {
	for _, tc := range []struct {
		doc       string
		line, col int
	}{
		{"{\n  \"a\": 1,\n  \"b\": ]\n}", 3, 8},
		{"[1, 2 3]", 1, 7},
		{"{\"a\":\n\n x}", 3, 2},
	} {
		var v any
		err := json.Unmarshal([]byte(tc.doc), &v)
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: %v", tc.doc, err)
		}
		if line, col := jsonerr.Pos([]byte(tc.doc), se.Offset); line != tc.line || col != tc.col {
			t.Errorf("%q: line %d col %d, want %d %d", tc.doc, line, col, tc.line, tc.col)
		}
	}
	if line, col := jsonerr.Pos([]byte("ab\ncd"), 99); line != 2 || col != 3 {
		t.Errorf("past the end: %d %d", line, col)
	}
}

func TestWant(t *testing.T) {
	var p *[]int
	for v, want := range map[any]string{true: "true or false", "": "a string", 1.5: "a number", p: "a list", struct{}{}: "an object"} {
		if got := jsonerr.Want(reflect.TypeOf(v)); got != want {
			t.Errorf("%T: %q, want %q", v, got, want)
		}
	}
}
