package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/mcpserver/mcptest"
)

// mcpClient starts gopoly mcp on the store in dir as a process and
// connects an MCP client to it over stdio, at the protocol version given
// (none: the newest).
func mcpClient(t testing.TB, dir string, version ...string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	so := &mcp.ClientSessionOptions{}
	if len(version) > 0 {
		so.ProtocolVersion = version[0]
	}
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: gopolyProcess("mcp", "--data", dir)}, so)
	if err != nil {
		t.Fatal(err)
	}
	if want := so.ProtocolVersion; want != "" && cs.InitializeResult().ProtocolVersion != want {
		t.Fatalf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, want)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// mcpGame creates a game of a human Cat against three baseline bots and
// returns its id and Cat's seat token.
func mcpGame(t testing.TB, cs *mcp.ClientSession, seed int) (string, string) {
	t.Helper()
	var out struct {
		GameID  string `json:"game_id"`
		Players []struct {
			SeatToken string `json:"seat_token"`
		} `json:"players"`
	}
	args := map[string]any{"seed": seed, "max_rounds": 300, "players": []any{
		map[string]any{"token": "Cat", "is_human": true},
		map[string]any{"token": "Boot", "ai": map[string]any{"strategy": "baseline"}},
		map[string]any{"token": "Hat", "ai": map[string]any{"strategy": "baseline"}},
		map[string]any{"token": "Dog", "ai": map[string]any{"strategy": "baseline"}},
	}}
	if err := mcptest.Call(context.Background(), cs, "create_game", args, &out); err != nil {
		t.Fatal(err)
	}
	return out.GameID, out.Players[0].SeatToken
}

// storedSessions is gopoly sessions --json of dir, by id.
func storedSessions(t *testing.T, dir string) map[string]sessionInfo {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := execute([]string{"sessions", "--json", "--data", dir}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("sessions: %s", errOut.String())
	}
	var list []sessionInfo
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	m := map[string]sessionInfo{}
	for _, s := range list {
		m[s.ID] = s
	}
	return m
}

// TestMCPStdio plays whole games with a gopoly mcp process over stdio, in
// both payload dialects; gopoly sessions sees them.
func TestMCPStdio(t *testing.T) {
	dir := t.TempDir()
	cs := mcpClient(t, dir)
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated %s, want the newest, 2026-07-28", v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for i, d := range []mcptest.Dialect{mcptest.Gopoly, mcptest.MCPString} {
		game, _ := mcpGame(t, cs, 70+i)
		r, err := mcptest.Play(ctx, cs, game, "", d, 5000)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if r.Final.Status != "completed" {
			t.Errorf("%s: status %s", d, r.Final.Status)
		}
		if s := storedSessions(t, dir)[game]; !s.Over || s.Entries != r.Final.Entries {
			t.Errorf("%s: gopoly sessions shows %+v, the server %d entries", d, s, r.Final.Entries)
		}
	}
}

// A client of gopoly mcp cannot seat a program, which would run a
// command on the server's machine; it refuses saying how to allow them.
func TestMCPRefusesPrograms(t *testing.T) {
	cs := mcpClient(t, t.TempDir())
	marker := filepath.Join(t.TempDir(), "ran")
	game, _ := mcpGame(t, cs, 5)
	args := map[string]any{"game_id": game, "bot": "exec:touch " + marker}
	err := mcptest.Call(context.Background(), cs, "win_probabilities", args, nil)
	if err == nil || !strings.Contains(err.Error(), "--allow-programs") {
		t.Fatalf("win_probabilities with an exec: bot: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the program ran")
	}
}

