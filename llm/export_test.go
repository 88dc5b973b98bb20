package llm

import (
	"context"
	"net/http"
)

// Complete makes one call to a provider of c through its retry policy,
// as a seat's call does, for the tests of the policy.
func (c *Config) Complete(ctx context.Context, provider string, r Request) (Response, error) {
	p, err := c.provider(provider)
	if err != nil {
		return Response{}, err
	}
	return p.Complete(ctx, r)
}

// UseTransport puts rt under the SDKs of c's providers made from now on,
// for tests that see where requests go without sending them.
func (c *Config) UseTransport(rt http.RoundTripper) { c.transport = rt }
