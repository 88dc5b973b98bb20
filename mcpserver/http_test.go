package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/internal/hostcheck"
	"github.com/gopoly/gopoly/mcpserver"
	"github.com/gopoly/gopoly/mcpserver/mcptest"
)

// serveHTTP serves tb over HTTP on 127.0.0.1 and returns the endpoint.
func (tb *table) serveHTTP(t testing.TB, o mcpserver.HTTPOptions) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(mcpserver.HTTPPath, tb.srv.HTTPHandler(o))
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs.URL + mcpserver.HTTPPath
}

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// dialHTTP connects a checked client at protocol version (""; the
// newest), with a bearer token when token is set.
func dialHTTP(t testing.TB, endpoint, version, token string, opts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token, http.DefaultTransport}}
	}
	cs, err := checked(t, opts).Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	_, err = cs.ListTools(context.Background(), nil)
	return cs, err
}

// TestHTTP plays whole games over streamable HTTP at the newest protocol
// version (served statelessly) and at an older one (in a session), and
// receives subscriptions' notifications at both.
func TestHTTP(t *testing.T) {
	tb := newTable(t, "")
	endpoint := tb.serveHTTP(t, mcpserver.HTTPOptions{})
	for i, version := range []string{"2026-07-28", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			updated := make(chan string, 100)
			cs, err := dialHTTP(t, endpoint, version, "", &mcp.ClientOptions{
				ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { offer(updated, r.Params.URI) }})
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("negotiated %s, want %s", got, version)
			}
			c := create(t, cs, oneHuman(60+i, "baseline"))
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "game://" + c.GameID + "/state"}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond) // the newest protocol subscribes on a request of its own
			// A stateless connection holds no tokens between requests: pass it.
			r, err := mcptest.Play(ctx, cs, c.GameID, c.Players[0].SeatToken, []mcptest.Dialect{mcptest.MCPString, mcptest.Gopoly}[i], 5000)
			if err != nil {
				t.Fatal(err)
			}
			if r.Final.Status != "completed" {
				t.Errorf("status %s", r.Final.Status)
			}
			if uri := waitFor(t, updated, "notification of the game's state"); uri != "game://"+c.GameID+"/state" {
				t.Errorf("notified of %s", uri)
			}
		})
	}
}

// TestHTTPOrigin refuses browser requests from other origins.
func TestHTTPOrigin(t *testing.T) {
	tb := newTable(t, "")
	endpoint := tb.serveHTTP(t, mcpserver.HTTPOptions{Origins: []string{"http://localhost:5173"}})
	host := strings.TrimPrefix(strings.TrimSuffix(endpoint, mcpserver.HTTPPath), "http://")
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for origin, want := range map[string]int{
		"http://evil.example":   http.StatusForbidden,
		"http://127.0.0.1:1":    http.StatusForbidden,
		"null":                  http.StatusForbidden,
		"http://" + host:        http.StatusOK,
		"http://localhost:5173": http.StatusOK,
		"":                      http.StatusOK,
	} {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("origin %q: status %d, want %d", origin, resp.StatusCode, want)
		}
	}
}

// TestHTTPHost refuses a request whose Host is not the server's address
// or an allowed host, before anything else (the bearer token included):
// a DNS-rebinding page's request, whose Host and Origin are both its
// own name, is refused.
func TestHTTPHost(t *testing.T) {
	tb := newTable(t, "")
	allowed, err := hostcheck.Parse([]string{"games.example"})
	if err != nil {
		t.Fatal(err)
	}
	endpoint := tb.serveHTTP(t, mcpserver.HTTPOptions{Token: "s3cret", Hosts: allowed})
	port := strings.TrimSuffix(endpoint[strings.LastIndexByte(endpoint, ':')+1:], mcpserver.HTTPPath)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, c := range []struct {
		host, token string
		want        int
	}{
		{"evil.example:" + port, "", http.StatusForbidden},
		{"evil.example:" + port, "s3cret", http.StatusForbidden},
		{"127.0.0.1:1", "s3cret", http.StatusForbidden},
		{"127.0.0.1:" + port, "s3cret", http.StatusOK},
		{"localhost:" + port, "s3cret", http.StatusOK},
		{"games.example", "s3cret", http.StatusOK},
		{"games.example", "", http.StatusUnauthorized},
	} {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Host = c.host
		req.Header.Set("Origin", "http://"+c.host)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want || c.want == http.StatusForbidden && !strings.Contains(string(data), "DNS rebinding") {
			t.Errorf("Host %q, token %q: %d %.200q, want %d", c.host, c.token, resp.StatusCode, data, c.want)
		}
	}
}

