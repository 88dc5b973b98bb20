package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/internal/hostcheck"
	"github.com/gopoly/gopoly/mcpserver"
	"github.com/gopoly/gopoly/mcpserver/mcptest"
	"github.com/gopoly/gopoly/session"
)

// rawStdio is a client that writes and reads JSON-RPC lines itself, as a
// hand-written client does.
type rawStdio struct {
	t     *testing.T
	in    io.WriteCloser
	out   *bufio.Scanner
	close func() // ends the connection and waits for the server
}

// stdio serves tb's server over pipes to a raw client.
func (tb *table) stdio(t *testing.T) *rawStdio {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		tb.srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		close(done)
	}()
	var once sync.Once
	end := func() {
		once.Do(func() {
			// The reader closes too: a server writing a notification
			// nobody reads would otherwise wait for ever.
			inW.Close()
			outR.Close()
			cancel()
			<-done
		})
	}
	t.Cleanup(end)
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	return &rawStdio{t: t, in: inW, out: sc, close: end}
}

// call writes line and returns the next answer: its raw id, and its
// error message ("" if none).
func (c *rawStdio) call(line string) (id string, errMsg string, result json.RawMessage) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	for msg.ID == nil { // notifications come between the answers
		got := make(chan bool, 1)
		go func() { got <- c.out.Scan() }()
		select {
		case ok := <-got:
			if !ok {
				c.t.Fatalf("%s: no answer: %v", line, c.out.Err())
			}
		case <-time.After(30 * time.Second):
			c.t.Fatalf("%s: no answer in 30s", line)
		}
		if err := json.Unmarshal(c.out.Bytes(), &msg); err != nil {
			c.t.Fatalf("%s: answer %s: %v", line, c.out.Bytes(), err)
		}
	}
	if msg.Error != nil {
		errMsg = msg.Error.Message
	}
	return string(msg.ID), errMsg, msg.Result
}

const initParams = `"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`

// TestIDsComeBackAsSent checks that a JSON-RPC id is answered exactly as
// it was sent, or the request refused with the id as sent: a fraction
// or a number beyond int64 would otherwise come back changed.
func TestIDsComeBackAsSent(t *testing.T) {
	tb := newTable(t, "")
	c := tb.stdio(t)
	if id, msg, _ := c.call(`{"jsonrpc":"2.0","id":7,"method":"initialize",` + initParams + `}`); id != "7" || msg != "" {
		t.Fatalf("initialize: id %s, error %q", id, msg)
	}
	for _, id := range []string{"1.5", "1180591620717411303424", "1e3", "-0.0"} {
		got, msg, _ := c.call(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got != id || !strings.Contains(msg, "numeric id") {
			t.Errorf("id %s: answered with id %s, error %q", id, got, msg)
		}
	}
	for _, id := range []string{"8", `"seven"`, "-9223372036854775808"} {
		got, msg, _ := c.call(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got != id || msg != "" {
			t.Errorf("id %s: answered with id %s, error %q", id, got, msg)
		}
	}
}

// TestHTTPIDsComeBackAsSent is TestIDsComeBackAsSent over HTTP.
func TestHTTPIDsComeBackAsSent(t *testing.T) {
	tb := newTable(t, "")
	allowed, err := hostcheck.Parse([]string{"example.com"}) // httptest.NewRequest's Host
	if err != nil {
		t.Fatal(err)
	}
	h := tb.srv.HTTPHandler(mcpserver.HTTPOptions{Hosts: allowed})
	for _, c := range []struct {
		id   string
		code int
	}{{"1.5", http.StatusBadRequest}, {"1180591620717411303424", http.StatusBadRequest}, {"12", http.StatusOK}} {
		body := `{"jsonrpc":"2.0","id":` + c.id + `,"method":"initialize",` + initParams + `}`
		req := httptest.NewRequest(http.MethodPost, mcpserver.HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), `"id":`+c.id+`,`) {
			t.Errorf("id %s: %d %s", c.id, rec.Code, rec.Body)
		}
	}
}

// TestNoUndeclaredCapabilities checks that the server declares no
// logging capability and refuses logging/setLevel accordingly.
func TestNoUndeclaredCapabilities(t *testing.T) {
	tb := newTable(t, "")
	c := tb.stdio(t)
	_, msg, res := c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize",` + initParams + `}`)
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &init); err != nil || msg != "" {
		t.Fatalf("initialize: %v %q", err, msg)
	}
	if _, ok := init.Capabilities["logging"]; ok {
		t.Fatalf("logging is declared: %s", res)
	}
	if _, msg, _ := c.call(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`); msg == "" {
		t.Error("logging/setLevel answered though logging is not declared")
	}
}

// TestResourcesPaginated checks that resources/list comes in pages, and
// that following nextCursor lists every resource once.
func TestResourcesPaginated(t *testing.T) {
	tb := newTable(t, "")
	cs := tb.connect(t, nil)
	const games = 60 // two resources each: more than a page
	for i := range games {
		create(t, cs, oneHuman(i, "baseline"))
	}
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range res.Resources {
			if seen[r.URI] {
				t.Errorf("%s listed twice", r.URI)
			}
			seen[r.URI] = true
		}
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if pages < 2 || len(seen) < 2*games {
		t.Errorf("%d resources in %d pages: want at least %d, in more than one page", len(seen), pages, 2*games)
	}
}

// tool calls a tool over raw stdio and returns its structured result,
// or its error text.
func (c *rawStdio) tool(id int, name string, args any, out any) string {
	c.t.Helper()
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	_, msg, res := c.call(string(data))
	if msg != "" {
		return msg
	}
	var r struct {
		IsError           bool                    `json:"isError"`
		Content           []struct{ Text string } `json:"content"`
		StructuredContent json.RawMessage         `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		c.t.Fatal(err)
	}
	if r.IsError {
		return r.Content[0].Text
	}
	if out != nil {
		json.Unmarshal(r.StructuredContent, out)
	}
	return ""
}

