package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
)

// apis are the three APIs, by the name of the provider policyConfig
// gives each.
var apis = []string{"openai", "gemini", "anthropic"}

// policyConfig is the default configuration (its timings included) with
// one provider per API on srv, named as the API; extra is YAML over it.
// The test's keys must be set (setKeys), before any parallel subtest.
func policyConfig(t *testing.T, srv *llmtest.Server, extra string) *llm.Config {
	t.Helper()
	doc := fmt.Sprintf(`
providers:
  openai:    {kind: openai, base_url: %[1]q, key_env: [GOPOLY_TEST_OPENAI_KEY], concurrency: 8}
  gemini:    {kind: gemini, base_url: %[2]q, key_env: [GOPOLY_TEST_GEMINI_KEY], concurrency: 8}
  anthropic: {kind: anthropic, base_url: %[2]q, key_env: [GOPOLY_TEST_ANTHROPIC_KEY], concurrency: 8}
`, srv.BaseURL("openai"), srv.BaseURL("gemini")) + extra
	cfg, err := llm.ParseConfig("test.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// setKeys sets the test's keys in the environment.
func setKeys(t *testing.T) {
	for k, v := range testKeys {
		t.Setenv(k, v)
	}
}

var summaryRequest = llm.Request{
	Model: "m", System: "s", Messages: []llm.Message{{Role: "user", Text: "u"}}, Tool: "summarize", MaxTokens: 50,
	Schema: map[string]any{"type": "object", "properties": map[string]any{"summary": map[string]any{"type": "string"}}, "required": []any{"summary"}},
}

// scripted answers the calls of a server in turn from replies, the last
// one repeated.
func scripted(replies ...llmtest.Reply) llmtest.Script {
	return func(c llmtest.Call) llmtest.Reply { return replies[min(c.N, len(replies)-1)] }
}

var good = llmtest.Reply{Answer: `{"summary":"fine"}`}

// TestPolicyDefaultTimings checks, at the default timings, the two
// failures whose timing is the point, on each API: a 429 without
// Retry-After is waited out for rate_limit_wait (60s) though it is
// longer than the per-attempt timeout (30s), as is one whose Retry-After
// (35s) is, and an attempt that hangs past the timeout is retried.
// About a minute.
func TestPolicyDefaultTimings(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute at the default timings; -short skips it")
	}
	setKeys(t)
	def := llm.DefaultConfig()
	if def.RateLimitWait.D() <= def.Timeout.D() {
		t.Fatalf("the defaults no longer have rate_limit_wait (%s) > timeout (%s): the test no longer tests the case", def.RateLimitWait.D(), def.Timeout.D())
	}
	cases := []struct {
		name  string
		first llmtest.Reply
		check func(res llm.Response) string // what is wrong with res
	}{
		{"429 without Retry-After", llmtest.Reply{Status: 429}, func(res llm.Response) string {
			if res.Waited < def.RateLimitWait.D() || res.Waited > def.RateLimitWait.D()+5*time.Second {
				return fmt.Sprintf("waited %s after the 429, want rate_limit_wait %s", res.Waited, def.RateLimitWait.D())
			}
			return ""
		}},
		{"429 with Retry-After past the timeout", llmtest.Reply{Status: 429, RetryAfter: "35"}, func(res llm.Response) string {
			if after := 35 * time.Second; after <= def.Timeout.D() || after > def.MaxRetryDelay.D() {
				return fmt.Sprintf("Retry-After %s is no longer between the timeout %s and max_retry_delay %s: the case tests nothing", after, def.Timeout.D(), def.MaxRetryDelay.D())
			}
			if res.Waited < 35*time.Second || res.Waited > 40*time.Second {
				return fmt.Sprintf("waited %s after a 429 with Retry-After 35, want 35s", res.Waited)
			}
			return ""
		}},
		{"hang past the timeout", llmtest.Reply{Delay: def.Timeout.D() + 10*time.Second, Answer: `{"summary":"late"}`}, func(res llm.Response) string {
			if res.Latency < def.Timeout.D() || res.Latency > def.Timeout.D()+5*time.Second {
				return fmt.Sprintf("latency %s, want the timeout %s and a quick second attempt", res.Latency, def.Timeout.D())
			}
			return ""
		}},
	}
	// The nine wait at once (t.Parallel would run only GOMAXPROCS at a
	// time, and they mostly sleep).
	var wg sync.WaitGroup
	for _, api := range apis {
		for _, tc := range cases {
			wg.Go(func() {
				srv := llmtest.New(scripted(tc.first, good))
				defer srv.Close()
				cfg := policyConfig(t, srv, "")
				res, err := cfg.Complete(context.Background(), api, summaryRequest)
				if err != nil {
					t.Errorf("%s, %s: the call failed: %v", api, tc.name, err)
					return
				}
				if res.Text != `{"summary":"fine"}` || res.Attempts != 2 || len(srv.Calls()) != 2 {
					t.Errorf("%s, %s: answer %q after %d attempts, %d calls; want the second attempt's answer", api, tc.name, res.Text, res.Attempts, len(srv.Calls()))
				}
				if msg := tc.check(res); msg != "" {
					t.Errorf("%s, %s: %s", api, tc.name, msg)
				}
			})
		}
	}
	wg.Wait()
}

// TestPolicyRetries checks which failures are retried, and how often,
// on each API, at short timings: an empty answer, a body that is not
// JSON and a timeout once each; 429 and 5xx up to retries; a refusal and
// a 400 never. Retry-After is waited as given, not more.
func TestPolicyRetries(t *testing.T) {
	const short = `
timeout: 300ms
retries: 2
max_retry_delay: 2s
rate_limit_wait: 50ms
spacing: 0s
`
	setKeys(t)
	empty, notJSON := llmtest.Reply{Empty: true}, llmtest.Reply{Body: "<html>bad gateway</html>"}
	hang := llmtest.Reply{Delay: time.Second, Answer: `{"summary":"late"}`}
	cases := []struct {
		name     string
		replies  []llmtest.Reply
		attempts int   // the attempts made
		ok       bool  // the call gets the good answer
		is       error // the error the call ends with, if not ok
	}{
		{"empty then good", []llmtest.Reply{empty, good}, 2, true, nil},
		{"empty twice", []llmtest.Reply{empty, empty, good}, 2, false, llm.ErrEmpty},
		{"not JSON then good", []llmtest.Reply{notJSON, good}, 2, true, nil},
		{"not JSON twice", []llmtest.Reply{notJSON, notJSON, good}, 2, false, nil},
		{"timeout then good", []llmtest.Reply{hang, good}, 2, true, nil},
		{"timeout twice", []llmtest.Reply{hang, hang, good}, 2, false, context.DeadlineExceeded},
		{"429 twice then good", []llmtest.Reply{{Status: 429}, {Status: 429}, good}, 3, true, nil},
		{"500 then good", []llmtest.Reply{{Status: 500}, good}, 2, true, nil},
		{"503 past the retries", []llmtest.Reply{{Status: 503, RetryAfter: "0"}}, 3, false, nil},
		{"refusal", []llmtest.Reply{{Refusal: "no"}, good}, 1, false, llm.ErrRefused},
		{"400", []llmtest.Reply{{Status: 400}, good}, 1, false, nil},
	}
	for _, api := range apis {
		for _, tc := range cases {
			t.Run(api+"/"+tc.name, func(t *testing.T) {
				srv := llmtest.New(scripted(tc.replies...))
				defer srv.Close()
				cfg := policyConfig(t, srv, short)
				res, err := cfg.Complete(context.Background(), api, summaryRequest)
				if res.Attempts != tc.attempts || len(srv.Calls()) != tc.attempts {
					t.Errorf("%d attempts, %d calls; want %d", res.Attempts, len(srv.Calls()), tc.attempts)
				}
				switch {
				case tc.ok && (err != nil || res.Text != `{"summary":"fine"}`):
					t.Errorf("got %q, %v; want the good answer", res.Text, err)
				case !tc.ok && err == nil:
					t.Errorf("got %q and no error", res.Text)
				case !tc.ok && tc.is != nil && !errors.Is(err, tc.is):
					t.Errorf("error %v, want %v", err, tc.is)
				}
				noKeys(t, "the error", fmt.Sprint(err))
			})
		}
		t.Run(api+"/Retry-After as given", func(t *testing.T) {
			srv := llmtest.New(scripted(llmtest.Reply{Status: 429, RetryAfter: "1"}, good))
			defer srv.Close()
			cfg := policyConfig(t, srv, short)
			start := time.Now()
			res, err := cfg.Complete(context.Background(), api, summaryRequest)
			took := time.Since(start)
			if err != nil || res.Waited < time.Second || took > 1500*time.Millisecond {
				t.Errorf("waited %s, took %s (err %v); want Retry-After's 1s and little more", res.Waited, took, err)
			}
		})
	}
}

// TestAnthropicCachesSystem: Anthropic caches only what a request marks,
// so the system prompt, the same at every decision, is marked.
func TestAnthropicCachesSystem(t *testing.T) {
	setKeys(t)
	srv := llmtest.New(scripted(good))
	defer srv.Close()
	cfg := policyConfig(t, srv, "")
	if _, err := cfg.Complete(context.Background(), "anthropic", summaryRequest); err != nil {
		t.Fatal(err)
	}
	if c := srv.Calls(); len(c) != 1 || !c[0].CacheSystem {
		t.Errorf("the system prompt was not marked for the cache: %+v", c)
	}
}

// TestLatencyIsTheModels: calls in a row to a fake that answers at once
// wait in the gate for the spacing; that wait is reported apart, not as
// the model's latency. The spacing is 1s rather than the default 200ms,
// so that a loaded machine's slow first call is not taken for the wait.
func TestLatencyIsTheModels(t *testing.T) {
	setKeys(t)
	srv := llmtest.New(scripted(good))
	defer srv.Close()
	cfg := policyConfig(t, srv, "spacing: 1s\n")
	spacing := cfg.Spacing.D()
	for _, api := range apis {
		var queued time.Duration
		for range 3 {
			res, err := cfg.Complete(context.Background(), api, summaryRequest)
			if err != nil {
				t.Fatal(err)
			}
			if res.Latency >= spacing/2 {
				t.Errorf("%s: latency %s against a fake that answers at once (spacing %s)", api, res.Latency, spacing)
			}
			queued += res.Queued
		}
		if queued < spacing {
			t.Errorf("%s: three calls in a row queued %s in all, want at least the spacing %s", api, queued, spacing)
		}
	}
}

// hosts records where requests go and sends none.
type hosts struct {
	mu   sync.Mutex
	seen []string
}

func (h *hosts) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.seen = append(h.seen, r.URL.Host)
	h.mu.Unlock()
	return nil, errors.New("offline")
}

