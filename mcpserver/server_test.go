package mcpserver_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/lab"
	"github.com/gopoly/gopoly/mcpserver"
	"github.com/gopoly/gopoly/mcpserver/mcptest"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// table is a server on a store of its own.
type table struct {
	dir string
	st  session.Store
	m   *session.Manager
	srv *mcpserver.Server
	lab *lab.Manager
	// strict makes connect's clients validate their arguments against
	// the advertised input schemas.
	strict bool
}

// newTable starts a server on a new store (or on dir's, when given).
func newTable(t testing.TB, dir string) *table {
	t.Helper()
	return newTableWith(t, dir, nil)
}

// newTableWith is newTable seating players from players (nil: every bot
// and program).
func newTableWith(t testing.TB, dir string, players func(string) (agent.Bot, error)) *table {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	m := session.NewManager(st, session.Options{Research: true, Players: players}) // the research view on, as a host may have it
	lm, err := lab.NewManager(filepath.Join(dir, "experiments"), 1, players)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(ctx, m, mcpserver.Options{Version: "test", Store: "data directory " + dir, Lab: lm, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{dir: dir, st: st, m: m, srv: srv, lab: lm}
	t.Cleanup(tb.close)
	return tb
}

func (tb *table) close() {
	tb.lab.Close()
	tb.srv.Close()
	tb.st.Close()
}

// checked is a client that validates every tool's structured result
// against the output schema the tool publishes, so that every call of
// every test also tests the schemas.
func checked(t testing.TB, opts *mcp.ClientOptions) *mcp.Client {
	return checkedClient(t, opts, false)
}

// checkedClient is checked, and with inputs it also validates each
// call's arguments against the tool's advertised input schema before
// sending them, as a strict client does (a call that does not match is
// a test error, and is not sent).
func checkedClient(t testing.TB, opts *mcp.ClientOptions, inputs bool) *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	var mu sync.Mutex
	schemas := map[string]*jsonschema.Resolved{}
	ins := map[string]*jsonschema.Resolved{}
	c.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.CallToolParams); ok && inputs {
				mu.Lock()
				in := ins[p.Name]
				mu.Unlock()
				var args any
				data, _ := json.Marshal(p.Arguments)
				json.Unmarshal(data, &args)
				if in == nil {
					t.Errorf("%s: no input schema listed for it", p.Name)
				} else if err := in.Validate(args); err != nil {
					t.Errorf("%s: the arguments %s do not match the advertised input schema: %v", p.Name, clip(args), err)
					return nil, err
				}
			}
			res, err := next(ctx, method, req)
			switch r := res.(type) {
			case *mcp.ListToolsResult:
				mu.Lock()
				for _, tool := range r.Tools {
					schemas[tool.Name] = resolve(t, tool.OutputSchema)
					ins[tool.Name] = resolve(t, tool.InputSchema)
				}
				mu.Unlock()
			case *mcp.CallToolResult:
				name := req.GetParams().(*mcp.CallToolParams).Name
				mu.Lock()
				s := schemas[name]
				mu.Unlock()
				if s == nil {
					t.Errorf("%s: no output schema listed for it", name)
				}
				if s != nil && !r.IsError {
					if err := s.Validate(r.StructuredContent); err != nil {
						t.Errorf("%s: the result does not match the output schema: %v\n%s", name, err, clip(r.StructuredContent))
					}
				}
			}
			return res, err
		}
	})
	return c
}

func resolve(t testing.TB, schema any) *jsonschema.Resolved {
	data, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema %s: %v", data, err)
	}
	return r
}

func clip(v any) string {
	data, _ := json.Marshal(v)
	if len(data) > 600 {
		return string(data[:600]) + "..."
	}
	return string(data)
}

// connect connects a checked client in memory, at the protocol version
// given (none: the newest), and lists the tools (so that their results
// are checked).
func (tb *table) connect(t testing.TB, opts *mcp.ClientOptions, version ...string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := tb.srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	var so *mcp.ClientSessionOptions
	if len(version) > 0 {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version[0]}
	}
	cs, err := checkedClient(t, opts, tb.strict).Connect(ctx, ct, so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return cs
}

