package mcpserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// The schema generator sees the engine's names as the small integers
// they are in Go; on the wire they are their snake_case names, so each
// gets an enum of the names its String method gives. It also cannot know
// that a wire.Event writes only its kind's keys, that a json.RawMessage
// holds any JSON, or a time its RFC 3339 text.
var typeSchemas = withEvent(map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[monopoly.DecisionKind](): enumOf("the kind of decision", func(i int) string { return monopoly.DecisionKind(i).String() }),
	reflect.TypeFor[monopoly.ActionKind]():   enumOf("the kind of action", func(i int) string { return monopoly.ActionKind(i).String() }),
	reflect.TypeFor[monopoly.Phase]():        enumOf("where the turn stands", func(i int) string { return monopoly.Phase(i).String() }),
	reflect.TypeFor[monopoly.EventKind]():    enumOf("the kind of event", func(i int) string { return monopoly.EventKind(i).String() }),
	reflect.TypeFor[monopoly.Reason]():       enumOf("why a payment was made", func(i int) string { return monopoly.Reason(i).String() }),
	reflect.TypeFor[json.RawMessage]():       {},
	reflect.TypeFor[time.Time]():             {Type: "string", Format: "date-time"},
})

// withEvent adds wire.Event to types, described with them.
func withEvent(types map[reflect.Type]*jsonschema.Schema) map[reflect.Type]*jsonschema.Schema {
	types[reflect.TypeFor[wire.Event]()] = eventSchema(types)
	return types
}

// enumOf is the string enum of the names name gives for 0, 1, ... up to
// the first that is not a name (the fallback "Type(N)" of String).
func enumOf(desc string, name func(int) string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	for i := 0; i < 256; i++ {
		n := name(i)
		if strings.ContainsRune(n, '(') {
			break
		}
		s.Enum = append(s.Enum, n)
	}
	return s
}

// eventSchema is a wire.Event: seq and kind always, and the keys of its
// kind (wire.Event's documentation lists them).
func eventSchema(types map[reflect.Type]*jsonschema.Schema) *jsonschema.Schema {
	opts := &jsonschema.ForOptions{TypeSchemas: types}
	type plain wire.Event // without its MarshalJSON, to read its fields
	s, err := jsonschema.For[plain](opts)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: event schema: %v", err))
	}
	s.Required = []string{"seq", "kind"}
	s.Description = "an event of the game as the viewer may see it: seq, kind and exactly the keys of its kind"
	return s
}

// schemaOf is the JSON Schema of T's JSON, the engine's names as enums.
// It panics on a type the generator cannot describe: a programming
// error, found by the first test that builds a server.
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema: %v", err))
	}
	return s
}

// prop returns the schema of property name of the object schema s, for
// a tool to refine what the generator made of it.
func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p := s.Properties[name]
	if p == nil {
		panic("mcpserver: schema has no property " + name)
	}
	return p
}

// rawSchema reads a JSON Schema written as JSON (a wire answer schema).
func rawSchema(data []byte) *jsonschema.Schema {
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		panic(fmt.Sprintf("mcpserver: schema: %v", err))
	}
	s.Schema = "" // nested, it takes its draft from the document
	return &s
}

// strs turns names into an enum's values.
func strs(names ...string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}
