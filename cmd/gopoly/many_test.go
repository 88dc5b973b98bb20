package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/internal/citest"
	"github.com/gopoly/gopoly/mcpserver/mcptest"
)

// Several gopoly processes on one PostgreSQL database, as a public table
// behind a load balancer runs them: real processes (the test binary run
// as gopoly), killed for real.

// manyDSN is the DSN of a schema of the test PostgreSQL server of the
// test's own, dropped when it ends.
func manyDSN(t *testing.T) string {
	t.Helper()
	dsn := citest.PostgresDSN(t, "several gopoly processes on one database")
	admin, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := "gopoly_many_" + strings.ToLower(rand.Text()[:12])
	if _, err := admin.Exec(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close(context.Background())
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// proc is a gopoly process and the URL it serves.
type proc struct {
	cmd *exec.Cmd
	url string
}

// startProc starts gopoly with args and waits for the line, on stdout or
// stderr, that announces its URL (after marker, up to a space).
func startProc(t testing.TB, marker string, args ...string) *proc {
	t.Helper()
	cmd := gopolyProcess(args...)
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		w.Close()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), marker); ok {
				u, _, _ := strings.Cut(rest, " ")
				select {
				case found <- u:
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		return &proc{cmd: cmd, url: u}
	case <-time.After(60 * time.Second):
		t.Fatalf("gopoly %v did not announce its URL in 60s", args)
	}
	return nil
}

// startServe starts gopoly serve on the database dsn; its url is the
// lobby's, ending in /.
func startServe(t testing.TB, dsn string) *proc {
	return startProc(t, "lobby at ", "serve", "--db", dsn, "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--demo=false")
}

// startMCP starts gopoly mcp --http on the database dsn.
func startMCP(t testing.TB, dsn string) *proc {
	return startProc(t, "serving MCP on ", "mcp", "--db", dsn, "--data", t.TempDir(), "--http", "127.0.0.1:0")
}

// connect connects an MCP client to p.
func (p *proc) connect(t testing.TB) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: p.url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var csrfAttr = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrf is the anti-forgery token of the lobby p serves.
func (p *proc) csrf(t testing.TB) string {
	t.Helper()
	res, err := http.Get(p.url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := csrfAttr.FindSubmatch(body)
	if m == nil {
		t.Fatalf("no anti-forgery token in %s", p.url)
	}
	return string(m[1])
}

// post sends a state-changing request to p with the anti-forgery token
// csrf and decodes the JSON answer into out.
func (p *proc) post(t testing.TB, path, csrf, contentType string, body io.Reader, out any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, strings.TrimSuffix(p.url, "/")+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Gopoly-CSRF", csrf)
	req.Header.Set("Content-Type", contentType)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s: %s", path, res.Status, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("POST %s: %v: %s", path, err, data)
	}
}

// frame is one server-sent event of a game's stream.
type frame struct {
	id   int
	data string
}

// stream reads the events of a game from p (path and query after the
// host), sending Last-Event-ID lastID if not empty, until ctx ends.
func (p *proc) stream(ctx context.Context, t testing.TB, path, lastID string) <-chan frame {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(p.url, "/")+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		t.Fatalf("GET %s: %s", path, res.Status)
	}
	ch := make(chan frame, 4096)
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		f := frame{id: -1}
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				f.id, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
			case strings.HasPrefix(line, "data: "):
				f.data = strings.TrimPrefix(line, "data: ")
			case line == "" && f.id >= 0:
				ch <- f
				f = frame{id: -1}
			}
		}
	}()
	return ch
}

// entryOf is the log entry that set off the event of f.
func entryOf(t testing.TB, f frame) int {
	t.Helper()
	var e struct {
		Entry int `json:"entry"`
	}
	if err := json.Unmarshal([]byte(f.data), &e); err != nil {
		t.Fatalf("event %d: %v", f.id, err)
	}
	return e.Entry
}

