package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/internal/citest"
	"github.com/gopoly/gopoly/mcpserver/mcptest"
	"github.com/gopoly/gopoly/table"
)

// Several gopoly processes on one PostgreSQL database, as a public table
// behind a load balancer runs them: real processes (the test binary run
// as gopoly), killed for real.

// manyDSN is the DSN of a schema of the test PostgreSQL server of the
// test's own, dropped when it ends.
func manyDSN(t testing.TB) string {
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

// connect connects an MCP client to p at the first protocol version
// served statelessly: what a load balancer may send to any process, and
// whose requests are served at once rather than one after another.
func (p *proc) connect(t testing.TB) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: p.url, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
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

// leaseHolder is the process id of the holder of game's lease in the
// database dsn (table.Drivers' owner: host/pid/random), or 0 if none.
func leaseHolder(t testing.TB, dsn, game string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var owner string
	err = conn.QueryRow(context.Background(), `SELECT owner FROM leases WHERE name = $1`, "drive "+game).Scan(&owner)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(owner, "/")
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if len(parts) < 3 || err != nil {
		t.Fatalf("lease owner %q: want host/pid/random", owner)
	}
	return pid
}

// botGame creates a game of four baseline bots on p, paced at 5×, and
// returns its id.
func botGame(t testing.TB, p *proc, seed int) string {
	t.Helper()
	csrf := p.csrf(t)
	form := url.Values{"seat0": {"baseline"}, "seat1": {"baseline"}, "seat2": {"baseline"}, "seat3": {"baseline"}, "seed": {strconv.Itoa(seed)}}
	var links struct {
		ID       string `json:"id"`
		Research string `json:"research"`
	}
	p.post(t, "/games", csrf, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), &links)
	p.post(t, links.Research[:strings.Index(links.Research, "?")]+"/pace"+links.Research[strings.Index(links.Research, "?"):],
		csrf, "application/json", strings.NewReader(`{"speed": 5}`), &struct{}{})
	return links.ID
}

// The process driving a game of bots is killed (SIGKILL: no goodbye);
// the other process, whose spectator watches the game, takes it over
// within the lease's time and plays on, and its spectator sees every
// event once.
func TestManyServersTakeover(t *testing.T) {
	dsn := manyDSN(t)
	webA, webB := startServe(t, dsn), startServe(t, dsn)
	game := botGame(t, webA, 5)
	// On a loaded machine B's pacer, started before A's took the lease,
	// would drive: the test is of a takeover from the creating process.
	for start := time.Now(); leaseHolder(t, dsn, game) != webA.cmd.Process.Pid; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the creating process holds no lease on game %s after 30 s (holder pid %d)", game, leaseHolder(t, dsn, game))
		}
	}
	// The spectator's page on B starts B's pacer, which watches.
	res, err := http.Get(strings.TrimSuffix(webB.url, "/") + "/games/" + game)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	events := webB.stream(ctx, t, "/games/"+game+"/events", "")
	got := readUntil(t, events, nil, 30*time.Second, func(fs []frame) bool { return len(fs) >= 10 })
	if pid := leaseHolder(t, dsn, game); pid != webA.cmd.Process.Pid {
		t.Fatalf("the lease is held by pid %d, want the creating process %d", pid, webA.cmd.Process.Pid)
	}
	webA.cmd.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	for leaseHolder(t, dsn, game) != webB.cmd.Process.Pid {
		if time.Since(killed) > 3*table.LeaseTTL {
			t.Fatalf("no takeover %v after the kill", time.Since(killed))
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(killed)
	t.Logf("taken over %v after SIGKILL (lease %v)", took.Round(time.Millisecond), table.LeaseTTL)
	if took > table.LeaseTTL+table.LeaseTTL/3+time.Second {
		t.Errorf("taken over %v after the kill: more than the lease and a renewal", took)
	}
	before := len(got)
	got = readUntil(t, events, got, 30*time.Second, func(fs []frame) bool { return len(fs) >= before+5 })
	for i, f := range got {
		if f.id != got[0].id+i {
			t.Fatalf("event %d of the stream is number %d, want %d: a gap or a repeat", i, f.id, got[0].id+i)
		}
	}
}

// A hundred games at once across two MCP processes, each decision read
// and answered on one process and the next on the other: no error.
func TestManyServersHundredGames(t *testing.T) {
	dsn := manyDSN(t)
	procs := []*mcp.ClientSession{startMCP(t, dsn).connect(t), startMCP(t, dsn).connect(t)}
	const games, decisions = 100, 6
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	played := 0
	for g := range games {
		wg.Go(func() {
			game, token := mcpGame(t, procs[g%2], 1000+g)
			for k := range decisions {
				over, err := decide(context.Background(), procs[(g+k)%2], game, token)
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Errorf("game %d, decision %d: %w", g, k, err))
				} else {
					played++
				}
				mu.Unlock()
				if err != nil || over {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs[:min(len(errs), 5)] {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.Fatalf("%d errors in %d decisions", len(errs), played+len(errs))
	}
	t.Logf("%d decisions in %d games across two processes", played, games)
}

// decide plays one decision of game for token's seat on cs: the bots up
// to it, the legal answers read, the first chosen. over: the game ended.
func decide(ctx context.Context, cs *mcp.ClientSession, game, token string) (over bool, err error) {
	var p mcptest.Progress
	if err := mcptest.Call(ctx, cs, "advance_game", map[string]any{"game_id": game, "token": token}, &p); err != nil {
		return false, err
	}
	if p.Status == "completed" {
		return true, nil
	}
	entries, legal, err := mcptest.LegalActions(ctx, cs, game, token)
	if err != nil {
		return false, err
	}
	l, err := mcptest.Choose(legal)
	if err != nil {
		return false, err
	}
	args := map[string]any{"game_id": game, "token": token, "decision": mcptest.Decision(l, mcptest.MCPObject), "entries": entries}
	return false, mcptest.Call(ctx, cs, "submit_decision", args, &p)
}
