package llm

import (
	"context"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openaiProvider speaks OpenAI chat completions, through the official
// SDK: OpenAI itself or any compatible server at BaseURL. The answer is
// forced through a function call (mode tools) or a JSON-schema response
// format (mode json_schema, for servers without tool calling).
type openaiProvider struct {
	client     openai.Client
	jsonSchema bool
	key        string
}

func newOpenAI(c *Config, p ProviderConfig, key string) Provider {
	opts := []option.RequestOption{
		option.WithAPIKey(key),
		option.WithHTTPClient(c.httpClient()),
		// One attempt: gopoly's policy retries and waits, outside the
		// attempt's timeout (the SDK would wait inside it).
		option.WithMaxRetries(0),
	}
	// Always the configured server: the SDK would otherwise take
	// OPENAI_BASE_URL from the environment and send the key there.
	base := p.BaseURL
	if base == "" {
		base = "https://api.openai.com/v1/"
	}
	opts = append(opts, option.WithBaseURL(base))
	if key == "" {
		// Local servers take no key; the SDK still sends the header.
		opts[0] = option.WithAPIKey("none")
	}
	return &openaiProvider{client: openai.NewClient(opts...), jsonSchema: p.Mode == "json_schema", key: key}
}

func (o *openaiProvider) Complete(ctx context.Context, r Request) (Response, error) {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(r.System)}
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			msgs = append(msgs, openai.AssistantMessage(m.Text))
		} else {
			msgs = append(msgs, openai.UserMessage(m.Text))
		}
	}
	params := openai.ChatCompletionNewParams{
		Model:               shared.ChatModel(r.Model),
		Messages:            msgs,
		MaxCompletionTokens: openai.Int(int64(r.MaxTokens)),
	}
	if r.Temperature != nil {
		params.Temperature = openai.Float(*r.Temperature)
	}
	if o.jsonSchema {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: r.Tool, Schema: r.Schema,
			}},
		}
	} else {
		params.Tools = []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        r.Tool,
			Description: openai.String("Submit your answer"),
			Parameters:  shared.FunctionParameters(r.Schema),
		})}
		params.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: r.Tool})
	}
	res, err := o.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return Response{}, redact(fmt.Errorf("llm: openai: %w", err), o.key)
	}
	out := Response{Raw: res.RawJSON(), Usage: Usage{
		Prompt:     res.Usage.PromptTokens,
		Completion: res.Usage.CompletionTokens,
		Cached:     res.Usage.PromptTokensDetails.CachedTokens,
		Reasoning:  res.Usage.CompletionTokensDetails.ReasoningTokens,
	}}
	if len(res.Choices) == 0 {
		return out, ErrEmpty
	}
	msg := res.Choices[0].Message
	switch {
	case msg.Refusal != "":
		return out, fmt.Errorf("%w: %s", ErrRefused, msg.Refusal)
	case len(msg.ToolCalls) > 0:
		out.Text = msg.ToolCalls[0].Function.Arguments
	case msg.Content != "":
		// A server that ignores tool_choice may answer in the text.
		out.Text = msg.Content
	default:
		return out, ErrEmpty
	}
	return out, nil
}
