package llm

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Message is one turn of a conversation with a model.
type Message struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text"`
}

// Request is one call to a model: a system prompt, the conversation so
// far, and the JSON Schema its answer must follow.
type Request struct {
	Model       string         `json:"model"`
	System      string         `json:"system"`
	Messages    []Message      `json:"messages"`
	Schema      map[string]any `json:"-"`    // an object schema; the answer is one JSON object
	Tool        string         `json:"tool"` // the name of the function the answer is given to
	Temperature *float64       `json:"temperature,omitempty"`
	MaxTokens   int            `json:"max_tokens"`
}

// Usage counts the tokens of one call.
type Usage struct {
	Prompt     int64 `json:"prompt"`
	Completion int64 `json:"completion"`
	Cached     int64 `json:"cached"`    // prompt tokens read from the provider's cache
	Reasoning  int64 `json:"reasoning"` // completion tokens spent thinking
}

// Add adds u's counts to t.
func (t *Usage) Add(u Usage) {
	t.Prompt += u.Prompt
	t.Completion += u.Completion
	t.Cached += u.Cached
	t.Reasoning += u.Reasoning
}

// Response is a model's reply.
type Response struct {
	Text  string // the answer's JSON as the model gave it: a tool call's arguments, or the text
	Raw   string // the provider's whole response body, for the research log
	Usage Usage
	// Set by the retry policy: the attempts made, the time spent in them
	// (the model's latency), waiting for the provider's gate (spacing and
	// concurrency) and waiting between attempts (Retry-After, backoff).
	Attempts int
	Latency  time.Duration
	Queued   time.Duration
	Waited   time.Duration
}

// Provider calls one model API. The SDK-backed implementations make one
// attempt per call (their SDK's retries off) and never put an API key in
// an error; policy makes the retries and the waits, the same for all.
type Provider interface {
	Complete(ctx context.Context, r Request) (Response, error)
}

// Errors of providers, tested with errors.Is.
var (
	// ErrEmpty is a reply without an answer: no choices or candidates, or
	// no tool call.
	ErrEmpty = errors.New("llm: the model gave no answer")
	// ErrRefused is a model that declined to answer.
	ErrRefused = errors.New("llm: the model refused")
)

// gate is what the calls to one provider share in a process: spacing
// between calls and a limit on calls at once. A rate limit on one
// provider never slows another, because each has its own gate.
type gate struct {
	mu      sync.Mutex
	next    time.Time     // the earliest start of the next call
	spacing time.Duration // the least time between two starts
	slots   chan struct{} // one token per call in flight
}

var (
	gatesMu sync.Mutex
	gates   = map[string]*gate{}
)

// gateFor returns the process's gate for a provider, made on first use
// with the given spacing and concurrency (later calls keep the first).
func gateFor(provider string, spacing time.Duration, concurrency int) *gate {
	gatesMu.Lock()
	defer gatesMu.Unlock()
	g := gates[provider]
	if g == nil {
		g = &gate{spacing: spacing, slots: make(chan struct{}, max(1, concurrency))}
		gates[provider] = g
	}
	return g
}

// enter waits for a slot and for the spacing since the last start.
func (g *gate) enter(ctx context.Context) error {
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	g.mu.Lock()
	now := time.Now()
	start := now
	if g.next.After(now) {
		start = g.next
	}
	g.next = start.Add(g.spacing)
	g.mu.Unlock()
	if wait := start.Sub(now); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			<-g.slots
			return ctx.Err()
		}
	}
	return nil
}

func (g *gate) leave() { <-g.slots }

// transport is the HTTP transport under every SDK client: it tells the
// retry policy (through the attempt's context) what the server said, the
// status and Retry-After, whichever SDK made the request and whatever
// error the SDK makes of it.
type transport struct {
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(req)
	if a, ok := req.Context().Value(attemptKey{}).(*attempt); ok && err == nil {
		a.status = res.StatusCode
		a.retryAfter, a.given = retryAfter(res.Header)
	}
	return res, err
}

// retryAfter reads Retry-After-Ms or Retry-After (seconds, or an HTTP
// date) from a response.
func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
		return time.Duration(s * float64(time.Second)), true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(at)), true
	}
	return 0, false
}

// httpClient is the client an SDK is given: the SDK's requests go
// through the transport that reports to the retry policy.
func (c *Config) httpClient() *http.Client {
	base := http.DefaultTransport
	if c.transport != nil {
		base = c.transport
	}
	return &http.Client{Transport: &transport{base: base}}
}

// redact removes secrets from an error's text: SDK errors may quote a
// request or a response, and a key must never reach a log.
func redact(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := msg
	for _, s := range secrets {
		if len(s) >= 4 {
			clean = strings.ReplaceAll(clean, s, "[redacted]")
		}
	}
	if clean == msg {
		return err
	}
	return &redacted{msg: clean, kind: kindOf(err)}
}

// redacted is an error whose text had a secret removed. It keeps only
// the kind of failure (a timeout, an empty answer), never the original
// error, whose text still holds the secret.
type redacted struct {
	msg  string
	kind error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.kind }

// kinds are the failures callers tell apart.
var kinds = []error{context.DeadlineExceeded, context.Canceled, ErrEmpty, ErrRefused}

func kindOf(err error) error {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return k
		}
	}
	return nil
}