// TestHTTPBearer needs the token on every request when one is set.
func TestHTTPBearer(t *testing.T) {
	tb := newTable(t, "")
	endpoint := tb.serveHTTP(t, mcpserver.HTTPOptions{Token: "s3cret"})
	for _, version := range []string{"2026-07-28", "2025-06-18"} {
		for _, token := range []string{"", "wrong"} {
			if _, err := dialHTTP(t, endpoint, version, token, nil); err == nil {
				t.Errorf("%s, token %q: connected", version, token)
			}
		}
		cs, err := dialHTTP(t, endpoint, version, "s3cret", nil)
		if err != nil {
			t.Fatalf("%s with the token: %v", version, err)
		}
		create(t, cs, oneHuman(1, "baseline"))
	}
	resp, err := http.Post(endpoint, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("without a token: %d, WWW-Authenticate %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

func TestListenAddr(t *testing.T) {
	for _, c := range []struct{ addr, token, want, err string }{
		{"8080", "", "127.0.0.1:8080", ""},
		{"127.0.0.1:0", "", "127.0.0.1:0", ""},
		{"localhost:9", "", "localhost:9", ""},
		{"[::1]:9", "", "[::1]:9", ""},
		{":8080", "", "127.0.0.1:8080", ""},
		{"0.0.0.0:8080", "", "", "beyond this machine's loopback"},
		{"192.168.1.4:80", "", "", "GOPOLY_MCP_TOKEN"},
		{"0.0.0.0:8080", "t", "0.0.0.0:8080", ""},
		{"a:b:c", "", "", "want HOST:PORT"},
	} {
		got, err := mcpserver.ListenAddr(c.addr, c.token)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ListenAddr(%q, %q) = %q, %v; want %q, %q", c.addr, c.token, got, err, c.want, c.err)
		}
	}
}

// BenchmarkHTTPConcurrentGames has 100 clients, each with a connection of
// its own, create a game over HTTP and play it to the end at once (one
// human seat, monopoly-mcp's payloads, against three baseline bots, at
// most 150 rounds; GOPOLY_MCP_BENCH_CLIENTS changes the 100), at
// the newest protocol version (stateless) and at an older one (in
// sessions). Any error fails it; games/s and decisions/s are of the
// whole run.
func BenchmarkHTTPConcurrentGames(b *testing.B) {
	clients := 100
	if v, err := strconv.Atoi(os.Getenv("GOPOLY_MCP_BENCH_CLIENTS")); err == nil {
		clients = v
	}
	for _, version := range []string{"2026-07-28", "2025-06-18"} {
		b.Run(version, func(b *testing.B) {
			tb := newTable(b, "")
			endpoint := tb.serveHTTP(b, mcpserver.HTTPOptions{})
			var games, decisions int
			start := time.Now()
			for b.Loop() {
				errs := make(chan error, clients)
				done := make(chan int, clients)
				for i := range clients {
					go func() {
						n, err := playHTTP(b, endpoint, version, games+i)
						errs <- err
						done <- n
					}()
				}
				var failed []error
				for range clients {
					if err := <-errs; err != nil {
						failed = append(failed, err)
					}
					decisions += <-done
				}
				if len(failed) > 0 {
					b.Fatalf("%d of %d clients failed; the first: %v", len(failed), clients, failed[0])
				}
				games += clients
			}
			secs := time.Since(start).Seconds()
			b.ReportMetric(float64(games)/secs, "games/s")
			b.ReportMetric(float64(decisions)/secs, "decisions/s")
		})
	}
}

// playHTTP connects, creates a game and plays it to the end.
func playHTTP(b *testing.B, endpoint, version string, seed int) (int, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	var g created
	args := oneHuman(seed, "baseline")
	args["max_rounds"] = 150
	if err := mcptest.Call(ctx, cs, "create_game", args, &g); err != nil {
		return 0, err
	}
	r, err := mcptest.Play(ctx, cs, g.GameID, g.Players[0].SeatToken, mcptest.MCPObject, 20000)
	if err == nil && r.Final.Status != "completed" {
		err = fmt.Errorf("game %s: %s", g.GameID, r.Final.Status)
	}
	return r.Decisions, err
}
