package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
	"github.com/gopoly/gopoly/wire"
)

// dialectTable is a session whose every seat waits, answered here by a
// bot of its own, so that every kind of decision comes to a waiting
// seat and its legal payloads can be read back.
func dialectTable(t *testing.T, rules string, seed uint64) (*session.Session, []agent.Agent) {
	t.Helper()
	st, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := session.NewManager(st, session.Options{})
	bots := []string{"hustler", "shark", "professor"}
	seats := make([]session.Seat, len(bots))
	answerers := make([]agent.Agent, len(bots))
	for i, b := range bots {
		seats[i] = session.Seat{Kind: session.SeatMCP}
		if answerers[i], err = agent.New(b, i, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := m.Create(context.Background(), session.Setup{Rules: rules, Seed: seed, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	return s, answerers
}

// askingOf asks p's seat, with p as its Pending.
func askingOf(p *session.Pending) asking {
	return asking{seat: p.Seat, names: names(p.View), pending: func() *session.Pending { return p }}
}

// same compares actions, offers by value.
func same(a, b monopoly.Action) bool {
	if (a.Offer == nil) != (b.Offer == nil) || a.Offer != nil && *a.Offer != *b.Offer {
		return false
	}
	a.Offer, b.Offer = nil, nil
	return a == b
}

// mcpTrade writes an offer as monopoly-mcp's trade payload.
func mcpTrade(r *monopoly.Rules, kind string, a monopoly.Action) map[string]any {
	raw, _ := wire.EncodeAction(r, a)
	var w struct {
		Offer struct {
			To   int `json:"to"`
			Give struct {
				Squares   []int    `json:"squares"`
				Cash      int64    `json:"cash"`
				JailCards []string `json:"jail_cards"`
			} `json:"give"`
			Get struct {
				Squares   []int    `json:"squares"`
				Cash      int64    `json:"cash"`
				JailCards []string `json:"jail_cards"`
			} `json:"get"`
		} `json:"offer"`
	}
	json.Unmarshal(raw, &w)
	m := map[string]any{"kind": kind,
		"buyerGives":  map[string]any{"cash": w.Offer.Give.Cash, "propertyLocations": w.Offer.Give.Squares, "jailCards": w.Offer.Give.JailCards},
		"sellerGives": map[string]any{"cash": w.Offer.Get.Cash, "propertyLocations": w.Offer.Get.Squares, "jailCards": w.Offer.Get.JailCards}}
	if kind == "proposeTrade" {
		m["to"] = w.Offer.To
	}
	return m
}

// TestPayloadsReadBack plays whole games in which every decision comes to
// a waiting seat, and checks at each that every legal answer, in each of
// its forms (gopoly JSON, monopoly-mcp payload as an object and as a
// JSON-encoded string, notation), reads back as the same action, and
// that the trades the bots propose read back from monopoly-mcp's trade
// payloads.
func TestPayloadsReadBack(t *testing.T) {
	kinds := map[string]int{}
	games := []struct {
		rules string
		seed  uint64
	}{
		{"max_rounds: 150\ncounter_offers: 5\n", 1},
		{"max_rounds: 150\ndeal_protocol: sealed\n", 2},
		{"max_rounds: 150\n", 3},
		{"max_rounds: 150\nspeed_die: true\n", 4},
	}
	for _, game := range games {
		s, answerers := dialectTable(t, game.rules, game.seed)
		r := s.Rules()
		tokens := s.Tokens().Seats
		ctx := context.Background()
		for step := 0; !s.Status().Over; step++ {
			if step > 20000 {
				t.Fatalf("rules %q: not over after %d answers", game.rules, step)
			}
			seat := s.Status().Waiting
			p, err := s.Pending(tokens[seat])
			if err != nil {
				t.Fatal(err)
			}
			for _, lp := range legalPayloads(&p) {
				want, err := wire.DecodeAction(r, seat, lp.Action)
				if err != nil {
					t.Fatalf("%s: %v", lp.Action, err)
				}
				forms := []json.RawMessage{lp.Action}
				if note, _ := json.Marshal(lp.Notation); lp.Notation != "" {
					forms = append(forms, note)
				}
				if string(lp.Payload) != "null" {
					var head struct{ Kind string }
					json.Unmarshal(lp.Payload, &head)
					kinds[head.Kind]++
					quoted, _ := json.Marshal(string(lp.Payload))
					forms = append(forms, lp.Payload, quoted)
				}
				for _, f := range forms {
					got, err := parseDecision(askingOf(&p), r, f)
					if err != nil {
						t.Fatalf("%s (decision %s, phase %s): %v", f, p.Decision.Kind, p.Decision.Phase, err)
					}
					if !same(got.action, want) {
						t.Fatalf("%s reads as %+v, want %+v", f, got.action, want)
					}
				}
			}
			g := s.Game()
			ans := agent.Respond(answerers[seat], g.View(seat), g.Pending(), false)
			if k := ans.Action.Kind; k == monopoly.ActProposeTrade || k == monopoly.ActCounterTrade {
				kind := map[monopoly.ActionKind]string{monopoly.ActProposeTrade: "proposeTrade", monopoly.ActCounterTrade: "counterTrade"}[k]
				raw, _ := json.Marshal(mcpTrade(r, kind, ans.Action))
				got, err := parseDecision(askingOf(&p), r, raw)
				want := ans.Action
				want.Offer.From = int8(seat)
				if got.action.Offer != nil {
					got.action.Offer.From = int8(seat)
				}
				if err != nil || !same(got.action, want) {
					t.Fatalf("%s: reads as %+v (%v), want %+v", raw, got.action, err, want)
				}
				kinds[kind]++
			}
			if _, err := s.Submit(ctx, tokens[seat], ans, session.At(p.Entries)); err != nil {
				t.Fatalf("%s's answer: %v", answerers[seat], err)
			}
		}
	}
	t.Logf("payload kinds read back: %v", kinds)
	for _, k := range []string{"rollDice", "yieldTurn", "purchaseProperty", "jailExit", "auctionBid", "mortgageProperty",
		"unmortgageProperty", "improveGroup", "unimproveGroup", "attemptTrade", "proposeTrade", "movementChoice"} {
		if kinds[k] == 0 {
			t.Errorf("no legal %s came up: the games do not cover it", k)
		}
	}
}

// pendingAt plays a table's bots' answers until pred holds for the
// waiting seat's pending decision.
func pendingAt(t *testing.T, pred func(session.Pending) bool) (*session.Session, session.Pending) {
	t.Helper()
	s, answerers := dialectTable(t, "max_rounds: 100\n", 7)
	tokens := s.Tokens().Seats
	for step := 0; !s.Status().Over && step < 5000; step++ {
		seat := s.Status().Waiting
		p, err := s.Pending(tokens[seat])
		if err != nil {
			t.Fatal(err)
		}
		if pred(p) {
			return s, p
		}
		g := s.Game()
		if _, err := s.Submit(context.Background(), tokens[seat], agent.Respond(answerers[seat], g.View(seat), g.Pending(), false), session.At(p.Entries)); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no such decision came up")
	return nil, session.Pending{}
}

// TestPayloadErrors checks that payloads that do not fit say what is
// wrong with them.
func TestPayloadErrors(t *testing.T) {
	beforeRoll := func(p session.Pending) bool {
		return p.Decision.Kind == monopoly.DecisionManage && p.Decision.Phase == monopoly.PhaseBeforeRoll
	}
	afterRoll := func(p session.Pending) bool {
		return p.Decision.Kind == monopoly.DecisionManage && p.Decision.Phase == monopoly.PhaseAfterRoll && !p.Decision.RollsAgain
	}
	cases := []struct {
		at       func(session.Pending) bool
		decision string
		want     string
	}{
		{beforeRoll, `{"kind":"yieldTurn"}`, "the turn's roll is still to come: rollDice"},
		{afterRoll, `{"kind":"rollDice"}`, "yieldTurn ends the turn"},
		{beforeRoll, `{"kind":"purchaseProperty"}`, `"buy" is missing`},
		{beforeRoll, `{"kind":"purchaseProperty","buy":"yes"}`, `buy "yes": want true or false`},
		{beforeRoll, `{"kind":"purchaseProperty","buy":true,"price":3}`, `unknown key "price"`},
		{beforeRoll, `{"kind":"jailExit","choice":"escape"}`, `choice "escape": want one of payFine, tryDoubles, useCard, wait`},
		{beforeRoll, `{"kind":"auctionBid"}`, `"bid" is missing: an amount, or null to drop out`},
		{beforeRoll, `{"kind":"auctionBid","bid":"lots"}`, `want a whole number of dollars, or null`},
		{beforeRoll, `{"kind":"mortgageProperty","mortgage":false}`, "mortgage: false asks for nothing"},
		{beforeRoll, `{"kind":"improveGroup","improve":true,"colorGroup":"darkBlue","location":1}`, `location 1 is not in colorGroup "darkBlue"`},
		{beforeRoll, `{"kind":"proposeTrade","buyerGives":{"cash":10}}`, `whom to?`},
		{beforeRoll, `{"kind":"proposeTrade","to":"Zed","buyerGives":{"cash":10}}`, `to "Zed": no player of that name`},
		{beforeRoll, `{"kind":"proposeTrade","to":1,"buyerGives":{"money":10}}`, `unknown field "money"`},
		{beforeRoll, `{"kind":"counterTrade","buyerGives":{"cash":10}}`, "there is no offer to counter"},
		{beforeRoll, `{"kind":"teleport"}`, `unknown kind "teleport": want a gopoly action kind (continue, build`},
		{beforeRoll, `{"kind":7}`, `"kind" is missing or not a string`},
		{beforeRoll, `[1,2]`, "want a JSON object"},
		{beforeRoll, `"fly away"`, "wire: notation"},
		{beforeRoll, `{"kind":"build","square":"Nowhere Lane"}`, `unknown square "Nowhere Lane"`},
		{beforeRoll, `{"action":{"kind":"continue"},"shout":"hi"}`, `shout: not a key of an answer`},
	}
	s, p := pendingAt(t, beforeRoll)
	s2, p2 := pendingAt(t, afterRoll)
	for _, c := range cases {
		ss, pp := s, p
		if reflect.ValueOf(c.at).Pointer() == reflect.ValueOf(afterRoll).Pointer() {
			ss, pp = s2, p2
		}
		_, err := parseDecision(askingOf(&pp), ss.Rules(), json.RawMessage(c.decision))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.decision, err, c.want)
		}
	}
}

// TestPayloadsWithoutLocation checks the squares monopoly-mcp's
// location-less payloads name: the one legal square, or the first of
// the group.
func TestPayloadsWithoutLocation(t *testing.T) {
	canBuild := func(p session.Pending) bool {
		for _, a := range optionActions(&p) {
			if a.Kind == "build" {
				return true
			}
		}
		return false
	}
	s, p := pendingAt(t, canBuild)
	var first int
	groups := map[string]bool{}
	for _, a := range optionActions(&p) {
		if a.Kind == "build" {
			if len(groups) == 0 {
				first = *a.Square
			}
			groups[mcpGroup(p.View.Board[*a.Square].Group)] = true
		}
	}
	group := mcpGroup(p.View.Board[first].Group)
	got, err := parseDecision(askingOf(&p), s.Rules(), json.RawMessage(`{"kind":"improveGroup","improve":true,"colorGroup":"`+group+`"}`))
	if err != nil || got.action.Kind != monopoly.ActBuild || got.action.Arg != first {
		t.Errorf("improveGroup in %s: %+v, %v; want a build on %d", group, got.action, err, first)
	}
	_, err = parseDecision(askingOf(&p), s.Rules(), json.RawMessage(`{"kind":"improveGroup","improve":true}`))
	if len(groups) == 1 && err != nil || len(groups) > 1 && (err == nil || !strings.Contains(err.Error(), "which colorGroup?")) {
		t.Errorf("improveGroup without a group, %d groups buildable: %v", len(groups), err)
	}
}

// TestGopolyFormsMakeNoPending checks that gopoly's JSON and notation
// are read without the seat's Pending, which only monopoly-mcp's
// payloads are read against.
func TestGopolyFormsMakeNoPending(t *testing.T) {
	r := monopoly.DefaultRules()
	made := 0
	q := asking{seat: 0, names: []string{"Ann", "Bob"}, pending: func() *session.Pending { made++; return &session.Pending{} }}
	for _, raw := range []string{`{"kind":"buy"}`, `{"action":{"kind":"buy"},"speech":"Mine"}`, `"buy"`, `"{\"kind\":\"buy\"}"`} {
		got, err := parseDecision(q, r, json.RawMessage(raw))
		if err != nil || got.action.Kind != monopoly.ActBuy {
			t.Errorf("%s: %+v, %v", raw, got.action, err)
		}
	}
	if made != 0 {
		t.Errorf("gopoly's forms made the Pending %d times", made)
	}
	parseDecision(q, r, json.RawMessage(`{"kind":"purchaseProperty","buy":true}`))
	if made != 1 {
		t.Errorf("a monopoly-mcp payload made the Pending %d times, want 1", made)
	}
}
