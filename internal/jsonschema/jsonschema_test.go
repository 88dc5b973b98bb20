package jsonschema

import (
	"bytes"
	"encoding/json"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestValidate(t *testing.T) {
	schema := decode(t, `{"type":"object","required":["dice"],"properties":{
		"dice":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"integer","minimum":0,"maximum":6}},
		"name":{"type":"string","minLength":1}}}`)
	for _, tc := range []struct {
		inst string
		ok   bool
	}{
		{`{"dice":[1,6]}`, true},
		{`{"dice":[1,6],"name":"a"}`, true},
		{`{"dice":[1]}`, false},
		{`{"dice":[1,2,3]}`, false},
		{`{"dice":[1,7]}`, false},
		{`{"dice":[1,"2"]}`, false},
		{`{"dice":[1,2],"name":""}`, false},
		{`{}`, false},
		{`[]`, false},
	} {
		if err := Validate(schema, decode(t, tc.inst)); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.inst, err, tc.ok)
		}
	}
	if Validate(decode(t, `{"maxProperties":1}`), decode(t, `{}`)) == nil {
		t.Error("an unknown keyword passed")
	}
}
