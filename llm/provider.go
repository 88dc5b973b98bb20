package llm

import (
	"context"
	"errors"
	"io"
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
}

// Provider calls one model API. Implementations retry transient
// failures with their SDK's own retry options and never put an API key
// in an error.
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

// transport is the HTTP transport under every SDK client: it spaces and
// bounds the calls to its provider, and makes a 429 without Retry-After
// wait rateWait before the SDK's own retry. SDKs that honour Retry-After
// (OpenAI, Anthropic) are given the header; one that does not (genai)
// has the transport wait before it hands the 429 back, and attempt
// bounds each attempt there, as genai's own timeout spans all retries.
type transport struct {
	base     http.RoundTripper
	gate     *gate
	rateWait time.Duration
	waitHere bool          // wait out a 429 here rather than tell the SDK
	attempt  time.Duration // per-attempt timeout (0: the SDK's)
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := t.gate.enter(ctx); err != nil {
		return nil, err
	}
	defer t.gate.leave()
	cancel := context.CancelFunc(func() {})
	if t.attempt > 0 {
		var c context.Context
		c, cancel = context.WithTimeout(ctx, t.attempt)
		req = req.WithContext(c)
	}
	res, err := t.base.RoundTrip(req)
	if err != nil {
		cancel()
		return nil, err
	}
	res.Body = &cancelBody{ReadCloser: res.Body, cancel: cancel}
	if res.StatusCode != http.StatusTooManyRequests {
		return res, nil
	}
	wait, given := retryAfter(res.Header)
	if !given {
		wait = t.rateWait
		res.Header.Set("Retry-After-Ms", strconv.FormatInt(wait.Milliseconds(), 10))
	}
	if t.waitHere {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
		}
	}
	return res, nil
}

// cancelBody ends an attempt's context when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
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

// httpClient is the client an SDK is given for a provider.
func (c *Config) httpClient(provider string, p ProviderConfig, waitHere bool, attempt time.Duration) *http.Client {
	base := http.DefaultTransport
	if c.transport != nil {
		base = c.transport
	}
	return &http.Client{Transport: &transport{
		base:     base,
		gate:     gateFor(provider+" "+p.BaseURL, c.Spacing.D(), p.Concurrency),
		rateWait: c.RateLimitWait.D(),
		waitHere: waitHere,
		attempt:  attempt,
	}}
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
