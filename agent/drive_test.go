package agent_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots"
	"github.com/gopoly/gopoly/monopoly"
)

// askerFunc adapts a function to agent.Asker.
type askerFunc func(ctx context.Context, v monopoly.View, d monopoly.Decision) (agent.Answer, error)

func (f askerFunc) Ask(ctx context.Context, v monopoly.View, d monopoly.Decision) (agent.Answer, error) {
	return f(ctx, v, d)
}

func baselines(t *testing.T, n int) []agent.Agent {
	t.Helper()
	as := make([]agent.Agent, n)
	for i := range as {
		a, err := agent.New("baseline", i, uint64(i)+7)
		if err != nil {
			t.Fatal(err)
		}
		as[i] = a
	}
	return as
}

// A seat with no player stops the loop at its first decision, and the
// game then goes on from there as if it had never stopped.
func TestDriverStopsForWaitingSeat(t *testing.T) {
	rules := monopoly.DefaultRules()
	whole := monopoly.New(rules, 3, 5)
	full := agent.Driver{Agents: baselines(t, 3)}
	if _, stop, err := full.Run(context.Background(), whole); err != nil || stop != agent.StopOver {
		t.Fatalf("uninterrupted: %v, %v", stop, err)
	}

	g := monopoly.New(rules, 3, 5)
	players := baselines(t, 3)
	d := agent.Driver{Agents: append([]agent.Agent(nil), players...)}
	d.Agents[1] = nil
	waits := 0
	for !g.Over() {
		_, stop, err := d.Run(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if stop == agent.StopOver {
			break
		}
		if stop != agent.StopWaiting || g.Decider() != 1 {
			t.Fatalf("stopped (%v) for seat %d", stop, g.Decider())
		}
		waits++
		a := players[1].Decide(g.View(1), g.Pending())
		if err := d.Apply(g, 1, agent.Answer{Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	if waits == 0 || !g.SameState(whole) {
		t.Errorf("after %d waits the game differs from the uninterrupted one", waits)
	}
}

// A refused answer is a SeatError and changes nothing, its words
// included; Max stops the loop.
func TestDriverRefusesAndLimits(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 2, 1)
	g.Record(true)
	g.TakeEvents()
	before := g.Clone()
	var d agent.Driver
	err := d.Apply(g, 1, agent.Answer{Action: monopoly.Action{Kind: monopoly.ActBuy, Player: 1}, Speech: "mine!"})
	var se *agent.SeatError
	var re *monopoly.RuleError
	if !errors.As(err, &se) || se.Seat != 1 || !errors.As(err, &re) {
		t.Fatalf("error %v, want a SeatError of seat 1 wrapping a RuleError", err)
	}
	if len(g.Events()) != 0 || !g.SameState(before) {
		t.Errorf("a refused answer left %d events or changed the game", len(g.Events()))
	}
	d = agent.Driver{Agents: baselines(t, 2), Max: 10}
	if n, stop, err := d.Run(context.Background(), g); n != 10 || stop != agent.StopLimit || err != nil {
		t.Errorf("Run = %d, %v, %v; want 10 decisions and StopLimit", n, stop, err)
	}
}

// An asker is asked with the timeout, and its failure is the seat's.
func TestDriverAskerTimeout(t *testing.T) {
	g := monopoly.New(monopoly.DefaultRules(), 2, 1)
	slow := askerFunc(func(ctx context.Context, v monopoly.View, d monopoly.Decision) (agent.Answer, error) {
		<-ctx.Done()
		return agent.Answer{}, ctx.Err()
	})
	d := agent.Driver{Askers: []agent.Asker{slow, slow}, Timeout: 20 * time.Millisecond}
	_, _, err := d.Run(context.Background(), g)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the deadline", err)
	}
	players := baselines(t, 2)
	quick := func(p int) agent.Asker {
		return askerFunc(func(ctx context.Context, v monopoly.View, d monopoly.Decision) (agent.Answer, error) {
			return agent.Answer{Action: players[p].Decide(v, d), Speech: "hm"}, nil
		})
	}
	g.Record(true)
	d.Askers = []agent.Asker{quick(0), quick(1)}
	if _, stop, err := d.Run(context.Background(), g); err != nil || stop != agent.StopOver {
		t.Fatalf("Run = %v, %v", stop, err)
	}
	speeches := 0
	for _, e := range g.Events() {
		if e.Kind == monopoly.EvSpeech {
			speeches++
		}
	}
	if speeches == 0 {
		t.Error("the askers' words were not recorded")
	}
}
