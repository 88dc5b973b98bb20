package llm

import "context"

// Complete makes one call to a provider of c through its retry policy,
// as a seat's call does, for the tests of the policy.
func (c *Config) Complete(ctx context.Context, provider string, r Request) (Response, error) {
	p, err := c.provider(provider)
	if err != nil {
		return Response{}, err
	}
	return p.Complete(ctx, r)
}
