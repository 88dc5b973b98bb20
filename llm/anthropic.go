package llm

import (
	"context"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// anthropicProvider speaks Anthropic messages through the official SDK,
// the answer forced through a tool.
type anthropicProvider struct {
	client anthropic.Client
	key    string
}

func newAnthropic(c *Config, p ProviderConfig, key string) Provider {
	opts := []option.RequestOption{
		// The SDK's own defaults would read keys and base URLs from the
		// environment and config files: this configuration says which.
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(key),
		option.WithHTTPClient(c.httpClient()),
		option.WithMaxRetries(0), // gopoly's policy retries
	}
	if p.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(p.BaseURL))
	}
	return &anthropicProvider{client: anthropic.NewClient(opts...), key: key}
}

func (a *anthropicProvider) Complete(ctx context.Context, r Request) (Response, error) {
	var msgs []anthropic.MessageParam
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			msgs = append(msgs, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Text)))
		} else {
			msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Text)))
		}
	}
	props, _ := r.Schema["properties"].(map[string]any)
	var required []string
	if req, ok := r.Schema["required"].([]any); ok {
		for _, k := range req {
			if s, ok := k.(string); ok {
				required = append(required, s)
			}
		}
	}
	tool := anthropic.ToolParam{
		Name:        r.Tool,
		Description: anthropic.String("Submit your answer"),
		InputSchema: anthropic.ToolInputSchemaParam{Properties: props, Required: required},
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(r.Model),
		MaxTokens: int64(r.MaxTokens),
		// The system prompt (personality and rules) is the same at every
		// decision of a seat: marked for Anthropic's prompt cache, which
		// caches only what is marked.
		System:     []anthropic.TextBlockParam{{Text: r.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}},
		Messages:   msgs,
		Tools:      []anthropic.ToolUnionParam{{OfTool: &tool}},
		ToolChoice: anthropic.ToolChoiceParamOfTool(r.Tool),
	}
	if r.Temperature != nil {
		params.Temperature = anthropic.Float(min(*r.Temperature, 1)) // Anthropic's range is 0 to 1
	}
	res, err := a.client.Messages.New(ctx, params)
	if err != nil {
		return Response{}, redact(fmt.Errorf("llm: anthropic: %w", err), a.key)
	}
	out := Response{Raw: res.RawJSON(), Usage: Usage{
		Prompt:     res.Usage.InputTokens + res.Usage.CacheReadInputTokens + res.Usage.CacheCreationInputTokens,
		Completion: res.Usage.OutputTokens,
		Cached:     res.Usage.CacheReadInputTokens,
	}}
	if res.StopReason == anthropic.StopReasonRefusal {
		return out, ErrRefused
	}
	for _, b := range res.Content {
		if b.Type == "tool_use" && len(b.Input) > 0 {
			out.Text = string(b.Input)
			return out, nil
		}
	}
	for _, b := range res.Content {
		if b.Type == "text" && b.Text != "" {
			out.Text = b.Text
			return out, nil
		}
	}
	return out, ErrEmpty
}
