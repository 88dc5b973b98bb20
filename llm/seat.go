// Package llm is the LLM players of 001: the four personalities (and a
// persona of the user's) backed by language models through the official
// OpenAI, Gemini and Anthropic SDKs, each decision a prompt of six
// sections, answered as structured JSON with public speech and a private
// thought, checked by the engine, corrected once, and otherwise answered
// by the seat's rule-based personality, so that a game always finishes.
//
// Seats are bots of the agent registry by the names "llm:shark",
// "llm:professor", "llm:hustler", "llm:turtle" and "llm:FILE" (a persona
// text), usable wherever a bot can sit. Every answer carries a research
// record (its prompts, raw responses, tokens, cost, latency, fallback),
// stored with sessions; a replayed game is told its answers and calls no
// model.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/wire"
)

// Record is the research record of one answer: every call made for it,
// the summaries made, and the fallback if the model did not answer.
type Record struct {
	Persona   string       `json:"persona"`
	Decision  string       `json:"decision"`
	Turn      int          `json:"turn"`
	Calls     []CallRecord `json:"calls"`
	Invalid   int          `json:"invalid,omitempty"`  // answers that did not parse or that the engine refused
	Fallback  string       `json:"fallback,omitempty"` // why the rule-based personality answered
	Summaries []Summary    `json:"summaries,omitempty"`
	Facts     *Facts       `json:"facts,omitempty"` // the game's values of the model's answer, for Consistency
	Spent     float64      `json:"spent"`           // the seat's spending in this game after this answer, dollars
}

// CallRecord is one call to a model.
type CallRecord struct {
	Purpose  string    `json:"purpose"` // decision, correction or summary
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model"`
	System   string    `json:"system,omitempty"`
	Messages []Message `json:"messages,omitempty"`
	Raw      string    `json:"raw,omitempty"`    // the provider's response body
	Answer   string    `json:"answer,omitempty"` // the answer's text
	Error    string    `json:"error,omitempty"`  // the call failed
	Refusal  string    `json:"refusal,omitempty"`
	Usage    Usage     `json:"usage"`
	Cost     float64   `json:"cost"`
	Latency  float64   `json:"latency_ms"`          // the model's: the time in attempts, waits excluded
	Queued   float64   `json:"queued_ms,omitempty"` // waiting for the provider's gate (spacing, concurrency)
	Waited   float64   `json:"waited_ms,omitempty"` // waiting between attempts (Retry-After, backoff)
	Attempts int       `json:"attempts,omitempty"`
	Cached   bool      `json:"cached,omitempty"` // a summary taken from the process's cache, no call made
}

// Seat is one LLM player. It is an agent.Talker (it answers with
// speech and thought), an agent.Follower (it follows the table talk), an
// agent.Seated (it names the players as the table does) and an
// agent.Replayer (a replay tells it its answers). Its fallback, the
// rule-based personality, is asked at every decision, so that the
// fallback's own state never depends on when the model failed.
type Seat struct {
	cfg      *Config
	persona  Persona
	model    ModelConfig
	fallback agent.Agent
	seat     int
	table    Table
	mem      memory
	stats    Stats
	answered []Answered // the seat's answers in its game, for Measures
	ctx      context.Context
}

// NewSeat makes the LLM player of persona for a seat, with fallback as
// its rule-based stand-in.
func NewSeat(cfg *Config, p Persona, fallback agent.Agent, seat int) *Seat {
	return &Seat{cfg: cfg, persona: p, model: cfg.Personalities[p.Key], fallback: fallback, seat: seat, ctx: context.Background()}
}

// Persona returns who the seat plays.
func (s *Seat) Persona() Persona { return s.persona }

// Stats returns what the seat's model calls have cost and how they went.
func (s *Seat) Stats() Stats { return s.stats.clone() }

// Seat implements agent.Seated.
func (s *Seat) Seat(names, players []string) {
	s.table = Table{Names: names, Players: players}
}

// Follow implements agent.Follower: the seat keeps the table's talk and
// trades for its prompts.
func (s *Seat) Follow(_ *monopoly.Rules, evs []monopoly.Event) { s.mem.hear(evs) }

// Decide implements agent.Agent: the model's action (or the fallback's).
func (s *Seat) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	return s.Answer(v, d).Action
}

// Answer implements agent.Talker: asks the model, corrects it once, and
// falls back to the rule-based personality.
func (s *Seat) Answer(v monopoly.View, d monopoly.Decision) agent.Answer {
	ans, _ := s.Ask(s.ctx, v, d)
	return ans
}

