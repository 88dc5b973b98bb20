package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// attempt is what the transport saw of one attempt's HTTP exchange: the
// policy reads the failure from it rather than from the SDK's error, so
// that the three SDKs are retried alike.
type attempt struct {
	status     int           // the response's status; 0: no response
	retryAfter time.Duration // the server's Retry-After, if given
	given      bool
}

type attemptKey struct{}

// policy is gopoly's one retry and wait policy, wrapped around a
// provider whose SDK makes a single attempt per call. Every wait happens
// outside the per-attempt timeout: the gate's spacing and concurrency
// before an attempt, Retry-After (or rate_limit_wait) and backoff between
// attempts, so that a wait never eats into the time a model is given.
//
//   - a 429 is waited out: Retry-After, or rate_limit_wait without it,
//     at most max_retry_delay;
//   - a 5xx, a 408 and a connection failure are retried after
//     Retry-After or an exponential backoff, at most max_retry_delay;
//   - an attempt that timed out, an empty answer and a response body
//     that is not JSON are retried once each;
//   - anything else (a refusal, a 4xx such as a bad key) is not retried.
//
// A call makes at most retries+1 attempts.
type policy struct {
	prov     Provider
	gate     *gate
	timeout  time.Duration
	retries  int
	maxDelay time.Duration
	rateWait time.Duration
}

// The first backoff after a server error; it doubles at each retry.
const firstBackoff = 500 * time.Millisecond

// Complete implements Provider.
func (p *policy) Complete(ctx context.Context, r Request) (Response, error) {
	var queued, waited, latency time.Duration
	once := map[string]bool{} // the failures retried once, by kind
	for n := 0; ; n++ {
		res, err := p.try(ctx, r, &queued, &latency)
		res.Attempts, res.Queued, res.Waited, res.Latency = n+1, queued, waited, latency
		if err == nil || n >= p.retries || ctx.Err() != nil {
			return res, err
		}
		wait, ok := p.retry(err, n, once)
		if !ok {
			return res, err
		}
		t := time.NewTimer(wait)
		start := time.Now()
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return res, err
		}
		waited += time.Since(start)
	}
}

// try makes one attempt: through the gate, then bounded by the timeout.
func (p *policy) try(ctx context.Context, r Request, queued, latency *time.Duration) (Response, error) {
	start := time.Now()
	if err := p.gate.enter(ctx); err != nil {
		return Response{}, err
	}
	defer p.gate.leave()
	*queued += time.Since(start)
	a := &attempt{}
	actx, cancel := context.WithTimeout(context.WithValue(ctx, attemptKey{}, a), p.timeout)
	defer cancel()
	start = time.Now()
	res, err := p.prov.Complete(actx, r)
	*latency += time.Since(start)
	if err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		// The SDKs word a timeout each their own way.
		err = &timedOut{after: p.timeout, err: err}
	}
	if err != nil {
		err = &failed{attempt: *a, err: err}
	}
	return res, err
}

// retry says whether a failed attempt is tried again, and after what wait.
func (p *policy) retry(err error, n int, once map[string]bool) (time.Duration, bool) {
	var f *failed
	if !errors.As(err, &f) {
		return 0, false
	}
	var to *timedOut
	retryOnce := func(kind string) (time.Duration, bool) {
		if once[kind] {
			return 0, false
		}
		once[kind] = true
		return 0, true
	}
	st := f.attempt.status
	switch {
	case errors.As(err, &to):
		return retryOnce("timeout")
	case errors.Is(err, ErrRefused):
		return 0, false
	case errors.Is(err, ErrEmpty):
		return retryOnce("empty")
	case st == http.StatusOK:
		// The server answered 200 and the SDK could not read it.
		return retryOnce("body")
	case st == http.StatusTooManyRequests:
		wait := p.rateWait
		if f.attempt.given {
			wait = f.attempt.retryAfter
		}
		return min(wait, p.maxDelay), true
	case st == 0 || st == http.StatusRequestTimeout || st >= 500:
		if f.attempt.given {
			return min(f.attempt.retryAfter, p.maxDelay), true
		}
		return min(firstBackoff<<n, p.maxDelay), true
	}
	return 0, false
}

// timedOut is an attempt that took longer than the timeout.
type timedOut struct {
	after time.Duration
	err   error
}

func (t *timedOut) Error() string {
	return fmt.Sprintf("no answer within %s: %v", t.after, t.err)
}

func (t *timedOut) Unwrap() []error { return []error{context.DeadlineExceeded, t.err} }

// failed is a failed attempt with what the transport saw of it.
type failed struct {
	attempt attempt
	err     error
}

func (f *failed) Error() string { return f.err.Error() }
func (f *failed) Unwrap() error { return f.err }
