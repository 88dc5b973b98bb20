package wire

import (
	"encoding/json"
	"slices"

	"github.com/gopoly/gopoly/monopoly"
)

// The answer schemas are generated from actionSpecs and answers, the
// table DecodeAction reads by, so that what the schema admits and what
// the decoder takes cannot drift apart.

const schemaDialect = "https://json-schema.org/draft/2020-12/schema"

type obj = map[string]any

var squareSchema = obj{
	"description": "a square: its index on the board, or its name (any case)",
	"oneOf": []any{
		obj{"type": "integer", "minimum": 0, "maximum": monopoly.MaxSquares - 1},
		obj{"type": "string", "minLength": 1},
	},
}

var deckSchema = obj{
	"description": "a deck: its name (such as \"chance\") or its index",
	"oneOf": []any{
		obj{"type": "string", "minLength": 1},
		obj{"type": "integer", "minimum": 0, "maximum": monopoly.MaxDecks - 1},
	},
}

func sideSchema(what string) obj {
	return obj{
		"type":        "object",
		"description": what,
		"properties": obj{
			"squares":    obj{"type": "array", "items": squareSchema, "uniqueItems": true},
			"cash":       obj{"type": "integer", "minimum": 0},
			"jail_cards": obj{"type": "array", "items": deckSchema, "description": "Get Out of Jail Free cards, by deck"},
		},
		"additionalProperties": false,
	}
}

var offerSchema = obj{
	"type": "object",
	"properties": obj{
		"to":   obj{"type": "integer", "minimum": 0, "maximum": monopoly.MaxPlayers - 1, "description": "the seat the offer goes to"},
		"from": obj{"type": "integer", "description": "optional: your own seat"},
		"give": sideSchema("what you give (sealed deals: cash is the most you pay)"),
		"get":  sideSchema("what you ask for (sealed deals: cash is the least you take)"),
	},
	"required":             []any{"to"},
	"additionalProperties": false,
}

// keySchemas are the schemas of the argument keys, by keyType.
var keySchemas = [...]obj{
	keySquare: squareSchema,
	keyAmount: {"type": "integer", "description": "the bid: above the high bid, at most your cash"},
	keyDeck:   deckSchema,
	keyLimit:  {"type": "integer", "description": "sealed deals: the least net cash you take from the proposer, negative for the most you pay"},
	keyOffer:  offerSchema,
}

// actionSchema is the schema of one action kind's JSON.
func actionSchema(k monopoly.ActionKind) obj {
	s := actionSpecs[k]
	props := obj{
		"kind":   obj{"const": k.String()},
		"player": obj{"type": "integer", "description": "optional: your own seat"},
	}
	required := []any{"kind"}
	if s.key != keyNone {
		props[keyNames[s.key]] = keySchemas[s.key]
		if s.key.required() {
			required = append(required, keyNames[s.key])
		}
	}
	return obj{
		"type":                 "object",
		"title":                k.String(),
		"description":          s.doc,
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

func answerSchema(k monopoly.DecisionKind) obj {
	if len(answers[k]) == 0 {
		return obj{
			"$schema":     schemaDialect,
			"title":       "answer to " + k.String(),
			"description": "no decision is pending: there is nothing to answer",
			"not":         obj{},
		}
	}
	var actions []any
	for _, a := range answers[k] {
		actions = append(actions, actionSchema(a))
	}
	return obj{
		"$schema":     schemaDialect,
		"title":       "answer to " + k.String(),
		"description": "an answer to a " + k.String() + " decision: the action, and optionally words",
		"type":        "object",
		"properties": obj{
			"action":  obj{"oneOf": actions},
			"speech":  obj{"type": "string", "description": "said at the table: every player hears it"},
			"thought": obj{"type": "string", "description": "private: only you (and research views) see it"},
		},
		"required":             []any{"action"},
		"additionalProperties": false,
	}
}

// schemas holds each decision kind's answer schema, made once.
var schemas = func() [][]byte {
	out := make([][]byte, len(answers))
	for k := range answers {
		data, err := json.Marshal(answerSchema(monopoly.DecisionKind(k)))
		if err != nil {
			panic(err) // maps of strings, numbers and slices always marshal
		}
		out[k] = data
	}
	return out
}()

// Schema returns the JSON Schema (draft 2020-12) of an answer to a
// decision of kind k: an object with the action (one of the action kinds
// that answer k, each with exactly its keys) and optional speech and
// thought. The schema says what is well-formed, not what is legal in a
// position: that is View.Check's, and Options lists it. Kind none (and an
// unknown kind) admits no answer.
func Schema(k monopoly.DecisionKind) json.RawMessage {
	if int(k) >= len(schemas) {
		k = monopoly.DecisionNone
	}
	return slices.Clone(schemas[k])
}

// AnswerSchemas returns Schema for every decision kind, by its name.
func AnswerSchemas() map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(schemas))
	for k := range schemas {
		m[monopoly.DecisionKind(k).String()] = Schema(monopoly.DecisionKind(k))
	}
	return m
}