// readUntil appends the frames of ch to got until done says stop, failing
// after limit.
func readUntil(t testing.TB, ch <-chan frame, got []frame, limit time.Duration, done func([]frame) bool) []frame {
	t.Helper()
	deadline := time.After(limit)
	for !done(got) {
		select {
		case f, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended after %d events", len(got))
			}
			got = append(got, f)
		case <-deadline:
			t.Fatalf("after %v: %d events", limit, len(got))
		}
	}
	return got
}

// settle appends to got what ch still has once the game is quiet: the
// events of its last entry come in one write, and the first of them may
// have been read without the others.
func settle(ch <-chan frame, got []frame) []frame {
	time.Sleep(300 * time.Millisecond)
	for {
		select {
		case f := <-ch:
			got = append(got, f)
		default:
			return got
		}
	}
}

// mcpEntries is the length of game's log, as MCP's get_decision tells.
func mcpEntries(t testing.TB, cs *mcp.ClientSession, game string) int {
	t.Helper()
	var out struct {
		Entries int `json:"entries"`
	}
	if err := mcptest.Call(context.Background(), cs, "get_decision", map[string]any{"game_id": game}, &out); err != nil {
		t.Fatal(err)
	}
	return out.Entries
}

// A game created on one MCP process is played on another with its seat
// token, and watched in the browser's event stream of a third process,
// which reconnects with Last-Event-ID to a fourth: the spectator sees
// every event once, in order, as a full read afterwards gives them.
func TestManyServersOneGame(t *testing.T) {
	dsn := manyDSN(t)
	webA, webB := startServe(t, dsn), startServe(t, dsn)
	mcpC, mcpD := startMCP(t, dsn), startMCP(t, dsn)
	csC, csD := mcpC.connect(t), mcpD.connect(t)
	game, token := mcpGame(t, csC, 11)
	ctx := context.Background()

	watchA, stopA := context.WithCancel(ctx)
	fromA := webA.stream(watchA, t, "/games/"+game+"/events", "")
	if _, err := mcptest.Play(ctx, csD, game, token, mcptest.MCPObject, 12); err == nil {
		t.Fatal("the game ended within 12 decisions")
	}
	n := mcpEntries(t, csD, game)
	got := readUntil(t, fromA, nil, 20*time.Second, func(fs []frame) bool {
		return len(fs) > 0 && entryOf(t, fs[len(fs)-1]) >= n-1
	})
	stopA()
	last := got[len(got)-1].id
	watchB, stopB := context.WithCancel(ctx)
	defer stopB()
	fromB := webB.stream(watchB, t, "/games/"+game+"/events", strconv.Itoa(last))
	if _, err := mcptest.Play(ctx, csC, game, token, mcptest.MCPObject, 12); err == nil {
		t.Fatal("the game ended within 24 decisions")
	}
	n = mcpEntries(t, csC, game)
	got = readUntil(t, fromB, got, 20*time.Second, func(fs []frame) bool {
		return entryOf(t, fs[len(fs)-1]) >= n-1
	})

	// The whole stream again, from the start, from a process that only
	// read the store: what the spectator saw must be it, frame by frame.
	all, stopAll := context.WithCancel(ctx)
	defer stopAll()
	fromStart := webA.stream(all, t, "/games/"+game+"/events", "")
	want := readUntil(t, fromStart, nil, 20*time.Second, func(fs []frame) bool {
		return len(fs) > 0 && entryOf(t, fs[len(fs)-1]) >= n-1
	})
	got, want = settle(fromB, got), settle(fromStart, want)
	if len(got) != len(want) {
		t.Fatalf("the spectator saw %d events across two processes, the game has %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: the spectator saw %d %s, the game has %d %s", i, got[i].id, got[i].data, want[i].id, want[i].data)
		}
	}
	if len(want) < 50 {
		t.Errorf("only %d events in 24 decisions", len(want))
	}
}
