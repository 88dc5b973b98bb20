package llm

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/gopoly/gopoly/stats"
)

// Stats is what one seat's calls came to: counts, tokens, cost and
// latencies. Seats keep it as they play; Metrics sums it up.
type Stats struct {
	Decisions int            `json:"decisions"`
	Calls     int            `json:"calls"`     // calls made (summaries from the cache not counted)
	Failed    int            `json:"failed"`    // calls that failed (after the SDK's retries)
	Invalid   int            `json:"invalid"`   // answers that did not parse or that the engine refused
	Fallbacks int            `json:"fallbacks"` // decisions the rule-based personality answered
	Reasons   map[string]int `json:"reasons,omitempty"`
	Usage     Usage          `json:"usage"`
	Cost      float64        `json:"cost"`
	Latencies []float64      `json:"-"` // per call, the model's time (in attempts), milliseconds
	Queued    []float64      `json:"-"` // per call, the time waiting for the provider's gate, milliseconds
	Decisive  []float64      `json:"-"` // per decision, the overhead excluded: wall time, milliseconds
}

func (s *Stats) call(c CallRecord) {
	s.Calls++
	if c.Error != "" {
		s.Failed++
	}
	s.Usage.Add(c.Usage)
	s.Cost += c.Cost
	s.Latencies = append(s.Latencies, c.Latency)
	s.Queued = append(s.Queued, c.Queued)
}

// decision counts one decision's record. Replays pass no time: the
// calls were counted where they were made, and are counted again here
// from the record.
func (s *Stats) decision(r Record, took time.Duration) {
	s.Decisions++
	s.Invalid += r.Invalid
	if r.Fallback != "" {
		s.Fallbacks++
		if s.Reasons == nil {
			s.Reasons = map[string]int{}
		}
		s.Reasons[reasonKind(r.Fallback)]++
	}
	if took == 0 {
		for _, c := range r.Calls {
			if !c.Cached {
				s.call(c)
			}
		}
		return
	}
	s.Decisive = append(s.Decisive, float64(took.Microseconds())/1000)
}

// reasonKind is a fallback reason without its particulars, for counting.
func reasonKind(r string) string {
	k, _, _ := strings.Cut(r, ":")
	return k
}

func (s Stats) clone() Stats {
	s.Latencies = slices.Clone(s.Latencies)
	s.Queued = slices.Clone(s.Queued)
	s.Decisive = slices.Clone(s.Decisive)
	if s.Reasons != nil {
		m := make(map[string]int, len(s.Reasons))
		for k, v := range s.Reasons {
			m[k] = v
		}
		s.Reasons = m
	}
	return s
}

// Metrics are the measures of 001 beyond the game's anchors, for one
// agent over one game or many: reliability, latency, tokens, cost, and
// the consistency of thought, speech and action.
type Metrics struct {
	Decisions     int     `json:"decisions"`
	Calls         int     `json:"calls"`
	InvalidRate   float64 `json:"invalid_rate"`  // invalid answers per call
	FallbackRate  float64 `json:"fallback_rate"` // fallbacks per decision
	LatencyP50    float64 `json:"latency_p50_ms"`
	LatencyP95    float64 `json:"latency_p95_ms"`
	QueuedP50     float64 `json:"queued_p50_ms"` // the gate's wait (spacing, concurrency), apart from the latency
	QueuedP95     float64 `json:"queued_p95_ms"`
	Usage         Usage   `json:"tokens"`
	Cost          float64 `json:"cost"`
	Wins          float64 `json:"wins"`
	CostPerWin    float64 `json:"cost_per_win"` // 0 without a win
	Consistency   `json:"consistency"`
	FallbackKinds map[string]int `json:"fallback_reasons,omitempty"`
}

// Answered is one of an agent's answers as the log holds it.
type Answered struct {
	Action  string // the action kind, as the wire names it
	Speech  string
	Thought string
	Record  json.RawMessage // the research record (nil: not an LLM seat's)
}

// Measure computes an agent's metrics from its answers, as a log holds
// them, and its wins (shared wins as fractions).
func Measure(answers []Answered, wins float64) Metrics {
	var st Stats
	var c Consistency
	for _, a := range answers {
		var r Record
		if len(a.Record) == 0 || json.Unmarshal(a.Record, &r) != nil {
			continue
		}
		st.decision(r, 0)
		if r.Fallback != "" {
			continue
		}
		c.add(a, r.Facts)
	}
	return st.metrics(c, wins)
}

// Metrics sums the seat's stats up (consistency needs the answers:
// Measure).
func (s Stats) Metrics(wins float64) Metrics { return s.metrics(Consistency{}, wins) }

func (s Stats) metrics(c Consistency, wins float64) Metrics {
	m := Metrics{Decisions: s.Decisions, Calls: s.Calls, Usage: s.Usage, Cost: s.Cost, Wins: wins, Consistency: c, FallbackKinds: s.Reasons}
	if s.Calls > 0 {
		m.InvalidRate = float64(s.Invalid) / float64(s.Calls)
	}
	if s.Decisions > 0 {
		m.FallbackRate = float64(s.Fallbacks) / float64(s.Decisions)
	}
	if len(s.Latencies) > 0 {
		l := slices.Sorted(slices.Values(s.Latencies))
		m.LatencyP50, m.LatencyP95 = stats.Quantile(l, 0.5), stats.Quantile(l, 0.95)
		q := slices.Sorted(slices.Values(s.Queued))
		m.QueuedP50, m.QueuedP95 = stats.Quantile(q, 0.5), stats.Quantile(q, 0.95)
	}
	if wins > 0 {
		m.CostPerWin = s.Cost / wins
	}
	return m
}