// TestMCPStdioRestart stops the server process mid-game and goes on with
// the game in a new one, from a client of an older protocol version.
func TestMCPStdioRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	cs := mcpClient(t, dir)
	game, token := mcpGame(t, cs, 90)
	if _, err := mcptest.Play(ctx, cs, game, "", mcptest.MCPObject, 20); err == nil {
		t.Fatal("the game ended within 20 decisions")
	}
	before := storedSessions(t, dir)[game]
	cs.Close()

	cs = mcpClient(t, dir, "2025-06-18") // an older client, too
	r, err := mcptest.Play(ctx, cs, game, token, mcptest.Gopoly, 5000)
	if err != nil {
		t.Fatal(err)
	}
	if r.Final.Status != "completed" || r.Final.Entries <= before.Entries {
		t.Errorf("after the restart: %s at %d entries, %d before", r.Final.Status, r.Final.Entries, before.Entries)
	}
}

// rawMCP is a gopoly mcp process spoken to line by line.
type rawMCP struct {
	in    io.WriteCloser
	lines chan []byte
	wait  func() error
}

func startRaw(t *testing.T, dir string) *rawMCP {
	t.Helper()
	cmd := gopolyProcess("mcp", "--data", dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawMCP{in: in, lines: make(chan []byte, 64), wait: cmd.Wait}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(r.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("stderr: %s", stderr.String())
		}
	})
	return r
}

// reply is a JSON-RPC response as read.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		IsError  bool            `json:"isError"`
		Contents json.RawMessage `json:"contents"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw []byte
}

// send writes one line and then a ping, and returns the replies that
// are not the ping's, once the ping's and at least one other have come:
// the line's own (requests are answered concurrently, so the line's may
// come after the ping's; a second answer to a line would come with the
// next line's).
func (r *rawMCP) send(t *testing.T, line []byte, sync int) []reply {
	t.Helper()
	ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":"sync-%d","method":"ping"}`, sync)
	if _, err := r.in.Write(append(append(line, '\n'), ping+"\n"...)); err != nil {
		t.Fatalf("the server is gone: %v", err)
	}
	var got []reply
	pinged := false
	timeout := time.After(30 * time.Second)
	for !pinged || len(got) == 0 {
		select {
		case data, ok := <-r.lines:
			if !ok {
				t.Fatalf("the server ended after %q", line)
			}
			var rep reply
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatalf("a reply that is not JSON: %s", data)
			}
			rep.raw = data
			if string(rep.ID) == strconv.Quote(fmt.Sprintf("sync-%d", sync)) {
				pinged = true
				continue
			}
			if len(rep.ID) == 0 && rep.Error == nil && rep.Result == nil {
				continue // a notification
			}
			got = append(got, rep)
		case <-timeout:
			t.Fatalf("after %q: ping answered %v, replies %v", line, pinged, got)
		}
	}
	return got
}

// call sends a request that must succeed and returns its result.
func (r *rawMCP) call(t *testing.T, id int, method string, params any) []byte {
	t.Helper()
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	got := r.send(t, line, -id)
	if len(got) != 1 || got[0].Error != nil || got[0].Result != nil && got[0].Result.IsError {
		t.Fatalf("%s: %v", method, got)
	}
	return got[0].raw
}

// fuzzFrames makes malformed frames: bytes that are not JSON, JSON that
// is not JSON-RPC, requests of unknown methods or bad params, and tool
// calls whose arguments are broken (each carries at least one defect a
// tool must refuse, so that none may change anything).
type fuzzFrames struct {
	rng   *rand.Rand
	game  string
	valid map[string]map[string]any // a valid call of each tool
}

func (f *fuzzFrames) junk(n int) string {
	const chars = "{}[]\":,.0123456789abcdefnrtul\\ \t-+eE\x00\x7f\xc3\xa9"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[f.rng.IntN(len(chars))]
	}
	return string(b)
}

