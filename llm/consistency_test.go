package llm_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/llm"
	"github.com/gopoly/gopoly/llm/llmtest"
	"github.com/gopoly/gopoly/monopoly"
)

// planted is one of the model's answers with the facts of its record.
func planted(action, speech, thought string, f *llm.Facts) llm.Answered {
	rec, _ := json.Marshal(llm.Record{Facts: f})
	return llm.Answered{Action: action, Speech: speech, Thought: thought, Record: rec}
}

// TestConsistencyPlanted plants answers that each measure must count or
// must not: values against words, negations, near-miss words.
func TestConsistencyPlanted(t *testing.T) {
	bid := func(amount int, worth float64) *llm.Facts { return &llm.Facts{Bid: amount, Worth: worth} }
	fair := &llm.Facts{Proposal: true, GainPartner: 20, FairPartner: true}
	lopsided := &llm.Facts{Proposal: true, GainMe: 400, GainPartner: -400}
	cases := []struct {
		name    string
		a       llm.Answered
		measure string // the measure that must count it (and no other disagreement)
	}{
		{"a $900 bid on a $60 street", planted("bid", "Mine.", "I want it.", bid(900, 60)), "bid_over_worth"},
		{"a bid within worth", planted("bid", "Mine.", "Worth it.", bid(80, 60)), ""},
		{"a bid over the thought's limit", planted("bid", "", "I will go up to $200 for this.", bid(250, 400)), "bid_over_limit"},
		{"a bid under the thought's limit", planted("bid", "", "My limit is 300.", bid(250, 400)), ""},
		{"a bluff", planted("bid", "", "I'm bluffing to drive up the price.", bid(50, 400)), "bid_bluff"},
		{"no bluff here", planted("bid", "", "No bluff here, I want it.", bid(50, 400)), ""},
		{"a fair pitch of a lopsided deal", planted("propose_trade", "A fair deal for both of us!", "", lopsided), "pitch_misleading"},
		{"a good-for-you pitch of a lopsided deal", planted("propose_trade", "This is good for you.", "", lopsided), "pitch_misleading"},
		{"a fair pitch of a fair deal", planted("propose_trade", "Fair and square.", "", fair), ""},
		{"unfair is not fair", planted("propose_trade", "I know it looks unfair.", "", lopsided), ""},
		{"not fair is no claim", planted("propose_trade", "Not fair, I know, but take it.", "", lopsided), ""},
		{"speech refuses, action buys", planted("buy", "No, too expensive.", "", nil), "speech_vs_action"},
		{"a negated pass accepts", planted("buy", "I won't pass on this one.", "", nil), ""},
		{"trip is not rip, nor a refusal", planted("buy", "What a trip!", "", nil), ""},
		{"speech buys, action declines", planted("decline", "I'll buy it.", "", nil), "speech_vs_action"},
		{"a negated buy refuses", planted("decline", "I will not buy that.", "", nil), ""},
		{"thought accepts, action rejects", planted("reject_trade", "", "Great, I accept this deal.", nil), "thought_vs_action"},
	}
	count := func(c llm.Consistency) map[string]int {
		return map[string]int{"bid_over_worth": c.BidOverWorth, "bid_over_limit": c.BidOverLimit, "bid_bluff": c.BidBluff,
			"pitch_misleading": c.PitchMisleading, "speech_vs_action": c.SpeechVsAction, "thought_vs_action": c.ThoughtVsAction}
	}
	// judged is what an example must quote of the value that judged it.
	judged := map[string]string{
		"a $900 bid on a $60 street":              "bid ($900, the street worth $60 to the bidder)",
		"a bid over the thought's limit":          "bid ($250 over the stated limit $200)",
		"a bluff":                                 "bid ($50, the thought calls it a bluff)",
		"a fair pitch of a lopsided deal":         "worth -400 to the partner, +400 to the proposer",
		"speech refuses, action buys":             "buy (the speech refuses)",
		"speech buys, action declines":            "decline (the speech accepts)",
		"thought accepts, action rejects":         "reject_trade (the thought accepts)",
		"a good-for-you pitch of a lopsided deal": `said "This is good for you."`,
	}
	for _, tc := range cases {
		c := llm.Measure([]llm.Answered{tc.a}, 0).Consistency
		if want, ok := judged[tc.name]; ok {
			if ex := c.Examples[tc.measure]; len(ex) != 1 || !strings.Contains(ex[0], want) {
				t.Errorf("%s: examples %q, want one with %q", tc.name, ex, want)
			}
		}
		got := count(c)
		for m, n := range got {
			want := 0
			if m == tc.measure {
				want = 1
			}
			if n != want {
				t.Errorf("%s: %s = %d, want %d", tc.name, m, n, want)
			}
		}
	}
	// The denominators.
	var all []llm.Answered
	for _, tc := range cases {
		all = append(all, tc.a)
	}
	c := llm.Measure(all, 0).Consistency
	if c.Bids != 6 || c.LimitsStated != 2 || c.Proposals != 5 || c.PitchClaims != 3 || c.Choices != 6 {
		t.Errorf("bids %d, limits %d, proposals %d, claims %d, choices %d; want 6, 2, 5, 3, 6", c.Bids, c.LimitsStated, c.Proposals, c.PitchClaims, c.Choices)
	}
	if len(c.Examples["pitch_misleading"]) != 2 {
		t.Errorf("examples: %v", c.Examples)
	}
}

// TestFactsRecorded: in a game against the fake, every bid the model
// makes carries its facts in its research record: the amount bid and
// the street's worth to the bidder, at least its price.
func TestFactsRecorded(t *testing.T) {
	// The seats decline to buy, so that streets go to auction.
	srv := llmtest.New(func(c llmtest.Call) llmtest.Reply {
		for _, a := range llmtest.Legal(c.User()) {
			if strings.Contains(a, `"decline"`) {
				return llmtest.Reply{Answer: llmtest.Answer(a, "Not for me.", "Let it go to auction.")}
			}
		}
		return llmtest.Player(c)
	})
	defer srv.Close()
	cfg, _ := fakeConfig(t, srv, "")
	llm.Use(cfg)
	defer llm.Use(llm.DefaultConfig())
	bids := 0
	playLLMGame(t, 5, "max_rounds: 6", func(ans agent.Answer) {
		var rec llm.Record
		if err := json.Unmarshal(ans.Research, &rec); err != nil || rec.Fallback != "" || ans.Action.Kind != monopoly.ActBid {
			return
		}
		bids++
		if f := rec.Facts; f == nil || f.Bid != ans.Action.Arg || f.Worth < 1 {
			t.Errorf("a bid of %d recorded facts %+v", ans.Action.Arg, f)
		}
	})
	if bids == 0 {
		t.Fatal("no bid in the game: the test tests nothing")
	}
	t.Logf("%d bids", bids)
}
