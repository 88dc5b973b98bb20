package llm

import (
	"context"
	"fmt"

	"google.golang.org/genai"
)

// geminiProvider speaks Gemini generateContent through the official
// genai SDK, the answer constrained by a response JSON schema.
type geminiProvider struct {
	client *genai.Client
	key    string
}

func newGemini(c *Config, p ProviderConfig, key string) (Provider, error) {
	// One attempt: gopoly's policy retries (genai would add its own
	// backoff to Retry-After, and its timeout spans every retry).
	attempts := int32(1)
	sent := key
	if sent == "" {
		// A provider that names no key takes none: genai would fill it
		// from GOOGLE_API_KEY or GEMINI_API_KEY and send that to base_url.
		sent = "none"
	}
	// Always the configured server: with no BaseURL, genai would take
	// GOOGLE_GEMINI_BASE_URL from the environment and send the key there.
	base := p.BaseURL
	if base == "" {
		base = "https://generativelanguage.googleapis.com/"
	}
	cc := &genai.ClientConfig{
		APIKey:     sent,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: c.httpClient(),
		HTTPOptions: genai.HTTPOptions{
			BaseURL: base,
			RetryOptions: &genai.HTTPRetryOptions{
				Attempts: &attempts,
			},
		},
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		return nil, redact(fmt.Errorf("llm: gemini: %w", err), key)
	}
	return &geminiProvider{client: client, key: key}, nil
}

func (g *geminiProvider) Complete(ctx context.Context, r Request) (Response, error) {
	var contents []*genai.Content
	for _, m := range r.Messages {
		role := genai.Role(genai.RoleUser)
		if m.Role == "assistant" {
			role = genai.RoleModel
		}
		contents = append(contents, genai.NewContentFromText(m.Text, role))
	}
	cfg := &genai.GenerateContentConfig{
		SystemInstruction:  genai.NewContentFromText(r.System, genai.RoleUser),
		MaxOutputTokens:    int32(r.MaxTokens),
		ResponseMIMEType:   "application/json",
		ResponseJsonSchema: r.Schema,
	}
	if r.Temperature != nil {
		cfg.Temperature = genai.Ptr(float32(*r.Temperature))
	}
	res, err := g.client.Models.GenerateContent(ctx, r.Model, contents, cfg)
	if err != nil {
		return Response{}, redact(fmt.Errorf("llm: gemini: %w", err), g.key)
	}
	var out Response
	if raw, err := res.MarshalJSON(); err == nil {
		out.Raw = string(raw)
	}
	if u := res.UsageMetadata; u != nil {
		// Thoughts are billed as output and reported apart.
		out.Usage = Usage{Prompt: int64(u.PromptTokenCount), Completion: int64(u.CandidatesTokenCount + u.ThoughtsTokenCount),
			Cached: int64(u.CachedContentTokenCount), Reasoning: int64(u.ThoughtsTokenCount)}
	}
	if len(res.Candidates) == 0 {
		if f := res.PromptFeedback; f != nil && f.BlockReason != "" {
			return out, fmt.Errorf("%w: %s", ErrRefused, f.BlockReason)
		}
		return out, ErrEmpty
	}
	if c := res.Candidates[0]; c.FinishReason == genai.FinishReasonSafety || c.FinishReason == genai.FinishReasonProhibitedContent {
		return out, fmt.Errorf("%w: %s", ErrRefused, c.FinishReason)
	}
	out.Text = res.Text()
	if out.Text == "" {
		return out, ErrEmpty
	}
	return out, nil
}
