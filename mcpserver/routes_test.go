package mcpserver

import (
	"context"
	"errors"
	"testing"

	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

func TestMatch(t *testing.T) {
	st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(context.Background(), session.NewManager(st, session.Options{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for uri, want := range map[string]string{
		"game://sessions":                  "game://sessions",
		"game://configs/state":             "game://configs/{id}",
		"game://configs/default/annotated": "game://configs/default/annotated",
		"game://configs/house/yaml":        "game://configs/{id}/yaml",
		"game://abc/state":                 "game://{id}/state",
		"game://abc/history/summary":       "game://{id}/history/summary",
		"game://abc/history/full/5":        "game://{id}/history/{depth}/{limit}",
		"game://abc/events/7":              "game://{id}/events/{since}",
		"ui://gopoly/table.html":           "ui://gopoly/table.html",
		"game://abc":                       "",
		"game://abc/state/x":               "",
		"game:///state":                    "",
		"game://abc/events/":               "",
		"other://abc/state":                "",
		"state":                            "",
	} {
		got := ""
		if r, _ := s.match(uri); r != nil {
			got = r.pattern
		}
		if got != want {
			t.Errorf("%s: route %q, want %q", uri, got, want)
		}
	}
	if _, vars := s.match("game://abc/history/full/5"); vars["id"] != "abc" || vars["depth"] != "full" || vars["limit"] != "5" {
		t.Errorf("variables: %v", vars)
	}
}

func TestSchemaError(t *testing.T) {
	for in, want := range map[string]string{
		"validating root: required: missing properties: [\"players\"]":                                                 "required: missing properties: [\"players\"]",
		"validating root: validating /properties/players: validating /properties/players/items/properties/ai: enum: x": "players[].ai: enum: x",
		"validating root: validating /properties/rules: type: 5 has type \"number\", want one of \"object, string\"":   "rules: type: 5 has type \"number\", want one of \"object, string\"",
		"something else": "something else",
	} {
		if got := schemaError(errors.New(in)); got != want {
			t.Errorf("%q:\n got %q\nwant %q", in, got, want)
		}
	}
}
