package llmtest

import (
	"encoding/json"
	"errors"
)

// The decoders read what each SDK sends, as much as a script needs.

func decodeOpenAI(body []byte) (Call, error) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ResponseFormat struct {
			JSONSchema struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Call{}, err
	}
	c := Call{API: "openai", Model: req.Model}
	for _, m := range req.Messages {
		text := contentText(m.Content)
		if m.Role == "system" || m.Role == "developer" {
			c.System = text
			continue
		}
		c.Messages = append(c.Messages, text)
	}
	switch {
	case len(req.Tools) > 0:
		c.Tools, c.Schema = true, string(req.Tools[0].Function.Parameters)
	default:
		c.Schema = string(req.ResponseFormat.JSONSchema.Schema)
	}
	return c, nil
}

// contentText reads a message's content: a string, or a list of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	out := ""
	for _, p := range parts {
		out += p.Text
	}
	return out
}

func decodeGemini(body []byte) (Call, error) {
	type content struct {
		Role  string `json:"role"`
		Parts []struct {
			Text string `json:"text"`
		} `json:"parts"`
	}
	var req struct {
		Contents          []content `json:"contents"`
		SystemInstruction *content  `json:"systemInstruction"`
		GenerationConfig  struct {
			ResponseMIMEType   string          `json:"responseMimeType"`
			ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Call{}, err
	}
	text := func(c content) string {
		out := ""
		for _, p := range c.Parts {
			out += p.Text
		}
		return out
	}
	c := Call{API: "gemini", Schema: string(req.GenerationConfig.ResponseJSONSchema)}
	if req.SystemInstruction != nil {
		c.System = text(*req.SystemInstruction)
	}
	for _, m := range req.Contents {
		c.Messages = append(c.Messages, text(m))
	}
	if req.GenerationConfig.ResponseMIMEType != "application/json" {
		return c, errors.New("gemini: responseMimeType is not application/json")
	}
	return c, nil
}

func decodeAnthropic(body []byte) (Call, error) {
	var req struct {
		Model  string `json:"model"`
		System []struct {
			Text         string `json:"text"`
			CacheControl *struct {
				Type string `json:"type"`
			} `json:"cache_control"`
		} `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		ToolChoice struct {
			Type string `json:"type"`
		} `json:"tool_choice"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Call{}, err
	}
	c := Call{API: "anthropic", Model: req.Model}
	for _, s := range req.System {
		c.System += s.Text
		c.CacheSystem = s.CacheControl != nil && s.CacheControl.Type == "ephemeral"
	}
	for _, m := range req.Messages {
		c.Messages = append(c.Messages, contentText(m.Content))
	}
	if len(req.Tools) > 0 {
		c.Tools, c.Schema = req.ToolChoice.Type == "tool", string(req.Tools[0].InputSchema)
	}
	return c, nil
}
