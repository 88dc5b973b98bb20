package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// plain converts a parsed value to what encoding/json decodes into any
// (with UseNumber).
func plain(v value) any {
	switch v.kind {
	case jsonBool:
		return v.truth
	case jsonNumber:
		return json.Number(v.str)
	case jsonString:
		return v.str
	case jsonArray:
		l := []any{}
		for _, e := range v.elems {
			l = append(l, plain(e))
		}
		return l
	case jsonObject:
		m := map[string]any{}
		for _, f := range v.fields {
			m[f.key] = plain(f.val)
		}
		return m
	}
	return nil
}

// FuzzParseJSON holds the parser to encoding/json: it accepts what is
// valid JSON, with the same value, and refuses what is not, except that
// it also refuses duplicate keys and deep nesting.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"kind":"build","square":39}`, `[1,-0.5e+3,true,false,null,"x"]`, `"\u00e9\ud83d\ude00\ud800\u0041\\\/\b\f\n\r\t"`,
		"\"\xff\xfe ok\"", `{"a":{"b":[[]]}}`, ` 01`, `[1,]`, `{"a" 1}`, `-`, `1.`, `1e`, `"\u12"`, `tru`, `nul`, `{"a":1,"a":2}`,
		"\"\x01\"", `[[[[[[[[[[1]]]]]]]]]]`, `"abc`, `{"k":"v"} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseJSON(data)
		valid := json.Valid(data)
		if err != nil {
			if err == errDepth || strings.HasPrefix(err.Error(), "duplicate key") {
				return
			}
			if valid {
				t.Fatalf("%q: refused valid JSON: %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("%q: accepted invalid JSON as %#v", data, plain(v))
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := plain(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: parsed %#v, encoding/json %#v", data, got, want)
		}
	})
}
