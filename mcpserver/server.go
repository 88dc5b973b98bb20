package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/table"
)

// Options configure a Server.
type Options struct {
	// Version is gopoly's version, reported to clients as the server's.
	Version string
	// Store names the store in messages ("data directory /x"), so that an
	// error about a game that is not there says where it looked.
	Store string
	// Logger receives the SDK's log of the protocol (nil: none).
	Logger *slog.Logger
	// Lab runs the experiments of start_experiment (nil: none).
	Lab *lab.Manager
	// DataDir is the data directory. Errors name it without its path,
	// and the key that makes stdio clients the owners of their games is
	// kept there ("": no key).
	DataDir string
}

// Server is gopoly's MCP server: the tools, resources and prompts over
// the sessions of one session.Manager. One Server serves any number of
// connections (stdio, HTTP sessions) at once; they share its games, so
// that a client watching a game sees what another plays.
type Server struct {
	m       *session.Manager
	opt     Options
	mcp     *mcp.Server
	routes  []route
	seats   seatMemory
	stats   stats
	watch   watcher
	odds    *table.Odds    // the chances to win, shared by every caller
	drivers *table.Drivers // what plays the games' bots
	started time.Time
}

// maxOddsGames bounds the games whose latest chances to win are kept.
const maxOddsGames = 256

// features are the groups of tools, resources and prompts, each added by
// its own file's init (see the package comment).
var features []func(*Server)

// instructions tell a client's model how to use the server.
const instructions = `gopoly is a Monopoly table. To play: create_game (players as {token, is_human: true} ` +
	`or {token, ai: {strategy}}), then advance_game until status is awaitingDecision, read the legal ` +
	`payloads (get_decision, or the game://{id}/legal-actions resource), and submit_decision with one ` +
	`of them; repeat until status is completed. Decisions may be gopoly action JSON ({"kind":"buy"}) ` +
	`or monopoly-mcp payloads ({"kind":"purchaseProperty","buy":true}). A seat token answers for a ` +
	`seat: create_game returns one per human seat, and this connection remembers them.`

// New returns a server of m's sessions. It lists the stored games, so
// that each appears among the resources.
func New(ctx context.Context, m *session.Manager, o Options) (*Server, error) {
	if o.Version == "" {
		o.Version = "devel"
	}
	if o.Store == "" {
		o.Store = "the store"
	}
	s := &Server{m: m, opt: o, odds: table.NewOdds(maxOddsGames, m.Lookup), drivers: table.NewDrivers(slog.Default()), started: time.Now()}
	s.watch.init(s)
	if o.DataDir != "" {
		owner, err := openOwner(o.DataDir)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: %w", err)
		}
		s.seats.owner = owner
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "gopoly", Title: "gopoly: a Monopoly table", Version: o.Version}, &mcp.ServerOptions{
		Instructions:       instructions,
		Logger:             o.Logger,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
		PageSize:           listPage,
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		},
	})
	s.mcp.AddReceivingMiddleware(s.unknownResources, undeclared)
	for _, add := range features {
		add(s)
	}
	if err := s.listStored(ctx); err != nil {
		return nil, fmt.Errorf("mcpserver: %s: %w", o.Store, err)
	}
	return s, nil
}

// listPage is the most items of a list (resources, templates, tools,
// prompts) one answer gives; a longer list goes on at nextCursor. Each
// game is two resources, so that a store of many games would otherwise
// come in one answer of any size.
const listPage = 100

// undeclared refuses the methods of capabilities the server does not
// declare: the SDK answers logging/setLevel whatever the capabilities
// say, and this server sends no log messages.
func undeclared(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "logging/setLevel" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: "mcpserver: logging/setLevel: this server declares no logging capability and sends no log messages"}
		}
		return next(ctx, method, req)
	}
}

// MCP returns the SDK server, to connect transports to.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close stops watching the games. Connections are their transports' to
// close.
func (s *Server) Close() {
	s.watch.close()
	s.drivers.Close()
}