// open initializes a raw stdio client.
func (c *rawStdio) open() {
	c.t.Helper()
	if _, msg, _ := c.call(`{"jsonrpc":"2.0","id":0,"method":"initialize",` + initParams + `}`); msg != "" {
		c.t.Fatal(msg)
	}
	io.WriteString(c.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
}

// TestStdioOwnerSurvivesRestart creates a game over stdio, as
// monopoly-mcp's clients do, without ever passing a token, restarts the
// server on the same data directory, and goes on with the game from a
// new stdio connection, still without tokens; a connection in memory (as
// over HTTP) still needs them, and a data directory with another key
// holds nothing.
func TestStdioOwnerSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	tb := newTable(t, dir)
	c := tb.stdio(t)
	c.open()
	var g created
	if msg := c.tool(1, "create_game", oneHuman(8, "baseline"), &g); msg != "" {
		t.Fatal(msg)
	}
	var p mcptest.Progress
	if msg := c.tool(2, "advance_game", map[string]any{"game_id": g.GameID}, &p); msg != "" || p.Status != "awaitingDecision" {
		t.Fatalf("advance_game: %s %+v", msg, p)
	}
	c.close()
	tb.close()

	tb = newTable(t, dir)
	c = tb.stdio(t)
	c.open()
	if msg := c.tool(3, "get_decision", map[string]any{"game_id": g.GameID}, nil); msg != "" {
		t.Fatal(msg)
	}
	var d struct {
		Legal []mcptest.Legal `json:"legal"`
	}
	c.tool(4, "get_decision", map[string]any{"game_id": g.GameID}, &d)
	if len(d.Legal) == 0 {
		t.Fatal("after the restart, the stdio client is not shown its seat's legal answers")
	}
	if msg := c.tool(5, "submit_decision", map[string]any{"game_id": g.GameID, "decision": string(d.Legal[0].Payload)}, nil); msg != "" {
		t.Fatalf("after the restart, submit_decision without a token: %s", msg)
	}
	cs := tb.connect(t, nil)
	if got := callErr(t, cs, "delete_game", map[string]any{"game_id": g.GameID}); !strings.Contains(got, "only the connection that created") {
		t.Errorf("a connection in memory deleted the game without its token: %s", got)
	}
	c.close()
	tb.close()

	// Another key: the list of games claims nothing.
	if err := os.Remove(filepath.Join(dir, session.KeyFile)); err != nil {
		t.Fatal(err)
	}
	tb = newTable(t, dir)
	c = tb.stdio(t)
	c.open()
	if msg := c.tool(6, "delete_game", map[string]any{"game_id": g.GameID}, nil); !strings.Contains(msg, "only the connection that created") {
		t.Errorf("with another key, delete_game: %q", msg)
	}
}