// value is a random JSON value, at most depth deep.
func (f *fuzzFrames) value(depth int) any {
	switch k := f.rng.IntN(9); {
	case k == 0:
		return nil
	case k == 1:
		return f.rng.IntN(2) == 0
	case k == 2:
		return f.rng.NormFloat64() * 1e6
	case k == 3:
		return []int64{0, -1, 1 << 53, -1 << 62, 9999999999}[f.rng.IntN(5)]
	case k == 4:
		return []string{"", "game://", "\u0000", strings.Repeat("x", 300), f.game, "rollDice", "{\"kind\":", "🎲"}[f.rng.IntN(8)]
	case k <= 6 && depth > 0:
		list := make([]any, f.rng.IntN(4))
		for i := range list {
			list[i] = f.value(depth - 1)
		}
		return list
	case depth > 0:
		m := map[string]any{}
		for range f.rng.IntN(4) {
			m[[]string{"kind", "game_id", "decision", "uri", "token", "players", "x", ""}[f.rng.IntN(8)]] = f.value(depth - 1)
		}
		return m
	}
	return f.junk(f.rng.IntN(10))
}

// brokenArgs is a tool's valid arguments with defects, one of which
// (an unknown key, a missing required key, a wrong type) every tool
// refuses.
func (f *fuzzFrames) brokenArgs(tool string) any {
	args := map[string]any{}
	for k, v := range f.valid[tool] {
		args[k] = v
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	switch f.rng.IntN(4) {
	case 0:
		args["zz_"+f.junk(3)] = f.value(2)
	case 1:
		if len(keys) == 0 {
			return []any{f.value(1)}
		}
		args[keys[f.rng.IntN(len(keys))]] = []any{f.value(2)} // no argument is a list of junk
		args["zz"] = 1
	case 2: // not an object (null is no arguments, which is an object)
		return []any{"x", 1, true, f.junk(3)}[f.rng.IntN(4)]
	default:
		for range 1 + f.rng.IntN(3) {
			if len(keys) > 0 {
				args[keys[f.rng.IntN(len(keys))]] = f.value(2)
			}
		}
		args["zz_extra"] = f.value(1)
	}
	return args
}

// frame returns a malformed frame with request id, if it carries one.
func (f *fuzzFrames) frame(id int) []byte {
	req := func(method string, params any) []byte {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		return b
	}
	switch f.rng.IntN(9) {
	case 0:
		return []byte(f.junk(1 + f.rng.IntN(60)))
	case 8: // a decision of any kind with a key no kind takes, as an object or a string
		kinds := []string{"rollDice", "yieldTurn", "purchaseProperty", "auctionBid", "jailExit", "proposeTrade", "improveGroup", "continue", "buy", "bid", "propose_trade", "nonsense"}
		d := map[string]any{"kind": kinds[f.rng.IntN(len(kinds))], "zz_" + f.junk(2): f.value(1)}
		for range f.rng.IntN(3) {
			d[[]string{"buy", "bid", "choice", "location", "square", "amount", "offer", "buyerGives"}[f.rng.IntN(8)]] = f.value(2)
		}
		var decision any = d
		if f.rng.IntN(2) == 0 {
			b, _ := json.Marshal(d)
			decision = string(b)
		}
		if f.rng.IntN(4) == 0 {
			decision = map[string]any{"action": d, "speech": f.value(0)}
		}
		return req("tools/call", map[string]any{"name": "submit_decision", "arguments": map[string]any{"game_id": f.game, "decision": decision}})
	case 1: // JSON, not JSON-RPC
		b, _ := json.Marshal(f.value(3))
		if len(b) == 0 || bytes.Equal(b, []byte("null")) {
			return []byte("{}")
		}
		return b
	case 2: // a valid call, cut short
		b := req("tools/call", map[string]any{"name": "create_game", "arguments": f.valid["create_game"]})
		return b[:1+f.rng.IntN(len(b)-2)]
	case 3:
		return req([]string{"gopoly/cheat", "tools/call2", "resources/delete", "", "x"}[f.rng.IntN(5)], f.value(2))
	case 4:
		return req("resources/read", map[string]any{"uri": "game://zz" + f.junk(f.rng.IntN(8)) + []string{"/state", "", "/x/y/z", "/events/-1"}[f.rng.IntN(4)]})
	case 5:
		return req("prompts/get", map[string]any{"name": []string{"play-game", "nope"}[f.rng.IntN(2)], "arguments": map[string]any{"zz": "1"}})
	default:
		tools := make([]string, 0, len(f.valid))
		for k := range f.valid {
			tools = append(tools, k)
		}
		sort.Strings(tools)
		tool := tools[f.rng.IntN(len(tools))]
		return req("tools/call", map[string]any{"name": tool, "arguments": f.brokenArgs(tool)})
	}
}

// TestMCPStdioFuzz sends gopoly mcp malformed frames over stdio (1,000
// by default; GOPOLY_MCP_FUZZ_N=10000 for the full run): each is answered
// with one error, the process stays up, and no game or config changes.
func TestMCPStdioFuzz(t *testing.T) {
	n := 1000
	if v := os.Getenv("GOPOLY_MCP_FUZZ_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("GOPOLY_MCP_FUZZ_N=%q: %v", v, err)
		}
	}
	dir := t.TempDir()
	r := startRaw(t, dir)
	r.call(t, 1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "fuzz", "version": "1"}})
	r.in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	res := r.call(t, 2, "tools/call", map[string]any{"name": "create_game", "arguments": map[string]any{"seed": 5, "players": []any{
		map[string]any{"token": "Cat", "is_human": true}, map[string]any{"token": "Boot", "ai": map[string]any{}}}}})
	var created struct {
		Result struct {
			StructuredContent struct {
				GameID string `json:"game_id"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	json.Unmarshal(res, &created)
	game := created.Result.StructuredContent.GameID
	r.call(t, 3, "tools/call", map[string]any{"name": "advance_game", "arguments": map[string]any{"game_id": game}})
	r.call(t, 4, "tools/call", map[string]any{"name": "save_config", "arguments": map[string]any{"config_id": "house", "yaml": "go_salary: 100"}})
	state := func() string {
		return string(r.call(t, 5, "resources/read", map[string]any{"uri": "game://sessions"})) +
			string(r.call(t, 6, "resources/read", map[string]any{"uri": "game://" + game + "/state"})) +
			string(r.call(t, 7, "resources/read", map[string]any{"uri": "game://configs"}))
	}
	before := state()

	f := &fuzzFrames{rng: rand.New(rand.NewPCG(1, uint64(n))), game: game, valid: map[string]map[string]any{
		"list_tokens":     {},
		"read_resource":   {"uri": "game://" + game + "/state"},
		"create_game":     {"players": []any{map[string]any{"token": "A", "is_human": true}, map[string]any{"token": "B", "ai": map[string]any{}}}},
		"replay_game":     {"game_id": game, "turn": 0},
		"advance_game":    {"game_id": game},
		"submit_decision": {"game_id": game, "decision": map[string]any{"kind": "rollDice"}},
		"delete_game":     {"game_id": game},
		"validate_config": {"yaml": "go_salary: 1"},
		"save_config":     {"config_id": "house", "yaml": "go_salary: 1"},
		"delete_config":   {"config_id": "house"},
		"fork_game":       {"game_id": game},
		"get_decision":    {"game_id": game},
	}}
	for i := range n {
		line := f.frame(100 + i)
		line = bytes.ReplaceAll(line, []byte("\n"), nil)
		if len(bytes.TrimSpace(line)) == 0 {
			line = []byte("#") // a blank line is no message, and has no answer
		}
		got := r.send(t, line, i)
		if len(got) != 1 {
			t.Fatalf("frame %d %q: %d replies, want 1: %v", i, line, len(got), got)
		}
		rep := got[0]
		switch {
		case rep.Error != nil && rep.Error.Message != "":
		case rep.Result != nil && rep.Result.IsError:
		default:
			t.Fatalf("frame %d %q: not an error: %s", i, line, rep.raw)
		}
	}
	if after := state(); after != before {
		t.Errorf("the fuzzed frames changed the store:\nbefore %s\nafter  %s", before, after)
	}
	r.in.Close()
	done := make(chan error, 1)
	go func() { done <- r.wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("gopoly mcp exited with %v after its input closed", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("gopoly mcp did not exit when its input closed")
	}
}

// BenchmarkMCPStdioRoundTrip measures one decision of an MCP client at
// a gopoly mcp process over stdio: advance_game (the decision and its
// legal payloads) and submit_decision (a monopoly-mcp payload, applied,
// the three personalities played to the client's next decision, all of
// it committed to SQLite). p50-ms and p99-ms are of one round trip.
func BenchmarkMCPStdioRoundTrip(b *testing.B) {
	cs := mcpClient(b, b.TempDir())
	ctx := context.Background()
	game, seed := "", 0
	var p mcptest.Progress
	next := func() {
		seed++
		var out struct {
			GameID string `json:"game_id"`
		}
		args := map[string]any{"seed": seed, "players": []any{map[string]any{"token": "Cat", "is_human": true},
			map[string]any{"token": "Shark", "ai": map[string]any{"strategy": "shark"}},
			map[string]any{"token": "Prof", "ai": map[string]any{"strategy": "professor"}},
			map[string]any{"token": "Hustler", "ai": map[string]any{"strategy": "hustler"}}}}
		if err := mcptest.Call(ctx, cs, "create_game", args, &out); err != nil {
			b.Fatal(err)
		}
		game = out.GameID
	}
	next()
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
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
		times = append(times, time.Since(t0))
	}
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

// TestMCPCommandLine refuses what gopoly mcp must not do, as bad input.
func TestMCPCommandLine(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOPOLY_MCP_TOKEN", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--data", dir, "--http", "0.0.0.0:9"}, "beyond this machine's loopback interface: set GOPOLY_MCP_TOKEN"},
		{[]string{"mcp", "--data", dir, "--http", "a:b:c"}, "want HOST:PORT"},
		{[]string{"mcp", "--data", dir, "--allow-origin", "http://x"}, "--allow-origin and --allowed-hosts go with --http"},
		{[]string{"mcp", "--data", dir, "--allowed-hosts", "games.example"}, "--allow-origin and --allowed-hosts go with --http"},
		{[]string{"mcp", "--data", dir, "--http", "9", "--allowed-hosts", "http://games.example"}, `--allowed-hosts "http://games.example": want a host name`},
		{[]string{"serve", "--data", dir, "--allowed-hosts", "games.example:0"}, `--allowed-hosts "games.example:0": the port`},
		{[]string{"mcp", "--data", dir, "extra"}, "unknown command"},
	} {
		_, stderr, code := inProcess(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	// Input that ends at once ends the stdio server, exit 0.
	if _, stderr, code := inProcess("mcp", "--data", dir); code != 0 {
		t.Errorf("mcp on empty input: exit %d, %s", code, stderr)
	}
}

// TestMCPHTTPCommand serves gopoly mcp --http on a free port, with a
// bearer token, plays a little, and stops it with SIGTERM.
func TestMCPHTTPCommand(t *testing.T) {
	cmd := gopolyProcess("mcp", "--data", t.TempDir(), "--http", "127.0.0.1:0")
	cmd.Env = append(cmd.Env, "GOPOLY_MCP_TOKEN=s3cret")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	_, url, ok := strings.Cut(strings.TrimSpace(line), "serving MCP on ")
	url, _, _ = strings.Cut(url, " ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("stderr: %q", line)
	}
	ctx := context.Background()
	dial := func(token string) (*mcp.ClientSession, error) {
		hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+token)
			return http.DefaultTransport.RoundTrip(r)
		})}
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	}
	if cs, err := dial("wrong"); err == nil {
		cs.Close()
		t.Error("a wrong token connected")
	}
	cs, err := dial("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	game, token := mcpGame(t, cs, 3)
	if _, err := mcptest.Play(ctx, cs, game, token, mcptest.MCPObject, 10); err == nil {
		t.Error("the game ended within 10 decisions")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("gopoly mcp --http did not stop on SIGTERM")
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