// open returns the game id, watched for changes from now on.
func (s *Server) open(ctx context.Context, id string) (*session.Session, error) {
	if id == "" {
		return nil, errors.New("game_id is empty: create_game returns one, and game://sessions lists them")
	}
	g, err := s.m.Open(ctx, id)
	if errors.Is(err, session.ErrNotFound) {
		return nil, fmt.Errorf("no game %q here; game://sessions lists the games", id)
	}
	if err != nil {
		return nil, err
	}
	s.watch.game(g)
	return g, nil
}

// addTool adds a tool whose arguments decode into In and whose
// structured result is Out. The arguments are checked against check (nil:
// the tool's input schema) and then decoded strictly, so that a handler
// only sees well-formed input; a handler's error becomes a tool error
// naming the tool, the result both structured content and text.
func addTool[In, Out any](s *Server, t *mcp.Tool, check *jsonschema.Schema, h func(context.Context, *mcp.CallToolRequest, In) (Out, error)) {
	if t.InputSchema == nil {
		t.InputSchema = schemaOf[In]()
	}
	if t.OutputSchema == nil {
		t.OutputSchema = schemaOf[Out]()
	}
	if check == nil {
		check = t.InputSchema.(*jsonschema.Schema)
	}
	resolved, err := check.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: tool %s: input schema: %v", t.Name, err))
	}
	// The schemas go out as JSON written once: the SDK marshals a tool's
	// input schema again at every HTTP request of the newest protocol
	// (looking for parameters sent as headers), which costs little for
	// bytes and a great deal for a *jsonschema.Schema as large as the
	// decision union.
	t.InputSchema, t.OutputSchema = mustJSON(t.InputSchema), mustJSON(t.OutputSchema)
	name := t.Name
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		out, err := runTool(ctx, req, resolved, h)
		var in needInput
		if errors.As(err, &in) {
			return &mcp.CallToolResult{InputRequests: in.requests}, nil
		}
		s.stats.tool(name, err)
		if err != nil {
			res := &mcp.CallToolResult{IsError: true}
			res.Content = []mcp.Content{&mcp.TextContent{Text: "mcpserver: " + name + ": " + s.clientError(err)}}
			return res, nil
		}
		return result(out)
	})
}

// mustJSON is v's JSON, written once.
func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema: %v", err))
	}
	return data
}

// runTool checks and decodes the arguments and calls h.
func runTool[In, Out any](ctx context.Context, req *mcp.CallToolRequest, schema *jsonschema.Resolved, h func(context.Context, *mcp.CallToolRequest, In) (Out, error)) (Out, error) {
	var zero Out
	args := bytes.TrimSpace(req.Params.Arguments)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = []byte("{}")
	}
	var inst any
	if err := json.Unmarshal(args, &inst); err != nil {
		return zero, fmt.Errorf("arguments are not JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		return zero, fmt.Errorf("arguments: %s", schemaError(err))
	}
	var in In
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return zero, fmt.Errorf("arguments: %v", err)
	}
	return h(ctx, req, in)
}

// schemaError shortens the validator's account of a bad argument,
// "validating root: validating /properties/players: validating
// /properties/players/items/properties/ai: ... enum: ...", to its last
// place, named as a client writes it: "players[].ai.strategy: enum: ...".
func schemaError(err error) string {
	msg := err.Error()
	i := strings.LastIndex(msg, "validating ")
	if i < 0 {
		return msg
	}
	where, what, ok := strings.Cut(msg[i+len("validating "):], ": ")
	if !ok || where == "root" {
		return what
	}
	var b strings.Builder
	segs := strings.Split(strings.TrimPrefix(where, "/"), "/")
	for j := 0; j < len(segs); j++ {
		switch segs[j] {
		case "properties":
			if j+1 < len(segs) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(segs[j+1])
				j++
			}
		case "items", "additionalProperties":
			b.WriteString("[]")
		}
	}
	if b.Len() == 0 {
		return what
	}
	return b.String() + ": " + what
}

// texter is a result with a rendering for people and models, given as
// text content before its JSON.
type texter interface{ text() string }