// created is create_game's result, in part.
type created struct {
	GameID  string `json:"game_id"`
	Seed    uint64 `json:"seed"`
	Players []struct {
		Seat      int    `json:"seat"`
		Token     string `json:"token"`
		Kind      string `json:"kind"`
		SeatToken string `json:"seat_token"`
	} `json:"players"`
	State struct {
		Status string `json:"status"`
	} `json:"state"`
	Notes         []string `json:"notes"`
	ResearchToken string   `json:"research_token"`
}

// oneHuman is create_game's arguments for a human Cat against three
// bots, with a round limit: the scripted player never builds, and a game
// of players that never build may never end.
func oneHuman(seed int, bot string) map[string]any {
	return map[string]any{"seed": seed, "max_rounds": 300, "players": []any{
		map[string]any{"token": "Cat", "is_human": true},
		map[string]any{"token": "Boot", "ai": map[string]any{"strategy": bot}},
		map[string]any{"token": "Hat", "ai": map[string]any{"strategy": bot, "seed": 1}},
		map[string]any{"token": "Dog", "ai": map[string]any{"strategy": bot}},
	}}
}

func create(t testing.TB, cs *mcp.ClientSession, args map[string]any) created {
	t.Helper()
	var c created
	if err := mcptest.Call(context.Background(), cs, "create_game", args, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// callErr calls a tool that must fail and returns its error text.
func callErr(t testing.TB, cs *mcp.ClientSession, tool string, args any) string {
	t.Helper()
	err := mcptest.Call(context.Background(), cs, tool, args, nil)
	var te *mcptest.ToolError
	if !errorsAs(err, &te) {
		t.Fatalf("%s %v: want a tool error, got %v", tool, args, err)
	}
	if !strings.HasPrefix(te.Text, "mcpserver: "+tool+": ") {
		t.Errorf("%s: the error does not say where it comes from: %q", tool, te.Text)
	}
	return te.Text
}

func errorsAs(err error, te **mcptest.ToolError) bool {
	e, ok := err.(*mcptest.ToolError)
	if ok {
		*te = e
	}
	return ok
}

// readText reads a resource's text.
func readText(t testing.TB, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("%s: %v", uri, err)
	}
	return res.Contents[0].Text
}

func TestTools(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	want := []string{"list_tokens", "read_resource", "create_game", "replay_game", "advance_game", "submit_decision",
		"delete_game", "validate_config", "save_config", "delete_config", "fork_game", "get_decision",
		"start_experiment", "cancel_experiment", "run_tournament", "win_probabilities"}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool
	}
	for _, name := range want {
		tool := got[name]
		if tool == nil {
			t.Errorf("no tool %s", name)
			continue
		}
		in, _ := tool.InputSchema.(map[string]any)
		out, _ := tool.OutputSchema.(map[string]any)
		if in["type"] != "object" || out["type"] != "object" {
			t.Errorf("%s: input schema type %v, output schema type %v; want objects", name, in["type"], out["type"])
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", name)
		}
		resolve(t, tool.InputSchema)
	}
	// The hand-written parts: the bots as an enum, the decision union.
	data, _ := json.Marshal(got["create_game"].InputSchema)
	for _, s := range []string{`"shark"`, `"planning"`, `"minItems":2`} {
		if !strings.Contains(string(data), s) {
			t.Errorf("create_game's input schema lacks %s", s)
		}
	}
	data, _ = json.Marshal(got["submit_decision"].InputSchema)
	for _, s := range []string{`"purchaseProperty"`, `"propose_trade"`, `"declareBankruptcy"`, `"tryDoubles"`} {
		if !strings.Contains(string(data), s) {
			t.Errorf("submit_decision's input schema lacks %s", s)
		}
	}
	data, _ = json.Marshal(got["advance_game"].OutputSchema)
	for _, s := range []string{`"trade_response"`, `"after_roll"`} {
		if !strings.Contains(string(data), s) {
			t.Errorf("advance_game's output schema lacks the enum value %s", s)
		}
	}
}

