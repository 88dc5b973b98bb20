package strictyaml

import (
	"errors"
	"strings"
	"testing"
)

type inner struct {
	X int `yaml:"x"`
	Y int `yaml:"y"`
}

type doc struct {
	A int            `yaml:"a"`
	S inner          `yaml:"s"`
	L []inner        `yaml:"l"`
	M map[string]int `yaml:"m"`
}

// A second document overlays the first: its structs merge, so keys it
// does not set keep the first file's line; its lists and maps replace the
// first's whole, positions included.
func TestOverlayPositions(t *testing.T) {
	first := "a: 1\ns:\n  x: 1\n  y: 2\nl:\n  - {x: 1}\n  - {x: 2}\n  - {x: 3}\nm: {p: 1, q: 2}\n"
	later := "s:\n  y: 5\nl:\n  - {y: 9}\nm: {r: 3}\n"
	var d doc
	pos := Positions{}
	if err := Decode("first.yaml", []byte(first), &d, pos); err != nil {
		t.Fatal(err)
	}
	if err := Decode("later.yaml", []byte(later), &d, pos); err != nil {
		t.Fatal(err)
	}
	if d.A != 1 || d.S != (inner{1, 5}) || len(d.L) != 1 || d.L[0] != (inner{0, 9}) || len(d.M) != 1 || d.M["r"] != 3 {
		t.Fatalf("decoded %+v", d)
	}
	for _, tc := range []struct {
		field string
		want  Pos
	}{
		{"a", Pos{"first.yaml", 1}},
		{"s.x", Pos{"first.yaml", 3}},
		{"s.y", Pos{"later.yaml", 2}},
		{"l[0].y", Pos{"later.yaml", 4}},
		{"l[0].x", Pos{"later.yaml", 4}}, // the item, set by the later file
		{"l[2].x", Pos{"later.yaml", 4}}, // gone: where the later file's list starts
		{"m.p", Pos{"later.yaml", 5}},
		{"nowhere", Pos{"default", 0}},
	} {
		if got := pos.Of(tc.field, Pos{File: "default"}); got != tc.want {
			t.Errorf("%s: at %v, want %v", tc.field, got, tc.want)
		}
	}
	if err := pos.Errorf("default", "s.x", "too %s", "small"); err.Error() != "first.yaml:3: s.x: too small" {
		t.Errorf("Errorf: %v", err)
	}
}

// Every malformed document is an *Error naming the file, the line and the
// key path.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"a: 1\nb: 2\n", "f.yaml:2: b: unknown key"},
		{"a: 1\na: 2\n", "f.yaml:2: a: duplicate key"},
		{"s:\n  x: many\n", "f.yaml:2: s.x:"},
		{"l: {x: 1}\n", "f.yaml:1: l: want a list"},
		{"s: [1]\n", "f.yaml:1: s: want a mapping"},
		{"a: 1\n  b: [\n", "f.yaml:2: invalid YAML"},
	} {
		var d doc
		err := Decode("f.yaml", []byte(tc.src), &d, nil)
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q...", tc.src, err, tc.want)
		}
	}
}

// BenchmarkDecodeLong decodes a document of many keys with their
// positions recorded over an earlier one.
func BenchmarkDecodeLong(b *testing.B) {
	var src strings.Builder
	src.WriteString("l:\n")
	for range 2000 {
		src.WriteString("  - {x: 1, y: 2}\n")
	}
	data := []byte(src.String())
	b.ReportAllocs()
	for b.Loop() {
		var d doc
		pos := Positions{}
		if err := Decode("a.yaml", data, &d, pos); err != nil {
			b.Fatal(err)
		}
		if err := Decode("b.yaml", data, &d, pos); err != nil {
			b.Fatal(err)
		}
	}
}