// result makes a tool's result of out: its JSON as the structured
// content and as text (clients from before structured output read the
// text), after out's own text if it has one.
func result(out any) (*mcp.CallToolResult, error) {
	data, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: result: %w", err)
	}
	res := &mcp.CallToolResult{StructuredContent: json.RawMessage(data)}
	if t, ok := out.(texter); ok {
		res.Content = append(res.Content, &mcp.TextContent{Text: t.text()})
	}
	res.Content = append(res.Content, &mcp.TextContent{Text: string(data)})
	return res, nil
}

// seatMemory holds the games a connection created, so that it may
// answer for their seats without passing tokens. A connection that ends
// forgets them; a new one (after a restart, or a stateless HTTP request)
// passes the token it was given, except a stdio connection, the local
// user's, which holds the games the local user created over stdio (see
// owner.go).
type seatMemory struct {
	mu    sync.Mutex
	by    map[*mcp.ServerSession]map[string]bool // connection -> games it created
	local map[*mcp.ServerSession]bool            // the stdio connections
	owner *localOwner                            // nil: no data directory to keep games in
}

// track makes ss known until it ends, local or not.
func (m *seatMemory) track(ss *mcp.ServerSession, local bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil {
		m.by, m.local = map[*mcp.ServerSession]map[string]bool{}, map[*mcp.ServerSession]bool{}
	}
	if games, ok := m.by[ss]; ok {
		if local && !m.local[ss] {
			// Marked local after its first call: its games are the
			// local user's too.
			m.local[ss] = true
			for g := range games {
				m.owner.add(g)
			}
		}
		return
	}
	m.by[ss] = map[string]bool{}
	m.local[ss] = local
	go func() {
		ss.Wait()
		m.mu.Lock()
		delete(m.by, ss)
		delete(m.local, ss)
		m.mu.Unlock()
	}()
}

// remember records that ss created game; for the local user, in the
// data directory too.
func (m *seatMemory) remember(ss *mcp.ServerSession, game string) error {
	if ss == nil {
		return nil
	}
	m.track(ss, false)
	m.mu.Lock()
	m.by[ss][game] = true
	local := m.local[ss]
	m.mu.Unlock()
	if local {
		return m.owner.add(game)
	}
	return nil
}

// created reports whether ss created game: in this connection, or, for
// a stdio connection, as the local user in any earlier one.
func (m *seatMemory) created(ss *mcp.ServerSession, game string) bool {
	m.mu.Lock()
	ok, local := m.by[ss][game], m.local[ss]
	m.mu.Unlock()
	return ok || local && m.owner.owns(game)
}

// forget drops game from every connection and the local user's games
// (it was deleted).
func (m *seatMemory) forget(game string) error {
	m.mu.Lock()
	for _, games := range m.by {
		delete(games, game)
	}
	m.mu.Unlock()
	return m.owner.forget(game)
}

// stats are the server's counters, for game://monitoring.
type stats struct {
	mu            sync.Mutex
	tools         map[string]*toolCount
	reads         int64
	readErrors    int64
	notifications int64
	subscribes    int64
}

// toolCount is how often a tool was called and failed.
type toolCount struct {
	Calls  int64 `json:"calls"`
	Errors int64 `json:"errors"`
}

func (st *stats) tool(name string, err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.tools == nil {
		st.tools = map[string]*toolCount{}
	}
	c := st.tools[name]
	if c == nil {
		c = &toolCount{}
		st.tools[name] = c
	}
	c.Calls++
	if err != nil {
		c.Errors++
	}
}

func (st *stats) add(n *int64) {
	st.mu.Lock()
	*n++
	st.mu.Unlock()
}

// snapshot copies the counters.
func (st *stats) snapshot() (tools map[string]toolCount, reads, readErrors, notes, subs int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	tools = map[string]toolCount{}
	for k, v := range st.tools {
		tools[k] = *v
	}
	return tools, st.reads, st.readErrors, st.notifications, st.subscribes
}
