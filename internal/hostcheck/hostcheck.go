// Package hostcheck refuses HTTP requests whose Host header names
// neither the address the server serves nor a host the user allowed.
// It is the defence against DNS rebinding: a page of evil.example whose
// name the attacker then points at 127.0.0.1 reaches a local server
// from the victim's browser, as its own origin, but its requests still
// say "Host: evil.example". Both servers (gopoly serve and gopoly mcp
// --http) put it in front of everything they serve.
package hostcheck

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// Flag is the name of the command-line flag that gives the allow-list.
const Flag = "allowed-hosts"

// Hosts are the hosts a server accepts besides its own address. The zero
// value accepts only the server's address: loopback names and the
// address and port the request came in on.
type Hosts struct {
	any   bool                // "*": every host (the check off)
	names map[string]struct{} // a name on every port, or NAME:PORT on that port
}

// Parse reads the allow-list of the --allowed-hosts flag: host names or
// addresses (on any port), HOST:PORT (on that port only), or "*" (every
// host, for a server behind a proxy that checks it).
func Parse(list []string) (Hosts, error) {
	h := Hosts{names: map[string]struct{}{}}
	for _, e := range list {
		if e == "*" {
			h.any = true
			continue
		}
		name, port, err := split(e)
		if err != nil || name == "" || strings.ContainsAny(e, "/@?#* ") || strings.Contains(name, ":") && net.ParseIP(name) == nil {
			return Hosts{}, fmt.Errorf("--%s %q: want a host name, HOST:PORT or *", Flag, e)
		}
		if port != "" {
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
				return Hosts{}, fmt.Errorf("--%s %q: the port is not a number from 1 to 65535", Flag, e)
			}
			name = net.JoinHostPort(name, port)
		}
		h.names[name] = struct{}{}
	}
	return h, nil
}

// split parses a Host header or an allow-list entry into its lower-case
// name, without brackets or a final dot, and its port ("": none).
func split(host string) (name, port string, err error) {
	name = host
	switch {
	case strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]"): // [::1]
	case strings.HasPrefix(host, "[") || strings.Count(host, ":") == 1: // [::1]:80, name:80
		if name, port, err = net.SplitHostPort(host); err != nil {
			return "", "", err
		}
	}
	name = strings.TrimSuffix(strings.Trim(name, "[]"), ".")
	return strings.ToLower(name), port, nil
}

// Check reports why r may not be served (nil: it may): its Host is
// neither one the user allowed nor the server's own address, that is a
// loopback name (localhost, *.localhost, 127.0.0.0/8, ::1) or the
// address the request came in on, with the port it came in on.
func (h Hosts) Check(r *http.Request) error {
	if h.any {
		return nil
	}
	if r.Host == "" {
		return errors.New("the request names no Host: this server answers only requests for its own address")
	}
	name, port, err := split(r.Host)
	if err != nil {
		return fmt.Errorf("the Host %s is not HOST or HOST:PORT", quote(r.Host))
	}
	if _, ok := h.names[name]; ok {
		return nil
	}
	if _, ok := h.names[net.JoinHostPort(name, port)]; ok && port != "" {
		return nil
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if own(name, port, local) {
		return nil
	}
	return fmt.Errorf("the Host %s is not this server's address: refused, since a page of another site may have pointed its name here (DNS rebinding); start the server with --%s NAME to serve that name", quote(r.Host), Flag)
}

// own reports whether name and port are the server's own: a loopback
// name or the address local the request came in on (nil: unknown, when
// a handler is called without a listener), on local's port (none: the
// default port, 80).
func own(name, port string, local net.Addr) bool {
	var ip net.IP
	if t, ok := local.(*net.TCPAddr); ok {
		ip = t.IP
		want := strconv.Itoa(t.Port)
		if port != want && (port != "" || want != "80") {
			return false
		}
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true // never sent to DNS (RFC 6761): it cannot be rebound
	}
	lit := net.ParseIP(name)
	return lit != nil && (lit.IsLoopback() || ip != nil && lit.Equal(ip))
}

// quote quotes a Host for a message, cut to 100 bytes: the refusal does
// not echo a megabyte header back.
func quote(host string) string {
	if len(host) > 100 {
		return strconv.Quote(host[:100]) + fmt.Sprintf("... (%d bytes)", len(host))
	}
	return strconv.Quote(host)
}

// Handler serves next the requests Check lets through and answers the
// others 403 with why, in plain text, before next sees them.
func (h Hosts) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Check(r); err != nil {
			http.Error(w, "gopoly: "+err.Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
