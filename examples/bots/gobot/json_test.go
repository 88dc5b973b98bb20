package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestMembers: member and elements find what encoding/json finds, in
// objects with escapes, nesting, spaces and every kind of value.
func TestMembers(t *testing.T) {
	for _, obj := range []string{
		`{"type":"decide","id":12,"decision":{"kind":"bid","square":3,"amount":-40},"text":"a \"quoted\" \\ name }]","options":{"actions":[{"kind":"bid","amount":41},{"kind":"drop_out"}],"bid":{"min":41,"max":900}},"view":{"players":[{"cash":1500},{"cash":-3,"x":[[],{}]}]}}`,
		` { "a" : [ 1 , "]" , { "b" : null } ] , "c" : true , "d" : false , "e" : 1.5e3 , "f" : "\u00e9\"" } `,
		`{}`,
	} {
		var want map[string]json.RawMessage
		if err := json.Unmarshal([]byte(obj), &want); err != nil {
			t.Fatal(err)
		}
		for k, v := range want {
			if got := member([]byte(obj), k); !bytes.Equal(got, bytes.TrimSpace(v)) {
				t.Errorf("%s: member %q = %s, want %s", obj, k, got, v)
			}
			var elems []json.RawMessage
			if json.Unmarshal(v, &elems) != nil {
				continue
			}
			n := 0
			elements(v, func(e []byte) {
				if n >= len(elems) || !bytes.Equal(e, bytes.TrimSpace(elems[n])) {
					t.Errorf("%s: element %d of %q = %s", obj, n, k, e)
				}
				n++
			})
			if n != len(elems) {
				t.Errorf("%s: %d elements of %q, want %d", obj, n, k, len(elems))
			}
		}
		if member([]byte(obj), "missing") != nil {
			t.Errorf("%s: a missing key was found", obj)
		}
	}
	if text([]byte(`"a \"b\""`)) != `a "b"` || text([]byte(`"plain"`)) != "plain" || integer([]byte("-40")) != -40 {
		t.Error("text or integer")
	}
}
