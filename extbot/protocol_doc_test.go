package extbot_test

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/extbot"
	"github.com/gopoly/gopoly/wire"
)

// docParts are the parts of the protocol PROTOCOL.md describes field by
// field: a $defs entry of the schema, the prefix its fields are named
// with, and the Go type gopoly writes it from (nil: the schema names
// only some of its keys). A field holding one of these parts is named,
// not walked into: the part has its own table.
var docParts = []struct {
	def, prefix string
	typ         reflect.Type
}{
	{"start", "start", reflect.TypeFor[extbot.Start]()},
	{"ready", "ready", reflect.TypeFor[extbot.Ready]()},
	{"decide", "decide", reflect.TypeFor[extbot.Decide]()},
	{"answer", "answer", reflect.TypeFor[extbot.Answer]()},
	{"refusal", "refusal", reflect.TypeFor[extbot.Refusal]()},
	{"retired", "retired", reflect.TypeFor[extbot.Retired]()},
	{"end", "end", reflect.TypeFor[extbot.End]()},
	{"budget", "budget", reflect.TypeFor[extbot.Budget]()},
	{"board", "board", reflect.TypeFor[wire.Board]()},
	{"decision", "decision", reflect.TypeFor[wire.Decision]()},
	{"options", "options", reflect.TypeFor[wire.Options]()},
	{"view", "view", reflect.TypeFor[wire.State]()},
	{"event", "events[]", nil},
}

// PROTOCOL.md names every field of every message, options above all,
// by its dotted name (`options.bid.min`, `options.trade.partners[].get`),
// as the schema defines it; and the schema defines every field gopoly
// writes. A field added to the Go types, the schema or the document
// alone fails here.
func TestProtocolDocNamesEveryField(t *testing.T) {
	doc, err := os.ReadFile("PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(extbot.Schema, &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	parts := map[string]bool{}
	goParts := map[reflect.Type]bool{reflect.TypeFor[wire.Event](): true}
	for _, p := range docParts {
		parts[p.def] = true
		if p.typ != nil {
			goParts[p.typ] = true
		}
	}
	for _, p := range docParts {
		def, ok := defs[p.def].(map[string]any)
		if !ok {
			t.Errorf("the schema has no $defs.%s", p.def)
			continue
		}
		var inSchema []string
		schemaNames(defs, parts, def, p.prefix, &inSchema)
		if len(inSchema) == 0 {
			t.Errorf("$defs.%s names no field", p.def)
		}
		for _, n := range inSchema {
			if !strings.Contains(string(doc), "`"+n+"`") {
				t.Errorf("PROTOCOL.md does not name `%s` (in the schema's $defs.%s)", n, p.def)
			}
		}
		if p.typ == nil {
			continue
		}
		var inGo []string
		goNames(goParts, p.typ, p.prefix, &inGo)
		for _, n := range inGo {
			if !slices.Contains(inSchema, n) {
				t.Errorf("the schema's $defs.%s does not define %s, which gopoly writes (%v)", p.def, n, p.typ)
			}
		}
	}
}

// schemaNames appends the dotted names of the fields s defines (its
// properties and required keys), walking into objects and arrays of
// objects other than the parts.
func schemaNames(defs map[string]any, parts map[string]bool, s map[string]any, prefix string, names *[]string) {
	props, _ := s["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	required, _ := s["required"].([]any)
	for _, k := range required {
		if !slices.Contains(keys, k.(string)) {
			keys = append(keys, k.(string))
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		name := prefix + "." + k
		*names = append(*names, name)
		sub, ok := resolve(defs, parts, props[k])
		if !ok {
			continue
		}
		if items, isArray := sub["items"]; isArray {
			if sub, ok = resolve(defs, parts, items); !ok {
				continue
			}
			name += "[]"
		}
		if _, isObject := sub["required"]; isObject {
			schemaNames(defs, parts, sub, name, names)
		} else if _, isObject := sub["properties"]; isObject {
			schemaNames(defs, parts, sub, name, names)
		}
	}
}

// resolve follows s's $ref, if any; false for a part (or no schema).
func resolve(defs map[string]any, parts map[string]bool, s any) (map[string]any, bool) {
	m, ok := s.(map[string]any)
	if !ok {
		return nil, false
	}
	if ref, isRef := m["$ref"].(string); isRef {
		name := strings.TrimPrefix(ref, "#/$defs/")
		if parts[name] {
			return nil, false
		}
		m, ok = defs[name].(map[string]any)
	}
	return m, ok
}

// goNames appends the dotted JSON names of t's fields, walking into
// structs (through pointers and slices) other than the parts.
func goNames(parts map[reflect.Type]bool, t reflect.Type, prefix string, names *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tag == "" {
			goNames(parts, f.Type, prefix, names)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		name := prefix + "." + tag
		*names = append(*names, name)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			ft, name = ft.Elem(), name+"[]"
		}
		if ft.Kind() == reflect.Struct && !parts[ft] {
			goNames(parts, ft, name, names)
		}
	}
}
