package mcpserver

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/internal/hostcheck"
)

// TokenEnv is the environment variable that holds the HTTP transport's
// bearer token, if any: kept out of the command line, where other users
// of the machine could read it.
const TokenEnv = "GOPOLY_MCP_TOKEN"

// HTTPPath is where the HTTP transport serves MCP.
const HTTPPath = "/mcp"

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token, when set, must come with every request as
	// "Authorization: Bearer TOKEN".
	Token string
	// Origins are the browser origins allowed besides the server's own
	// ("http://127.0.0.1:PORT"), such as "http://localhost:5173".
	Origins []string
	// Hosts are the Host names served besides the server's own address
	// (--allowed-hosts).
	Hosts hostcheck.Hosts
}

// firstStateless is the first protocol version the SDK serves only
// statelessly over HTTP (each request standing alone, subscriptions on
// a subscriptions/listen request); earlier versions keep a session.
const firstStateless = "2026-07-28"

// HTTPHandler returns the streamable HTTP transport. It refuses a
// request for a Host that is not the server's address or o.Hosts, then
// a browser request from another origin (the MCP specification's defence
// against DNS rebinding) and, when o.Token is set, a request without it;
// then it serves a request of protocol 2026-07-28 or later statelessly
// and an earlier one in its session, so that clients of every version
// the SDK knows are served.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	get := func(*http.Request) *mcp.Server { return s.mcp }
	// The SDK's own Host check is off: it knows loopback listeners only,
	// and would refuse the names o.Hosts allows.
	return o.Hosts.Handler(&httpGate{
		opt:       o,
		stateful:  mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{SessionTimeout: time.Hour, DisableLocalhostProtection: true}),
		stateless: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: true}),
	})
}

type httpGate struct {
	opt                 HTTPOptions
	stateful, stateless http.Handler
}

func (h *httpGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !h.allowed(origin, r.Host) {
		http.Error(w, fmt.Sprintf("mcpserver: origin %q may not use this server (allowed: its own, and --allow-origin)", origin), http.StatusForbidden)
		return
	}
	if h.opt.Token != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(h.opt.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="gopoly"`)
			http.Error(w, "mcpserver: a bearer token is needed: Authorization: Bearer $"+TokenEnv, http.StatusUnauthorized)
			return
		}
	}
	if refuseBadID(w, r) {
		return
	}
	if r.Header.Get("Mcp-Protocol-Version") >= firstStateless {
		h.stateless.ServeHTTP(w, r)
		return
	}
	h.stateful.ServeHTTP(w, r)
}

// allowed reports whether a browser at origin may call: the server's
// own origin, or one the options allow.
func (h *httpGate) allowed(origin, host string) bool {
	if slices.Contains(h.opt.Origins, origin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host == host
}

// ListenAddr checks the address of --http: a bare port is on 127.0.0.1,
// and an address beyond the loopback interface needs a token, so that a
// game server is never opened to the network by accident.
func ListenAddr(addr, token string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = "127.0.0.1:" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("mcpserver: --http %q: want HOST:PORT or PORT: %v", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" && token == "" {
		return "", fmt.Errorf("mcpserver: --http %s is beyond this machine's loopback interface: set %s to a secret that clients must send, or listen on 127.0.0.1", addr, TokenEnv)
	}
	return net.JoinHostPort(host, port), nil
}
