package llm

import (
	_ "embed"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gopoly/gopoly/internal/strictyaml"
)

// Config is how the LLM players reach their models: the providers, each
// personality's model and settings, the summariser, the prices, the
// reliability settings and the token budgets of the prompt. DefaultConfig
// follows 001's table; a YAML file (LoadConfig) overrides any part.
type Config struct {
	Timeout       Duration `yaml:"timeout"`         // one attempt of one call, the waits outside it
	Retries       int      `yaml:"retries"`         // the retries of one call by policy (retry.go)
	MaxRetryDelay Duration `yaml:"max_retry_delay"` // the longest wait between retries, Retry-After included
	RateLimitWait Duration `yaml:"rate_limit_wait"` // the wait after a 429 without Retry-After
	Spacing       Duration `yaml:"spacing"`         // the least time between two calls to one provider, per process
	// MaxCost is what one LLM seat may spend in one game, in dollars
	// (0: no limit); past it the seat plays its fallback.
	MaxCost float64 `yaml:"max_cost"`
	// SummaryBatch is how many turns one summary of older table talk
	// covers; Recent how many of the last turns go into the prompt
	// verbatim; Thoughts how many of its own last thoughts a seat sees.
	SummaryBatch int `yaml:"summary_batch"`
	Recent       int `yaml:"recent_turns"`
	Thoughts     int `yaml:"thoughts"`

	Providers     map[string]ProviderConfig `yaml:"providers"`
	Personalities map[string]ModelConfig    `yaml:"personalities"` // shark, professor, hustler, turtle, and persona for llm:FILE
	Summarizer    ModelConfig               `yaml:"summarizer"`
	Prices        map[string]Price          `yaml:"prices"` // by model name
	Budgets       Budgets                   `yaml:"budgets"`

	// Logger hears every fallback, at warning level (nil: none).
	Logger *slog.Logger `yaml:"-"`

	transport http.RoundTripper // the transport under the SDKs (nil: http.DefaultTransport)
	mu        sync.Mutex
	clients   map[string]Provider // by provider name, made on first use
}

// ProviderConfig is one endpoint.
type ProviderConfig struct {
	// Kind is the API it speaks: openai (any OpenAI-compatible server:
	// Ollama, vLLM, llama.cpp, LM Studio, OpenRouter), gemini or
	// anthropic.
	Kind    string `yaml:"kind"`
	BaseURL string `yaml:"base_url"` // "" for the provider's own
	// KeyEnv names the environment variables that may hold the key, the
	// first set wins; none for a local server that takes no key.
	KeyEnv []string `yaml:"key_env"`
	// Concurrency is how many calls may be in flight to this provider at
	// once, per process (tournaments and experiments play many games at
	// once).
	Concurrency int `yaml:"concurrency"`
	// Mode, for openai: "tools" (forced function calling, the default)
	// or "json_schema" (a JSON-schema response format).
	Mode string `yaml:"mode"`
}

// ModelConfig is one player's model.
type ModelConfig struct {
	Provider    string   `yaml:"provider"` // a key of Providers
	Model       string   `yaml:"model"`
	Temperature *float64 `yaml:"temperature"`
	MaxTokens   int      `yaml:"max_tokens"` // the completion's limit
}

// Price is what a model costs, in dollars per million tokens.
type Price struct {
	Input  float64 `yaml:"input"`
	Cached float64 `yaml:"cached"` // cached prompt tokens; 0: as input
	Output float64 `yaml:"output"` // completion tokens, reasoning included
}

// Budgets are the token budgets of the prompt's sections (001 §5),
// tokens estimated at four characters each.
type Budgets struct {
	Personality    int `yaml:"personality"`
	Rules          int `yaml:"rules"`
	Context        int `yaml:"context"`
	PublicHistory  int `yaml:"public_history"`
	PrivateHistory int `yaml:"private_history"`
	Decision       int `yaml:"decision"`
}

// Duration is a time.Duration written as "30s" in YAML.
type Duration time.Duration

// D returns the duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// UnmarshalYAML reads "30s", "200ms".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("a duration such as 30s or 200ms, not %q", n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as "30s".
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

//go:embed defaults.yaml
var defaultsYAML []byte

// DefaultConfig returns the configuration without a file: 001's table
// with current model names, keys from the usual variables.
func DefaultConfig() *Config {
	c := &Config{}
	if err := strictyaml.Decode("defaults.yaml", defaultsYAML, c, nil); err != nil {
		panic(err) // the embedded file is tested
	}
	return c
}

