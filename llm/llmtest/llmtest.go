// Package llmtest is a fake model server for tests: one HTTP server on
// the loopback interface that speaks the real wire formats of OpenAI
// chat completions, Gemini generateContent and Anthropic messages, and
// answers each request as a test's script says: good answers, malformed
// JSON, answers the game refuses, timeouts, 429s with and without
// Retry-After, 500s, empty choices, refusals.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Call is one request the server received, decoded from its API's format.
type Call struct {
	API      string   // "openai", "gemini" or "anthropic"
	Model    string   // the model asked for
	System   string   // the system prompt
	Messages []string // the conversation's texts, in order (user, assistant, user ...)
	Schema   string   // the answer's JSON Schema as sent
	Key      string   // the API key the request carried
	Tools    bool     // the answer was asked for as a tool call (else as the text)
	N        int      // the call's number on this server, from 0
	// CacheSystem: the system prompt was marked for the provider's
	// prompt cache (Anthropic's cache_control on its last block).
	CacheSystem bool
}

// User returns the last message of the conversation.
func (c Call) User() string {
	if len(c.Messages) == 0 {
		return ""
	}
	return c.Messages[len(c.Messages)-1]
}

// Reply is how the server answers one call.
type Reply struct {
	Answer     string        // the answer's JSON: a tool call's arguments, or the text
	Status     int           // an HTTP error status instead (429, 500 ...); 0: 200
	RetryAfter string        // the Retry-After header of an error
	Body       string        // a raw body instead of a well-formed reply
	Delay      time.Duration // wait this long before answering (timeouts)
	Empty      bool          // no choices, candidates or content
	Refusal    string        // the model refuses, saying this
	Prompt     int           // prompt tokens reported (0: estimated from the request)
	Completion int           // completion tokens reported (0: estimated from the answer)
	Cached     int           // cached prompt tokens reported
}

// Script answers calls. It is called from the server's goroutines, one
// call at a time.
type Script func(c Call) Reply

// Server is the fake. Close it when done.
type Server struct {
	*httptest.Server
	mu     sync.Mutex
	script Script
	calls  []Call
}

// New starts a server answering by script.
func New(script Script) *Server {
	s := &Server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL returns the base URL an SDK of api is configured with.
func (s *Server) BaseURL(api string) string {
	if api == "openai" {
		return s.URL + "/v1"
	}
	return s.URL
}

// Calls returns the calls received so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// SetScript replaces the script.
func (s *Server) SetScript(script Script) {
	s.mu.Lock()
	s.script = script
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var c Call
	switch {
	case r.URL.Path == "/v1/chat/completions":
		c, err = decodeOpenAI(body)
		c.Key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	case strings.HasPrefix(r.URL.Path, "/v1beta/models/") && strings.HasSuffix(r.URL.Path, ":generateContent"):
		c, err = decodeGemini(body)
		c.Model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":generateContent")
		c.Key = r.Header.Get("X-Goog-Api-Key")
	case r.URL.Path == "/v1/messages":
		c, err = decodeAnthropic(body)
		c.Key = r.Header.Get("X-Api-Key")
	default:
		http.Error(w, "no such endpoint: "+r.URL.Path, http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "llmtest: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	c.N = len(s.calls)
	s.calls = append(s.calls, c)
	reply := s.script(c)
	s.mu.Unlock()
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	s.reply(w, c, reply)
}

func (s *Server) reply(w http.ResponseWriter, c Call, rp Reply) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case rp.Body != "":
		w.WriteHeader(max(rp.Status, http.StatusOK))
		io.WriteString(w, rp.Body)
		return
	case rp.Status >= 400:
		if rp.RetryAfter != "" {
			w.Header().Set("Retry-After", rp.RetryAfter)
		}
		w.WriteHeader(rp.Status)
		msg := fmt.Sprintf("fake error %d", rp.Status)
		switch c.API {
		case "anthropic":
			writeJSON(w, obj{"type": "error", "error": obj{"type": "api_error", "message": msg}})
		case "gemini":
			writeJSON(w, obj{"error": obj{"code": rp.Status, "message": msg, "status": "UNAVAILABLE"}})
		default:
			writeJSON(w, obj{"error": obj{"message": msg, "type": "server_error", "code": nil}})
		}
		return
	}
	prompt := rp.Prompt
	if prompt == 0 {
		n := len(c.System)
		for _, m := range c.Messages {
			n += len(m)
		}
		prompt = n/4 + 1
	}
	completion := rp.Completion
	if completion == 0 {
		completion = len(rp.Answer)/4 + 1
	}
	switch c.API {
	case "openai":
		msg := obj{"role": "assistant", "content": nil, "refusal": nil}
		switch {
		case rp.Refusal != "":
			msg["refusal"] = rp.Refusal
		case !c.Tools:
			msg["content"] = rp.Answer
		default:
			msg["tool_calls"] = []any{obj{"id": "call_1", "type": "function", "function": obj{"name": "make_decision", "arguments": rp.Answer}}}
		}
		choices := []any{obj{"index": 0, "message": msg, "finish_reason": "tool_calls", "logprobs": nil}}
		if rp.Empty {
			choices = []any{}
		}
		writeJSON(w, obj{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": c.Model, "choices": choices,
			"usage": obj{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
				"prompt_tokens_details": obj{"cached_tokens": rp.Cached}, "completion_tokens_details": obj{"reasoning_tokens": 0}}})
	case "gemini":
		cand := []any{obj{"content": obj{"role": "model", "parts": []any{obj{"text": rp.Answer}}}, "finishReason": "STOP", "index": 0}}
		res := obj{"modelVersion": c.Model, "usageMetadata": obj{"promptTokenCount": prompt, "candidatesTokenCount": completion,
			"totalTokenCount": prompt + completion, "cachedContentTokenCount": rp.Cached}}
		switch {
		case rp.Refusal != "":
			res["promptFeedback"] = obj{"blockReason": "SAFETY", "blockReasonMessage": rp.Refusal}
		case !rp.Empty:
			res["candidates"] = cand
		}
		writeJSON(w, res)
	case "anthropic":
		content := []any{}
		stop := "tool_use"
		switch {
		case rp.Refusal != "":
			stop = "refusal"
			content = append(content, obj{"type": "text", "text": rp.Refusal})
		case rp.Empty:
			stop = "end_turn"
		default:
			var input any
			if err := json.Unmarshal([]byte(rp.Answer), &input); err != nil {
				// Anthropic's tool input is always an object: a malformed
				// answer comes back as text, as a model that ignores the
				// tool would give it.
				content = append(content, obj{"type": "text", "text": rp.Answer})
				stop = "end_turn"
			} else {
				content = append(content, obj{"type": "tool_use", "id": "toolu_1", "name": "make_decision", "input": input})
			}
		}
		writeJSON(w, obj{"id": "msg_1", "type": "message", "role": "assistant", "model": c.Model, "content": content,
			"stop_reason": stop, "stop_sequence": nil,
			"usage": obj{"input_tokens": prompt - rp.Cached, "output_tokens": completion, "cache_read_input_tokens": rp.Cached, "cache_creation_input_tokens": 0}})
	}
}

type obj = map[string]any

func writeJSON(w io.Writer, v any) {
	data, _ := json.Marshal(v)
	w.Write(data)
}
