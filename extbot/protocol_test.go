package extbot

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
	"github.com/gopoly/gopoly/render"
	"github.com/gopoly/gopoly/wire"
)

// decideAt builds the Decide of seat's pending decision in g, with the
// events of the game so far, as Seat.ask does.
func decideAt(g *monopoly.Game, events []monopoly.Event, omit omissions) Decide {
	v := g.View(g.Decider())
	m := Decide{Type: TypeDecide, Game: 1, ID: 7, Decision: wire.NewDecision(v), Options: wire.NewOptionsWithout(v, omit.options),
		View: wire.NewState(v), Budget: Budget{DecisionMS: 5000, GameMS: 299000}}
	m.Text = render.Decision(m.Decision, nil)
	for i, e := range events {
		m.Events = append(m.Events, wire.NewEvent(v.Rules(), e, v.Me(), i))
	}
	return m
}

// TestDecideJSON: the hand-written decide reads back as what
// encoding/json writes of it, events included, at decisions of baseline
// games; what a program omits is not there.
func TestDecideJSON(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 3, 5)
	g.Record(true)
	bots := make([]agent.Agent, 3)
	for s := range bots {
		bots[s], _ = agent.New("baseline", s, uint64(s))
	}
	lean, err := parseOmit([]string{"text", "notation", "trade", "events"})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; !g.Over() && n < 400; n++ {
		if n%9 == 0 {
			from := max(0, len(g.Events())-30)
			m := decideAt(g, g.Events()[from:], omissions{})
			var got, want any
			if err := json.Unmarshal(m.appendJSON(nil, omissions{}), &got); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(m)
			json.Unmarshal(b, &want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decision %d:\n got %v\nwant %v", n, got, want)
			}
			var parts map[string]any
			ml := decideAt(g, g.Events()[from:], lean)
			if err := json.Unmarshal(ml.appendJSON(nil, lean), &parts); err != nil {
				t.Fatal(err)
			}
			opts, _ := parts["options"].(map[string]any)
			if parts["text"] != nil || parts["events"] != nil || opts == nil || opts["notation"] != nil || opts["trade"] != nil || parts["view"] == nil {
				t.Fatalf("decision %d, omitting: %v", n, parts)
			}
		}
		p := g.Decider()
		if err := g.Apply(bots[p].Decide(g.View(p), g.Pending())); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := parseOmit([]string{"view"}); err == nil {
		t.Error("omitting the view was allowed")
	}
}

// BenchmarkDecide is gopoly's share of a decision of a program, with no
// program: building and writing the decide (as a program omitting what
// the Go example bot omits gets it), and reading and checking an answer.
func BenchmarkDecide(b *testing.B) {
	for _, c := range []struct {
		name string
		omit []string
	}{{"whole", nil}, {"lean", []string{"text", "notation", "trade", "events"}}} {
		b.Run(c.name, func(b *testing.B) {
			g := monopoly.New(monopoly.DefaultRules(), 4, 3)
			bots := make([]agent.Agent, 4)
			for s := range bots {
				bots[s], _ = agent.New("baseline", s, uint64(s))
			}
			for !(g.Decider() == 0 && g.Pending().Kind == monopoly.DecisionManage && g.Round() >= 8) {
				p := g.Decider()
				g.Apply(bots[p].Decide(g.View(p), g.Pending()))
			}
			omit, _ := parseOmit(c.omit)
			v := g.View(0)
			answer := []byte(`{"type":"answer","id":7,"action":{"kind":"continue"}}`)
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				m := Decide{Type: TypeDecide, Game: 1, ID: 7, Decision: wire.NewDecision(v), Options: wire.NewOptionsWithout(v, omit.options),
					View: wire.NewState(v)}
				if !omit.text {
					m.Text = render.Decision(m.Decision, nil)
				}
				buf = m.appendJSON(buf[:0], omit)
				var a Answer
				if err := json.Unmarshal(answer, &a); err != nil {
					b.Fatal(err)
				}
				act, err := wire.DecodeAction(v.Rules(), 0, a.Action)
				if err == nil {
					err = v.Check(act)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(buf)), "bytes/msg")
		})
	}
}
