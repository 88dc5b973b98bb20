package strictyaml

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
		{"l[2].x", Pos{"later.yaml", 3}}, // gone: the later file's key of the list
		{"m.p", Pos{"later.yaml", 5}},
		{"nowhere", Pos{"later.yaml", 1}}, // the later file's top-level mapping
	} {
		if got := pos.Of(tc.field, Pos{File: "default"}); got != tc.want {
			t.Errorf("%s: at %v, want %v", tc.field, got, tc.want)
		}
	}
	if err := pos.Errorf("default", "s.x", "too %s", "small"); err.Error() != "first.yaml:3: s.x: too small" {
		t.Errorf("Errorf: %v", err)
	}
	if got := (Positions{}).Of("a", Pos{File: "default"}); got != (Pos{File: "default"}) {
		t.Errorf("nothing recorded: at %v, want the default", got)
	}
}

// A key missing from a mapping is placed at the mapping: the line of its
// key, of its list item, or of the document's first key.
func TestMissingKeyLines(t *testing.T) {
	src := "# a comment\n\ns:\n  x: 1\nl:\n  - {x: 1}\n  - x: 2\n    y: 3\n"
	var d doc
	pos := Positions{}
	if err := Decode("f.yaml", []byte(src), &d, pos); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		line  int
	}{
		{"a", 3}, // the top level, which starts at s
		{"s.y", 3},
		{"l[0].y", 6},
		{"l[1].z", 7},
	} {
		want := fmt.Sprintf("f.yaml:%d: %s: is required", tc.line, tc.field)
		if err := pos.Errorf("f.yaml", tc.field, "is required"); err.Error() != want {
			t.Errorf("%v, want %s", err, want)
		}
	}
}

// short is a list type of at most two items.
type short []int

func (short) MaxLen() int { return 2 }

// Documents over MaxBytes and lists longer than their type allows are
// refused, with the limit in the message.
func TestLimits(t *testing.T) {
	var v struct {
		S short `yaml:"s"`
		L []int `yaml:"l"`
	}
	for _, tc := range []struct {
		name, src, want string
	}{
		{"at the byte limit", "l: [1]\n#" + strings.Repeat("x", MaxBytes-9) + "\n", ""},
		{"over the byte limit", "l: [1]\n#" + strings.Repeat("x", MaxBytes-8) + "\n", "f.yaml: larger than 1048576 bytes (1 MiB)"},
		{"short enough", "s: [1, 2]\n", ""},
		{"too long", "l: [1]\ns:\n  - 1\n  - 2\n  - 3\n", "f.yaml:2: s: at most 2 items, got 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Decode("f.yaml", []byte(tc.src), &v, Positions{})
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if e := (*Error)(nil); err != nil && !errors.As(err, &e) {
				t.Errorf("error %v is a %T, not an *Error", err, err)
			}
		})
	}
}

// ReadFile reads a file of MaxBytes, and refuses a longer one having
// read no more than a byte beyond the limit.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		size int64
		ok   bool
	}{
		{MaxBytes, true},
		{MaxBytes + 1, false},
		{1 << 40, false}, // sparse: reading it all would take a terabyte
	} {
		name := filepath.Join(dir, fmt.Sprint(tc.size))
		f, err := os.Create(name)
		if err == nil {
			err = f.Truncate(tc.size)
			f.Close()
		}
		if err != nil && tc.size > MaxBytes+1 {
			// Only the sparse terabyte depends on the file system.
			t.Logf("no sparse file of %d bytes here (%v): that case is not run", tc.size, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := ReadFile(name)
		if tc.ok && (err != nil || len(data) != int(tc.size)) {
			t.Errorf("%d bytes: read %d, %v", tc.size, len(data), err)
		}
		var e *Error
		if !tc.ok && (!errors.As(err, &e) || e.File != name || !strings.Contains(e.Msg, "1 MiB")) {
			t.Errorf("%d bytes: error %v, want the limit of 1 MiB", tc.size, err)
		}
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