// DefaultsYAML returns the default configuration as YAML, a starting
// point for a file of one's own.
func DefaultsYAML() []byte { return slices.Clone(defaultsYAML) }

// LoadConfig reads a YAML file over the defaults: the keys it gives
// replace the defaults' (a provider, personality or price as a whole).
// Errors name the file, the line and the key.
func LoadConfig(path string) (*Config, error) {
	data, err := strictyaml.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig is LoadConfig for data read from file.
func ParseConfig(file string, data []byte) (*Config, error) {
	// The file is read over the defaults, so what it does not give stays,
	// field by field (a partial budgets: keeps the other budgets). A map's
	// entry is replaced whole; its other entries stay.
	c := DefaultConfig()
	providers, personalities, prices := maps.Clone(c.Providers), maps.Clone(c.Personalities), maps.Clone(c.Prices)
	if err := strictyaml.Decode(file, data, c, nil); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	c.Providers = mergeMissing(c.Providers, providers)
	c.Personalities = mergeMissing(c.Personalities, personalities)
	c.Prices = mergeMissing(c.Prices, prices)
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("llm: %s: %w", file, err)
	}
	return c, nil
}

// Check reports the first inconsistency: a player naming an unknown
// provider, a provider of unknown kind, values out of range.
func (c *Config) Check() error {
	switch {
	case c.Timeout <= 0:
		return fmt.Errorf("timeout must be positive")
	case c.Retries < 0 || c.Retries > 10:
		return fmt.Errorf("retries: %d, want 0 to 10", c.Retries)
	case c.MaxRetryDelay <= 0:
		return fmt.Errorf("max_retry_delay must be positive")
	case c.MaxCost < 0:
		return fmt.Errorf("max_cost: %g, want 0 (no limit) or more", c.MaxCost)
	case c.SummaryBatch < 1 || c.Recent < 1 || c.Thoughts < 0:
		return fmt.Errorf("summary_batch and recent_turns must be at least 1, thoughts at least 0")
	}
	for _, name := range slices.Sorted(maps.Keys(c.Providers)) {
		p := c.Providers[name]
		if !slices.Contains([]string{"openai", "gemini", "anthropic"}, p.Kind) {
			return fmt.Errorf("providers.%s.kind: %q, want openai, gemini or anthropic", name, p.Kind)
		}
		if p.Mode != "" && (p.Kind != "openai" || p.Mode != "tools" && p.Mode != "json_schema") {
			return fmt.Errorf("providers.%s.mode: %q: openai providers take tools or json_schema", name, p.Mode)
		}
	}
	check := func(what string, m ModelConfig) error {
		if _, ok := c.Providers[m.Provider]; !ok {
			return fmt.Errorf("%s.provider: unknown provider %q (known: %s)", what, m.Provider, strings.Join(slices.Sorted(maps.Keys(c.Providers)), ", "))
		}
		if m.Model == "" {
			return fmt.Errorf("%s.model: none given", what)
		}
		if m.Temperature != nil && (*m.Temperature < 0 || *m.Temperature > 2) {
			return fmt.Errorf("%s.temperature: %g, want 0 to 2", what, *m.Temperature)
		}
		if m.MaxTokens < 16 {
			return fmt.Errorf("%s.max_tokens: %d, want at least 16", what, m.MaxTokens)
		}
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(c.Personalities)) {
		if err := check("personalities."+name, c.Personalities[name]); err != nil {
			return err
		}
	}
	return check("summarizer", c.Summarizer)
}

// key returns a provider's API key and the variable it came from; ok is
// false when the provider needs a key and no variable holds one.
func (c *Config) key(p ProviderConfig) (key, from string, ok bool) {
	for _, v := range p.KeyEnv {
		if k := os.Getenv(v); k != "" {
			return k, v, true
		}
	}
	return "", "", len(p.KeyEnv) == 0
}

// Ready reports whether the player of a personality can be called: its
// provider's key is set. The error names the variable to set.
func (c *Config) Ready(personality string) error {
	m, ok := c.Personalities[personality]
	if !ok {
		return fmt.Errorf("llm: no model configured for %q", personality)
	}
	p := c.Providers[m.Provider]
	if _, _, ok := c.key(p); !ok {
		return fmt.Errorf("llm: %s plays on %s (%s), which needs an API key: set %s", personality, m.Provider, m.Model, strings.Join(p.KeyEnv, " or "))
	}
	return nil
}

// mergeMissing adds to dst the entries of def it lacks (making dst when
// the file set it to null).
func mergeMissing[M ~map[string]V, V any](dst, def M) M {
	if dst == nil {
		dst = M{}
	}
	for k, v := range def {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
	return dst
}