// Ask implements agent.Asker. It never fails: whatever goes wrong, the
// fallback answers; the error is ctx's, when it ended.
func (s *Seat) Ask(ctx context.Context, v monopoly.View, d monopoly.Decision) (agent.Answer, error) {
	fb := agent.Respond(s.fallback, v, d, true)
	s.mem.read(v.Rules(), s.seat, v.Turn(), s.tableFor(v))
	rec := Record{Persona: s.persona.Key, Decision: d.Kind.String(), Turn: s.mem.turn}
	start := time.Now()
	ans, reason := s.ask(ctx, v, d, &rec)
	if reason == "" {
		rec.Facts = factsOf(v, d, ans.Action)
	}
	if reason != "" {
		rec.Fallback = reason
		if l := s.cfg.Logger; l != nil {
			l.Warn("llm: fallback", "seat", s.seat, "persona", s.persona.Key, "decision", rec.Decision, "turn", rec.Turn, "reason", reason)
		}
		ans = agent.Answer{Action: fb.Action, Speech: s.persona.Name + " is thinking…",
			Thought: strings.TrimSpace("[fallback: " + reason + "] " + fb.Thought)}
	}
	s.stats.decision(rec, time.Since(start))
	rec.Spent = s.stats.Cost
	ans.Research = mustJSON(rec)
	s.mem.remember(ans.Thought, s.cfg.Thoughts)
	s.answered = append(s.answered, Answered{Action: ans.Action.Kind.String(), Speech: ans.Speech, Thought: ans.Thought, Record: ans.Research})
	return ans, ctx.Err()
}

// Measures implements agent.Measurer: the seat's calls, fallbacks,
// tokens, cost and latency in its game, and the consistency of its
// words and actions (counts of answers, by measure), for tournament and
// experiment results.
func (s *Seat) Measures() map[string]float64 {
	m := Measure(s.answered, 0)
	c := m.Consistency
	return map[string]float64{
		"decisions": float64(m.Decisions), "calls": float64(m.Calls), "invalid_rate": m.InvalidRate,
		"fallback_rate": m.FallbackRate, "latency_p50_ms": m.LatencyP50, "latency_p95_ms": m.LatencyP95,
		"queued_p50_ms": m.QueuedP50, "queued_p95_ms": m.QueuedP95,
		"tokens_prompt": float64(m.Usage.Prompt), "tokens_completion": float64(m.Usage.Completion),
		"tokens_cached": float64(m.Usage.Cached), "tokens_reasoning": float64(m.Usage.Reasoning), "cost": m.Cost,
		"bids": float64(c.Bids), "limits_stated": float64(c.LimitsStated), "bid_over_limit": float64(c.BidOverLimit),
		"bid_over_worth": float64(c.BidOverWorth), "bid_bluff": float64(c.BidBluff),
		"proposals": float64(c.Proposals), "pitch_claims": float64(c.PitchClaims), "pitch_misleading": float64(c.PitchMisleading),
		"choices":          float64(c.Choices),
		"speech_vs_action": float64(c.SpeechVsAction), "thought_vs_action": float64(c.ThoughtVsAction),
	}
}

// Examples are the seat's answers in its game whose words disagree with
// the game's values, quoted with the value that judged them, by
// consistency measure (a few each), for experiment results.
func (s *Seat) Examples() map[string][]string {
	return Measure(s.answered, 0).Consistency.Examples
}

// Replay implements agent.Replayer: the answer given then is taken in
// as if just given, its summaries and spending restored, no model asked.
func (s *Seat) Replay(v monopoly.View, d monopoly.Decision, ans agent.Answer) {
	agent.Respond(s.fallback, v, d, true) // the fallback's state moves on as in play
	s.mem.read(v.Rules(), s.seat, v.Turn(), s.tableFor(v))
	var rec Record
	if len(ans.Research) > 0 && json.Unmarshal(ans.Research, &rec) == nil {
		for _, sum := range rec.Summaries {
			s.mem.summarised(sum)
		}
		s.stats.decision(rec, 0)
		s.stats.Cost = max(s.stats.Cost, rec.Spent)
	}
	s.mem.remember(ans.Thought, s.cfg.Thoughts)
}

// tableFor fills in the table's names when the host gave none.
func (s *Seat) tableFor(v monopoly.View) Table {
	if len(s.table.Names) < v.Players() {
		names := make([]string, v.Players())
		for i := range names {
			names[i] = defaultNames[i%len(defaultNames)]
		}
		s.table.Names = names
	}
	return s.table
}

