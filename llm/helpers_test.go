package llm_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
)

// The keys of the tests: each must never show in an error, a log line,
// a research record or an export.
var testKeys = map[string]string{
	"GOPOLY_TEST_OPENAI_KEY":    "sk-test-OPENAI-secret-4f1c9a",
	"GOPOLY_TEST_GEMINI_KEY":    "AIza-test-GEMINI-secret-77b2",
	"GOPOLY_TEST_ANTHROPIC_KEY": "sk-ant-test-ANTHROPIC-secret-0e5d",
}

// fakeConfig is a configuration whose four personalities play against
// srv over each API: the Shark on OpenAI tools, the Professor on Gemini,
// the Hustler on Anthropic, the Turtle on OpenAI's JSON-schema response
// format. Waits are short, so that faults cost milliseconds. extra is
// YAML over it.
func fakeConfig(t testing.TB, srv *llmtest.Server, extra string) (*llm.Config, *logBuffer) {
	t.Helper()
	for k, v := range testKeys {
		t.Setenv(k, v)
	}
	doc := fmt.Sprintf(`
timeout: 1s
retries: 1
max_retry_delay: 40ms
rate_limit_wait: 15ms
spacing: 0s
providers:
  fake-openai:    {kind: openai, base_url: %[1]q, key_env: [GOPOLY_TEST_OPENAI_KEY], concurrency: 8}
  fake-json:      {kind: openai, mode: json_schema, base_url: %[1]q, key_env: [GOPOLY_TEST_OPENAI_KEY], concurrency: 8}
  fake-gemini:    {kind: gemini, base_url: %[2]q, key_env: [GOPOLY_TEST_GEMINI_KEY], concurrency: 8}
  fake-anthropic: {kind: anthropic, base_url: %[2]q, key_env: [GOPOLY_TEST_ANTHROPIC_KEY], concurrency: 8}
personalities:
  shark:     {provider: fake-openai, model: gpt-4o, temperature: 0.7, max_tokens: 500}
  professor: {provider: fake-gemini, model: gemini-2.5-pro, temperature: 0.3, max_tokens: 500}
  hustler:   {provider: fake-anthropic, model: claude-haiku-4-5, temperature: 1.0, max_tokens: 500}
  turtle:    {provider: fake-json, model: gpt-4o-mini, temperature: 0.2, max_tokens: 500}
  persona:   {provider: fake-openai, model: gpt-4o-mini, max_tokens: 500}
summarizer: {provider: fake-gemini, model: gemini-2.5-flash, max_tokens: 200}
`, srv.BaseURL("openai"), srv.BaseURL("gemini")) + extra
	cfg, err := llm.ParseConfig("test.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	return cfg, logs
}

// logBuffer collects log lines from many goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// noKeys fails the test if any key shows in texts.
func noKeys(t testing.TB, where string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		for env, key := range testKeys {
			if strings.Contains(text, key) || strings.Contains(text, key[len(key)-12:]) {
				t.Errorf("%s holds the key of %s", where, env)
			}
		}
	}
}
