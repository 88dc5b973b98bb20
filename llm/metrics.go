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
	Latencies []float64      `json:"-"` // per call, milliseconds
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
	Usage         Usage   `json:"tokens"`
	Cost          float64 `json:"cost"`
	Wins          float64 `json:"wins"`
	CostPerWin    float64 `json:"cost_per_win"` // 0 without a win
	Consistency   `json:"consistency"`
	FallbackKinds map[string]int `json:"fallback_reasons,omitempty"`
}

// Consistency counts the answers whose words and action disagree, by
// measure, over the answers each measure applies to (the model's own
// answers, not the fallback's). The measures are lexical, so they are
// indications to read the log by, not verdicts:
//
//   - PitchVsThought: a trade proposal whose speech calls it fair or
//     good for the partner while the thought calls it a steal (lowball,
//     rip-off, "in my favour", "they won't notice").
//   - BidBluff: a bid the thought calls a bluff, or a bid made only to
//     drive the price up.
//   - SpeechVsAction: speech that refuses (no, pass, decline, reject)
//     with an action that accepts or buys, or speech that accepts with an
//     action that refuses.
//   - ThoughtVsAction: the same between the thought and the action.
type Consistency struct {
	Proposals       int `json:"proposals"`
	PitchVsThought  int `json:"pitch_vs_thought"`
	Bids            int `json:"bids"`
	BidBluff        int `json:"bid_bluff"`
	Choices         int `json:"choices"` // buy, trade_response: answers that accept or refuse
	SpeechVsAction  int `json:"speech_vs_action"`
	ThoughtVsAction int `json:"thought_vs_action"`
}

var (
	fairWords   = []string{"fair", "win-win", "good for you", "great deal for you", "generous", "you're getting", "steal for you", "you win", "mutually"}
	stealWords  = []string{"steal", "lowball", "rip", "fleece", "in my favour", "in my favor", "won't notice", "wont notice", "doesn't realize", "they'll think", "he'll think", "she'll think", "overpay", "sucker", "exploit"}
	bluffWords  = []string{"bluff", "drive up", "drive the price", "push the price", "don't want it", "dont want it", "make them pay"}
	refuseWords = []string{"no.", "no,", "no!", "pass", "decline", "reject", "not interested", "too expensive", "i'll skip", "not buying"}
	acceptWords = []string{"deal!", "deal.", "accept", "i'll buy", "i'll take", "mine", "buying", "yes"}
)

func hasAny(s string, words []string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
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
		consistency(&c, a)
	}
	return st.metrics(c, wins)
}

func consistency(c *Consistency, a Answered) {
	accepts := a.Action == "buy" || a.Action == "accept_trade"
	refuses := a.Action == "decline" || a.Action == "reject_trade"
	switch {
	case a.Action == "propose_trade" || a.Action == "counter_trade":
		c.Proposals++
		if hasAny(a.Speech, fairWords) && hasAny(a.Thought, stealWords) {
			c.PitchVsThought++
		}
	case a.Action == "bid":
		c.Bids++
		if hasAny(a.Thought, bluffWords) {
			c.BidBluff++
		}
	case accepts || refuses:
		c.Choices++
		if accepts && hasAny(a.Speech, refuseWords) && !hasAny(a.Speech, acceptWords) || refuses && hasAny(a.Speech, acceptWords) && !hasAny(a.Speech, refuseWords) {
			c.SpeechVsAction++
		}
		if accepts && hasAny(a.Thought, refuseWords) && !hasAny(a.Thought, acceptWords) || refuses && hasAny(a.Thought, acceptWords) && !hasAny(a.Thought, refuseWords) {
			c.ThoughtVsAction++
		}
	}
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
	}
	if wins > 0 {
		m.CostPerWin = s.Cost / wins
	}
	return m
}
