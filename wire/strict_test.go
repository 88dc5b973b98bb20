package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopoly/gopoly/wire"
)

// strictJSON checks that data is one JSON value in which no object
// repeats a key: encoding/json's map and struct decoding keep the last
// of a repeated key without a word, and stricter parsers refuse the
// whole document. It walks the Decoder's tokens, with a set of keys per
// open object, independently of the package's own parser.
func strictJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// keys holds, per open object or array, the keys seen (nil for an
	// array); wantKey is whether the next token of the object is a key.
	var keys []map[string]bool
	wantKey := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				keys = keys[:len(keys)-1]
				wantKey = len(keys) > 0 && keys[len(keys)-1] != nil
				continue
			}
			k := tok.(string) // the Decoder refuses anything else in key position
			if keys[len(keys)-1][k] {
				return fmt.Errorf("depth %d: duplicate key %q", len(keys), k)
			}
			keys[len(keys)-1][k] = true
			wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			keys = append(keys, map[string]bool{})
			wantKey = true
			continue
		case json.Delim('['):
			keys = append(keys, nil)
		case json.Delim(']'), json.Delim('}'):
			keys = keys[:len(keys)-1]
		}
		// After a value, an object wants its next key.
		wantKey = len(keys) > 0 && keys[len(keys)-1] != nil
	}
	return nil
}

// The checker itself: it refuses a repeated key at any depth, and only
// that.
func TestStrictJSON(t *testing.T) {
	for _, tc := range []struct {
		doc string
		ok  bool
	}{
		{`{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`, true},
		{`[{"x":{}},{"x":[]}]`, true},
		{`{"a":1,"a":1}`, false},
		{`{"a":{"b":1,"b":2}}`, false},
		{`[{"a":[{"c":1,"d":{},"c":2}]}]`, false},
		{`{"a":[1,2],"b":{"c":[]},"a":0}`, false},
	} {
		if err := strictJSON([]byte(tc.doc)); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.doc, err)
		}
	}
}

// Every event fixture, and every event of seeded random games under each
// variant and from each viewpoint, is JSON without a repeated key.
func TestEventsStrictJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := strictJSON(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	kinds := map[string]bool{}
	for name, events := range recorded(t, 3) {
		r := rulesOf(t, variantNamed(name))
		for i, e := range events {
			for _, viewer := range []int{wire.Research, -1, 0, 1} {
				ev := wire.NewEvent(r, e, viewer, i)
				data := ev.AppendJSON(nil)
				if err := strictJSON(data); err != nil {
					t.Fatalf("%s: %v", data, err)
				}
				kinds[e.Kind.String()] = true
			}
		}
	}
	if !kinds["card"] || !kinds["use_jail_card"] {
		t.Errorf("the games had no card events to check: %v", kinds)
	}
}
