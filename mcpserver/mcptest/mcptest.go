// Package mcptest is a scripted MCP client of gopoly's MCP server, for
// tests and benchmarks over any transport: it plays a seat of a game to
// the end the way a client reading the documentation would, reading the
// legal payloads and submitting one, in either payload dialect.
package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Dialect is the form a Player submits its decisions in.
type Dialect int

// Dialects.
const (
	// Gopoly submits gopoly's action JSON as an object.
	Gopoly Dialect = iota
	// MCPString submits monopoly-mcp's payload as a JSON-encoded string,
	// as monopoly-mcp's own clients do.
	MCPString
	// MCPObject submits monopoly-mcp's payload as an object.
	MCPObject
)

// String names the dialect, for test names.
func (d Dialect) String() string {
	return [...]string{"gopoly", "monopoly-mcp string", "monopoly-mcp object"}[d]
}

// Legal is one legal answer as the server lists it.
type Legal struct {
	Action   json.RawMessage `json:"action"`
	Notation string          `json:"notation"`
	Payload  json.RawMessage `json:"payload"`
}

// Progress is where a game stands, as advance_game and submit_decision
// report it.
type Progress struct {
	GameID  string  `json:"game_id"`
	Status  string  `json:"status"`
	Entries int     `json:"entries"`
	Round   int     `json:"round"`
	Legal   []Legal `json:"legal"`
	Winner  *struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
	} `json:"winner"`
}

// Result is how a played game ended.
type Result struct {
	Final     Progress
	Decisions int // decisions the player submitted
	Dialects  map[string]int
}

// Call calls a tool and decodes its structured result into out (nil:
// ignored). A tool error is an error with the tool's message.
func Call(ctx context.Context, cs *mcp.ClientSession, tool string, args any, out any) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		return &ToolError{Tool: tool, Text: Text(res)}
	}
	if out == nil {
		return nil
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// ToolError is a tool's error result.
type ToolError struct {
	Tool, Text string
}

// Error returns the tool's name and its error text.
func (e *ToolError) Error() string { return e.Tool + ": " + e.Text }

// Text joins a result's text content.
func Text(res *mcp.CallToolResult) string {
	s := ""
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			s += t.Text
		}
	}
	return s
}

// preference orders the engine's action kinds for the scripted player:
// it buys what it can, leaves jail, goes on, and raises cash before it
// gives up, so that its games end.
var preference = []string{"buy", "pay_jail_fine", "use_jail_card", "roll_for_doubles", "continue", "drop_out",
	"reject_trade", "keep_mortgaged", "lift_mortgage", "sell_building", "mortgage", "decline", "declare_bankruptcy"}

// Choose picks the scripted player's answer among legal.
func Choose(legal []Legal) (Legal, error) {
	best, rank := -1, len(preference)
	for i, l := range legal {
		var head struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(l.Action, &head) != nil {
			continue
		}
		if r := slices.Index(preference, head.Kind); r >= 0 && r < rank {
			best, rank = i, r
		}
	}
	if best < 0 {
		if len(legal) == 0 {
			return Legal{}, errors.New("no legal answer listed")
		}
		best = 0
	}
	return legal[best], nil
}

// Decision is l in dialect d, as submit_decision's decision argument
// (gopoly's action where l has no payload; Play refuses that in the
// monopoly-mcp dialects).
func Decision(l Legal, d Dialect) any {
	if d == Gopoly || string(l.Payload) == "null" || len(l.Payload) == 0 {
		return l.Action
	}
	if d == MCPString {
		return string(l.Payload)
	}
	return l.Payload
}

// LegalActions reads game://{id}/legal-actions: as a resource when token
// is "" (the connection holds the seat's token), else through
// read_resource with the token.
func LegalActions(ctx context.Context, cs *mcp.ClientSession, game, token string) (entries int, legal []Legal, err error) {
	uri := "game://" + game + "/legal-actions"
	var text string
	if token == "" {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return 0, nil, err
		}
		text = res.Contents[0].Text
	} else {
		var out struct {
			Text string `json:"text"`
		}
		if err := Call(ctx, cs, "read_resource", map[string]any{"uri": uri, "token": token}, &out); err != nil {
			return 0, nil, err
		}
		text = out.Text
	}
	var doc struct {
		Entries int     `json:"entries"`
		Legal   []Legal `json:"legal"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return 0, nil, fmt.Errorf("%s: %w", uri, err)
	}
	return doc.Entries, doc.Legal, nil
}

// Play plays the seat of token (or the connection's own seat, token "")
// in game to the end: advance_game, read legal-actions, submit one in
// dialect d, again until the game is completed. limit bounds the
// decisions (0: none), so that a test cannot loop for ever.
func Play(ctx context.Context, cs *mcp.ClientSession, game, token string, d Dialect, limit int) (Result, error) {
	r := Result{Dialects: map[string]int{}}
	args := func(m map[string]any) map[string]any {
		m["game_id"] = game
		if token != "" {
			m["token"] = token
		}
		return m
	}
	var p Progress
	if err := Call(ctx, cs, "advance_game", args(map[string]any{}), &p); err != nil {
		return r, err
	}
	for p.Status != "completed" {
		if limit > 0 && r.Decisions >= limit {
			return r, fmt.Errorf("game %s: not over after %d decisions", game, r.Decisions)
		}
		if p.Status != "awaitingDecision" {
			if err := Call(ctx, cs, "advance_game", args(map[string]any{}), &p); err != nil {
				return r, err
			}
			continue
		}
		entries, legal, err := LegalActions(ctx, cs, game, token)
		if err != nil {
			return r, err
		}
		l, err := Choose(legal)
		if err != nil {
			return r, fmt.Errorf("game %s at %d: %w", game, entries, err)
		}
		if d != Gopoly && (len(l.Payload) == 0 || string(l.Payload) == "null") {
			return r, fmt.Errorf("game %s at %d: %s has no monopoly-mcp payload: a client of that dialect has nothing to send", game, entries, l.Action)
		}
		var out struct {
			Progress
			Applied struct {
				Dialect string `json:"dialect"`
			} `json:"applied"`
		}
		if err := Call(ctx, cs, "submit_decision", args(map[string]any{"decision": Decision(l, d), "entries": entries}), &out); err != nil {
			return r, err
		}
		r.Decisions++
		r.Dialects[out.Applied.Dialect]++
		p = out.Progress
	}
	r.Final = p
	return r, nil
}