// TestEnvironmentBaseURLIgnored: with no base_url configured, each API
// is called at its provider's own server even when the SDK's variable
// for a base URL (OPENAI_BASE_URL, ANTHROPIC_BASE_URL,
// GOOGLE_GEMINI_BASE_URL) points elsewhere, since the key goes wherever
// the base URL points. No request leaves the machine: the transport
// records the host and fails.
func TestEnvironmentBaseURLIgnored(t *testing.T) {
	setKeys(t)
	for _, k := range []string{"OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL"} {
		t.Setenv(k, "http://stray.invalid/")
	}
	cfg, err := llm.ParseConfig("test.yaml", []byte(`
retries: 0
spacing: 0s
providers:
  openai:    {kind: openai, key_env: [GOPOLY_TEST_OPENAI_KEY]}
  gemini:    {kind: gemini, key_env: [GOPOLY_TEST_GEMINI_KEY]}
  anthropic: {kind: anthropic, key_env: [GOPOLY_TEST_ANTHROPIC_KEY]}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"openai": "api.openai.com", "gemini": "generativelanguage.googleapis.com", "anthropic": "api.anthropic.com"}
	for _, api := range apis {
		h := &hosts{}
		cfg.UseTransport(h)
		if _, err := cfg.Complete(context.Background(), api, summaryRequest); err == nil {
			t.Errorf("%s: a call through a transport that sends nothing succeeded", api)
		}
		if len(h.seen) == 0 || h.seen[0] != want[api] {
			t.Errorf("%s: requests went to %v, want %s", api, h.seen, want[api])
		}
	}
}