// defaultNames are the table's names when the host says none: those of
// sessions and play.
var defaultNames = []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}

// ask gets the model's answer, or the reason the fallback must answer.
func (s *Seat) ask(ctx context.Context, v monopoly.View, d monopoly.Decision, rec *Record) (agent.Answer, string) {
	if max := s.cfg.MaxCost; max > 0 && s.stats.Cost >= max {
		return agent.Answer{}, fmt.Sprintf("max cost $%.2f reached", max)
	}
	if err := s.cfg.Ready(s.persona.Key); err != nil {
		return agent.Answer{}, strings.TrimPrefix(err.Error(), "llm: ")
	}
	t := s.tableFor(v)
	// Older turns are summarised before the prompt is made.
	for {
		from, to, ok := s.mem.due(s.cfg.SummaryBatch, s.cfg.Recent)
		if !ok {
			break
		}
		sum := s.summarise(ctx, from, to, rec)
		s.mem.summarised(sum)
		rec.Summaries = append(rec.Summaries, sum)
	}
	b := s.cfg.Budgets
	p := Prompt{
		Personality: fit(personalitySection(s.persona, s.seat, t, v.Players()), b.Personality, false),
		Rules:       fit(rulesSection(v.Rules(), v.Players()), b.Rules, false),
		Context:     fit(contextSection(v, t), b.Context, false),
		Public:      s.mem.publicSection(s.cfg.Recent, b.PublicHistory),
		Private:     fit(s.mem.privateSection(), b.PrivateHistory, true),
		Decision:    fit(decisionSection(v, t, s.pitch(v, d)), b.Decision, false),
	}
	req := Request{
		Model:       s.model.Model,
		System:      p.System(),
		Messages:    []Message{{Role: "user", Text: p.User()}},
		Schema:      answerSchema(d.Kind),
		Tool:        "make_decision",
		Temperature: s.model.Temperature,
		MaxTokens:   s.model.MaxTokens,
	}
	for attempt := 0; ; attempt++ {
		purpose := "decision"
		if attempt > 0 {
			purpose = "correction"
		}
		call := s.call(ctx, purpose, s.model, req, rec)
		if call.Error != "" {
			return agent.Answer{}, "model call failed: " + call.Error
		}
		ans, refusal := s.read(v, call.Answer)
		if refusal == nil {
			return ans, ""
		}
		rec.Invalid++
		if attempt == 1 {
			return agent.Answer{}, "answer refused twice: " + refusal.Code + ": " + refusal.Message
		}
		// One corrective retry (MonopolyBench's): the refusal and the
		// legal options, quoted.
		req.Messages = append(req.Messages,
			Message{Role: "assistant", Text: call.Answer},
			Message{Role: "user", Text: correction(*refusal)})
	}
}

// pitch is the speech that went with the offer a trade_response answers.
func (s *Seat) pitch(v monopoly.View, d monopoly.Decision) string {
	if d.Kind != monopoly.DecisionTradeResponse {
		return ""
	}
	if p := v.Counterparty(); p >= 0 && p < len(s.mem.lastSaid) {
		return s.mem.lastSaid[p]
	}
	return ""
}

// correction is the corrective retry's message.
func correction(r wire.Refusal) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your answer was refused (%s): %s\n", r.Code, r.Message)
	if r.Options != nil {
		b.WriteString(LegalHeader + " (one per line, as action JSON):\n")
		for _, a := range r.Options.Actions {
			fmt.Fprintf(&b, "- %s\n", a)
		}
		if r.Options.Bid != nil {
			fmt.Fprintf(&b, "A bid may name $%d to $%d.\n", r.Options.Bid.Min, r.Options.Bid.Max)
		}
		if r.Options.Accept != nil {
			fmt.Fprintf(&b, "An accept_trade limit may be %d to %d (%s).\n", r.Options.Accept.Min, r.Options.Accept.Max, r.Options.Accept.Meaning)
		}
	}
	b.WriteString("Answer again with one JSON object: \"action\", \"public_speech\" and \"private_thought\".")
	return b.String()
}