// TestPlayWholeGames plays a seat against bots to the end, in each
// payload dialect, reading legal-actions and submitting.
func TestPlayWholeGames(t *testing.T) {
	tb := newTable(t, "")
	for i, d := range []mcptest.Dialect{mcptest.Gopoly, mcptest.MCPString, mcptest.MCPObject} {
		t.Run(d.String(), func(t *testing.T) {
			cs := tb.connect(t, nil)
			c := create(t, cs, oneHuman(40+i, "baseline"))
			if c.Players[0].SeatToken == "" || c.Players[1].SeatToken != "" {
				t.Fatalf("seat tokens: want one for the human seat only: %+v", c.Players)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			r, err := mcptest.Play(ctx, cs, c.GameID, "", d, 5000)
			if err != nil {
				t.Fatal(err)
			}
			if r.Final.Status != "completed" || r.Decisions == 0 {
				t.Fatalf("status %s after %d decisions", r.Final.Status, r.Decisions)
			}
			want := "gopoly"
			if d != mcptest.Gopoly {
				want = "monopoly-mcp"
			}
			if r.Dialects[want] == 0 {
				t.Errorf("no decision was read as %s: %v", want, r.Dialects)
			}
			// The game is over in the store as well: gopoly sessions sees it.
			recs, err := tb.m.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range recs {
				if rec.ID == c.GameID && !rec.Status.Over {
					t.Errorf("the stored game is not over: %+v", rec.Status)
				}
			}
			t.Logf("%s: %d decisions, %d entries, round %d, %v", d, r.Decisions, r.Final.Entries, r.Final.Round, r.Dialects)
		})
	}
}

// TestStrictClientPlays plays whole games, standard and speed die, with a
// client that validates every call's arguments against the advertised
// input schemas, answering only in monopoly-mcp's payloads (as
// JSON-encoded strings, as its clients send them, and as objects).
func TestStrictClientPlays(t *testing.T) {
	tb := newTable(t, "")
	tb.strict = true
	for i, g := range []struct {
		rules string
		d     mcptest.Dialect
	}{{"", mcptest.MCPString}, {"speed_die: true\n", mcptest.MCPObject}} {
		rules, d := g.rules, g.d
		cs := tb.connect(t, nil)
		args := oneHuman(60+i, "baseline")
		args["max_rounds"] = 150
		if rules != "" {
			args["rules"] = rules
		}
		c := create(t, cs, args)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		r, err := mcptest.Play(ctx, cs, c.GameID, "", d, 5000)
		cancel()
		if err != nil {
			t.Fatalf("rules %q, %s: %v", rules, d, err)
		}
		if r.Final.Status != "completed" || r.Dialects["monopoly-mcp"] != r.Decisions {
			t.Fatalf("rules %q, %s: status %s, dialects %v of %d decisions", rules, d, r.Final.Status, r.Dialects, r.Decisions)
		}
		t.Logf("rules %q, %s: %d decisions, round %d", rules, d, r.Decisions, r.Final.Round)
	}
}

// BenchmarkRoundTrip is BenchmarkMCPStdioRoundTrip of cmd/gopoly in
// memory, without the process and its pipes: advance_game and
// submit_decision, the three personalities playing between.
func BenchmarkRoundTrip(b *testing.B) {
	tb := newTable(b, "")
	cs := tb.connect(b, nil)
	ctx := context.Background()
	game, seed := "", 0
	next := func() {
		seed++
		game = create(b, cs, map[string]any{"seed": seed, "players": []any{map[string]any{"token": "Cat", "is_human": true},
			map[string]any{"token": "Shark", "ai": map[string]any{"strategy": "shark"}},
			map[string]any{"token": "Prof", "ai": map[string]any{"strategy": "professor"}},
			map[string]any{"token": "Hustler", "ai": map[string]any{"strategy": "hustler"}}}}).GameID
	}
	next()
	var p mcptest.Progress
	for b.Loop() {
		if err := mcptest.Call(ctx, cs, "advance_game", map[string]any{"game_id": game}, &p); err != nil {
			b.Fatal(err)
		}
		if p.Status == "completed" {
			next()
			continue
		}
		l, err := mcptest.Choose(p.Legal)
		if err != nil {
			b.Fatal(err)
		}
		args := map[string]any{"game_id": game, "decision": mcptest.Decision(l, mcptest.MCPString), "entries": p.Entries}
		if err := mcptest.Call(ctx, cs, "submit_decision", args, nil); err != nil {
			b.Fatal(err)
		}
	}
}
