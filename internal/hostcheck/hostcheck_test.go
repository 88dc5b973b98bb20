package hostcheck

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// get sends what `curl -H 'Host: HOST' URL` sends to the server at url
// and returns the status and body.
func get(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// serve serves "secret" behind the check of allowed on 127.0.0.1 and
// returns its URL and port.
func serve(t *testing.T, allowed ...string) (url, port string) {
	t.Helper()
	h, err := Parse(allowed)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "secret") })))
	t.Cleanup(hs.Close)
	_, port, _ = net.SplitHostPort(strings.TrimPrefix(hs.URL, "http://"))
	return hs.URL, port
}

func TestHostCheck(t *testing.T) {
	url, port := serve(t)
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"127.0.0.1:" + port, true},
		{"localhost:" + port, true},
		{"LOCALHOST.:" + port, true},
		{"game.localhost:" + port, true},
		{"[::1]:" + port, true},
		{"127.0.0.2:" + port, true},
		{"evil.example:" + port, false}, // the DNS-rebinding request
		{"evil.example", false},
		{"localhost.evil.example:" + port, false},
		{"127.0.0.1.evil.example:" + port, false},
		{"10.0.0.1:" + port, false},
		{"127.0.0.1:1", false}, // another port: not this server's address
		{"localhost", false},   // port 80, which it is not on
		{"127.0.0.1:x", false},
		{"a:b:c", false},
	} {
		status, body := get(t, url, c.host)
		if ok := status == 200; ok != c.ok {
			t.Errorf("Host %q: %d %q, want served %v", c.host, status, body, c.ok)
		}
		if !c.ok && (strings.Contains(body, "secret") || status != 403 || !strings.HasPrefix(body, "gopoly: ")) {
			t.Errorf("Host %q refused with %d %q, want 403 with why, and nothing served", c.host, status, body)
		}
	}
	// The refusal says how to allow the name, and does not echo a long
	// Host whole.
	if _, body := get(t, url, "evil.example:"+port); !strings.Contains(body, `"evil.example:`+port+`"`) || !strings.Contains(body, "--allowed-hosts") {
		t.Errorf("the refusal does not name the Host and the flag: %q", body)
	}
	long := strings.Repeat("a", 5000) + ".example"
	if _, body := get(t, url, long); len(body) > 400 || !strings.Contains(body, "5008 bytes") {
		t.Errorf("the refusal of a 5008-byte Host echoes %d bytes: %.300q", len(body), body)
	}
}

func TestAllowedHosts(t *testing.T) {
	url, port := serve(t, "games.example", "Proxy.Example:8443")
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"games.example", true},
		{"games.example:" + port, true},
		{"games.example:9", true},
		{"GAMES.EXAMPLE.", true},
		{"proxy.example:8443", true},
		{"proxy.example", false}, // allowed on 8443 only
		{"proxy.example:" + port, false},
		{"other.games.example", false},
		{"localhost:" + port, true}, // its own address stays allowed
		{"evil.example:" + port, false},
	} {
		if status, body := get(t, url, c.host); (status == 200) != c.ok {
			t.Errorf("Host %q: %d %q, want served %v", c.host, status, body, c.ok)
		}
	}
	url, _ = serve(t, "*")
	if status, body := get(t, url, "evil.example"); status != 200 {
		t.Errorf("--allowed-hosts '*' refused a host: %d %q", status, body)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, e := range []string{"", "http://games.example", "games.example/x", "games.example:0", "games.example:99999", "games.example:x", "a:b:c", "*.example", "user@games.example"} {
		if _, err := Parse([]string{"localhost", e}); err == nil || !strings.Contains(err.Error(), "--allowed-hosts") {
			t.Errorf("Parse(%q) = %v, want an error naming the flag", e, err)
		}
	}
}

// TestNoListener checks a handler called without a server (no address
// the request came in on): loopback names are served on any port, other
// names refused.
func TestNoListener(t *testing.T) {
	var h Hosts
	for host, ok := range map[string]bool{"127.0.0.1:8080": true, "localhost": true, "example.com": false, "": false} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		if err := h.Check(r); (err == nil) != ok {
			t.Errorf("Host %q: %v, want allowed %v", host, err, ok)
		}
	}
}