// read decodes and checks a model's answer: nil refusal means the engine
// takes it.
func (s *Seat) read(v monopoly.View, text string) (agent.Answer, *wire.Refusal) {
	a, speech, thought, err := decodeAnswer(v.Rules(), v.Me(), text)
	if err == nil {
		err = v.Check(a)
	}
	if err != nil {
		r := wire.NewRefusal(err, v)
		return agent.Answer{}, &r
	}
	return agent.Answer{Action: a, Speech: speech, Thought: thought}, nil
}

// decodeAnswer reads the answer object. The words are taken under 001's
// names or the wire's; the action is the wire's to read.
func decodeAnswer(r *monopoly.Rules, seat int, text string) (monopoly.Action, string, string, error) {
	var env struct {
		Action         json.RawMessage `json:"action"`
		PublicSpeech   *string         `json:"public_speech"`
		PrivateThought *string         `json:"private_thought"`
		Speech         string          `json:"speech"`
		Thought        string          `json:"thought"`
	}
	if err := json.Unmarshal([]byte(stripFences(text)), &env); err != nil {
		return monopoly.Action{}, "", "", &wire.DecodeError{Input: "answer", Msg: "not a JSON object: " + err.Error()}
	}
	if len(env.Action) == 0 {
		return monopoly.Action{}, "", "", &wire.DecodeError{Input: "answer", Field: "action", Msg: "missing"}
	}
	a, err := wire.DecodeAction(r, seat, env.Action)
	if err != nil {
		return monopoly.Action{}, "", "", err
	}
	speech, thought := env.Speech, env.Thought
	if env.PublicSpeech != nil {
		speech = *env.PublicSpeech
	}
	if env.PrivateThought != nil {
		thought = *env.PrivateThought
	}
	return a, strings.TrimSpace(speech), strings.TrimSpace(thought), nil
}

// stripFences removes a Markdown code fence a model may wrap JSON in.
func stripFences(s string) string {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[i+1:]
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "```"))
	}
	return s
}

// call makes one call and records it.
func (s *Seat) call(ctx context.Context, purpose string, m ModelConfig, req Request, rec *Record) CallRecord {
	cr := CallRecord{Purpose: purpose, Provider: m.Provider, Model: m.Model, System: req.System, Messages: req.Messages}
	defer func() { rec.Calls = append(rec.Calls, cr) }()
	prov, err := s.cfg.provider(m.Provider)
	if err != nil {
		cr.Error = err.Error()
		return cr
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.deadline())
	defer cancel()
	res, err := prov.Complete(ctx, req)
	cr.Latency, cr.Queued, cr.Waited, cr.Attempts = ms(res.Latency), ms(res.Queued), ms(res.Waited), res.Attempts
	cr.Raw, cr.Answer, cr.Usage = res.Raw, res.Text, res.Usage
	cr.Cost, _ = s.cfg.Cost(m.Model, res.Usage)
	s.stats.call(cr)
	if err != nil {
		cr.Error = err.Error()
		if errors.Is(err, ErrRefused) {
			cr.Refusal = err.Error()
		}
	}
	return cr
}

// deadline bounds one call with all its retries, so that a game always
// finishes.
func (c *Config) deadline() time.Duration {
	return time.Duration(c.Retries+1) * (c.Timeout.D() + c.MaxRetryDelay.D())
}

// provider returns the process's client for a provider of c, made on
// first use.
func (c *Config) provider(name string) (Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.clients[name]; ok {
		return p, nil
	}
	pc, ok := c.Providers[name]
	if !ok {
		return nil, fmt.Errorf("llm: unknown provider %q", name)
	}
	key, _, ok := c.key(pc)
	if !ok {
		return nil, fmt.Errorf("llm: provider %s needs an API key: set %s", name, strings.Join(pc.KeyEnv, " or "))
	}
	var p Provider
	var err error
	switch pc.Kind {
	case "openai":
		p = newOpenAI(c, pc, key)
	case "anthropic":
		p = newAnthropic(c, pc, key)
	case "gemini":
		p, err = newGemini(c, pc, key)
	default:
		err = fmt.Errorf("llm: provider %s: unknown kind %q", name, pc.Kind)
	}
	if err != nil {
		return nil, err
	}
	p = &policy{prov: p, gate: gateFor(name+" "+pc.BaseURL, c.Spacing.D(), pc.Concurrency),
		timeout: c.Timeout.D(), retries: c.Retries, maxDelay: c.MaxRetryDelay.D(), rateWait: c.RateLimitWait.D()}
	if c.clients == nil {
		c.clients = map[string]Provider{}
	}
	c.clients[name] = p
	return p, nil
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // records are strings and numbers
	}
	return data
}
