package table

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/wire"
)

// A Dialect is a form answers come in, as chess libraries read moves in
// several notations: it reads an answer into the engine's terms once,
// against the decision asked, and the engine's Apply then says whether it
// is legal.
type Dialect interface {
	// Name names the dialect, as clients are told which one was read.
	Name() string
	// Decode reads raw as the answer of the seat asked.
	Decode(q session.Asked, raw []byte) (agent.Answer, error)
}

var (
	dialectsMu sync.Mutex
	dialects   = map[string]Dialect{}
)

// RegisterDialect makes d known by its name. A front end that speaks a
// dialect of its own (MCP: monopoly-mcp's payloads) registers it.
func RegisterDialect(d Dialect) {
	dialectsMu.Lock()
	defer dialectsMu.Unlock()
	dialects[d.Name()] = d
}

// LookupDialect returns the dialect called name.
func LookupDialect(name string) (Dialect, error) {
	dialectsMu.Lock()
	defer dialectsMu.Unlock()
	if d, ok := dialects[name]; ok {
		return d, nil
	}
	names := make([]string, 0, len(dialects))
	for n := range dialects {
		names = append(names, n)
	}
	slices.Sort(names)
	return nil, &Error{Code: CodeBadInput, Err: fmt.Errorf("no answer dialect %q (known: %s)", name, strings.Join(names, ", "))}
}

// Answer is the Submit option that reads raw in dialect d for the seat
// that answers: decoded once, under the session's lock, after the token
// and the turn are checked.
func Answer(d Dialect, raw []byte) session.SubmitOption {
	return session.Decode(func(q session.Asked) (agent.Answer, error) { return d.Decode(q, raw) })
}

// Dialects gopoly speaks itself.
var (
	// JSON is gopoly's answer JSON: {"action": {...}, "speech": "...",
	// "thought": "..."} (package wire).
	JSON Dialect = jsonDialect{}
	// Notation is gopoly's text notation of a move, "buy" or "bid 120"
	// (wire.Notation), with the players' names.
	Notation Dialect = notationDialect{}
)

func init() {
	RegisterDialect(JSON)
	RegisterDialect(Notation)
}

type jsonDialect struct{}

func (jsonDialect) Name() string { return "gopoly" }

func (jsonDialect) Decode(q session.Asked, raw []byte) (agent.Answer, error) {
	a, speech, thought, err := wire.DecodeAnswer(q.Rules, q.Seat, raw)
	return agent.Answer{Action: a, Speech: speech, Thought: thought}, err
}

type notationDialect struct{}

func (notationDialect) Name() string { return "notation" }

func (notationDialect) Decode(q session.Asked, raw []byte) (agent.Answer, error) {
	a, err := wire.Notation{Rules: q.Rules, Names: q.Names}.Parse(q.Seat, strings.TrimSpace(string(raw)))
	return agent.Answer{Action: a}, err
}
