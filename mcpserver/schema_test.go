package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/session"
	"github.com/gopoly/gopoly/store"
)

// advertisedSubmit is submit_decision's input schema as a client reads
// it from tools/list, resolved by jsonschema-go's validator (a
// draft 2020-12 validator of its own, not the server's decoder).
func advertisedSubmit(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := New(ctx, session.NewManager(st, session.Options{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ct, sst := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, sst, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "schema", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != "submit_decision" {
			continue
		}
		data, _ := json.Marshal(tool.InputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Fatal("tools/list has no submit_decision")
	return nil
}

// TestLegalAnswersMatchTheSchema plays whole games, every seat waiting
// and answered by a bot, in every rules variant (standard, speed die,
// sealed deals, counter-offers, the Monopyly rules of examples/rules),
// and checks that every legal answer the server offers, as gopoly action
// JSON, as a monopoly-mcp payload (object and JSON-encoded string) and
// as notation, is a valid submit_decision argument by the advertised
// schema: a client that validates its arguments can send every one. It
// also checks that every legal answer has a monopoly-mcp payload.
func TestLegalAnswersMatchTheSchema(t *testing.T) {
	schema := advertisedSubmit(t)
	monopyly, err := os.ReadFile("../examples/rules/monopyly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	speed, err := os.ReadFile("../examples/rules/speed-die.yaml")
	if err != nil {
		t.Fatal(err)
	}
	variants := []struct {
		name, rules string
		seed        uint64
	}{
		{"standard", "max_rounds: 100\n", 3},
		{"speed die", "max_rounds: 100\n" + string(speed), 4},
		{"sealed deals", "max_rounds: 100\ndeal_protocol: sealed\n", 2},
		{"counter-offers", "max_rounds: 100\ncounter_offers: 5\n", 1},
		{"monopyly", string(monopyly), 5},
	}
	seen := map[string]int{}
	valid := map[string]bool{} // forms checked already: the same answers recur
	for _, v := range variants {
		s, answerers := dialectTable(t, v.rules, v.seed)
		tokens := s.Tokens().Seats
		ctx := context.Background()
		checked := 0
		for step := 0; !s.Status().Over; step++ {
			if step > 20000 {
				t.Fatalf("%s: not over after %d answers", v.name, step)
			}
			seat := s.Status().Waiting
			p, err := s.Pending(tokens[seat])
			if err != nil {
				t.Fatal(err)
			}
			for _, lp := range legalPayloads(&p) {
				if string(lp.Payload) == "null" {
					t.Errorf("%s: %s (decision %s) has no monopoly-mcp payload", v.name, lp.Action, p.Decision.Kind)
				}
				quoted, _ := json.Marshal(string(lp.Payload))
				note, _ := json.Marshal(lp.Notation)
				for _, form := range []json.RawMessage{lp.Action, lp.Payload, quoted, note} {
					if valid[string(form)] {
						continue
					}
					valid[string(form)] = true
					var decision any
					if err := json.Unmarshal(form, &decision); err != nil {
						t.Fatal(err)
					}
					args := map[string]any{"game_id": s.ID(), "decision": decision}
					if err := schema.Validate(args); err != nil {
						t.Fatalf("%s: decision %s (%s) does not match submit_decision's schema: %v", v.name, form, p.Decision.Kind, err)
					}
					checked++
				}
				var head struct{ Kind string }
				json.Unmarshal(lp.Payload, &head)
				seen[p.Decision.Kind.String()+"/"+head.Kind]++
			}
			g := s.Game()
			ans := agent.Respond(answerers[seat], g.View(seat), g.Pending(), false)
			if _, err := s.Submit(ctx, tokens[seat], ans, session.At(p.Entries)); err != nil {
				t.Fatalf("%s: %s's answer: %v", v.name, answerers[seat], err)
			}
		}
		t.Logf("%s: %d new forms valid", v.name, checked)
	}
	t.Logf("decision/payload kinds: %v", seen)
	for _, k := range []string{"movement/movementChoice", "mortgaged_transfer/unmortgageProperty", "jail/jailExit", "bid/auctionBid", "trade_response/attemptTrade"} {
		if seen[k] == 0 {
			t.Errorf("no %s came up: the games do not cover it", k)
		}
	}
}
