package deal

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// A match is a person against an agent, as the terminal game and the
// browser play it: the person is player 0, the agent player 1. Both
// front ends name the agent the same way and drive it through the same
// loop, so a game in one replays move for move in the other.

// Seats of a match.
const (
	Person   = 0
	Opponent = 1
)

// ReferenceAgents names the agents that need no training, in the order
// front ends list them: the untrained policy (it never passes while it
// holds a playable card) and the two baselines.
func ReferenceAgents() []string { return []string{"untrained", "risk-aware", "random"} }

// NewAgent returns the agent a name stands for and the rules it plays:
// "bundled" is the trained policy gopoly carries, under its own rules;
// "untrained", "random" and "risk-aware" are the reference agents, under
// cfg; any other name (the empty one too) is a checkpoint, whose file
// locate finds (or refuses) and whose rules it keeps.
func NewAgent(name string, cfg Config, locate func(name string) (string, error)) (Seat, *Rules, error) {
	switch name {
	case "bundled":
		ck, err := Bundled()
		if err != nil {
			return Seat{}, nil, err
		}
		return ck.Policy().Seat(), ck.Rules(), nil
	case "untrained", "random", "risk-aware":
		r, err := NewRules(cfg)
		if err != nil {
			return Seat{}, nil, err
		}
		if name == "untrained" {
			return NewPolicy(NewTables(r.PlaysPerStreak(), 1), Greedy).Seat(), r, nil
		}
		s, err := Baseline(name)
		return s, r, err
	}
	path, err := locate(name)
	if err != nil {
		return Seat{}, nil, err
	}
	ck, err := LoadCheckpoint(path)
	if err != nil {
		return Seat{}, nil, err
	}
	return ck.Policy().Seat(), ck.Rules(), nil
}

// Match is a game of a person against an agent with its record.
type Match struct {
	game  Game
	agent Seat
	rng   *rand.PCG
	rec   Record
}

// NewMatch deals a game of rules from seed, started by starter (Person or
// Opponent), against agent. The agent's random choices come from seed
// too, so the seed and the person's moves replay the game.
func NewMatch(rules *Rules, agent Seat, seed uint64, starter int) *Match {
	return &Match{game: New(rules, seed, starter), agent: agent, rng: rand.NewPCG(seed, 0x5eed),
		rec: Record{Config: rules.Config(), Seed: seed, Starter: starter}}
}

// Game is the game being played. Moves go through Play and AgentPlays,
// which keep the record.
func (m *Match) Game() *Game { return &m.game }

// Record is the game so far, for Replay.
func (m *Match) Record() Record { return m.rec }

// Play applies the person's move. A move that is not legal, or not the
// person's to make, changes nothing.
func (m *Match) Play(a Action) error {
	if m.game.Over() || m.game.ToAct() != Person {
		return fmt.Errorf("deal: it is not the person's move")
	}
	return m.apply(a)
}

func (m *Match) apply(a Action) error {
	if err := m.game.Apply(a); err != nil {
		return err
	}
	m.rec.Actions = append(m.rec.Actions, m.game.Rules().ActionString(a))
	return nil
}

// AgentMove is one move of the agent: what it saw, its abstract choice,
// the card its resolver picked, and the probability its policy gave each
// abstract action there (Note says how it plays in that position, when
// that is worth saying).
type AgentMove struct {
	InfoSet  InfoSet
	Abstract Abstract
	Action   Action
	Probs    [NumAbstract]float64
	Note     string
}

// AgentPlays lets the agent move until it is the person's turn or the
// game is over. Each move is shown to seen first, in the position it is
// made from (so that it can be put into words), then played.
func (m *Match) AgentPlays(seen func(g *Game, mv AgentMove)) error {
	g := &m.game
	for !g.Over() && g.ToAct() == Opponent {
		is, ab, a, err := m.agent.Decide(g, m.rng)
		if err != nil {
			return err
		}
		mv := AgentMove{InfoSet: is, Abstract: ab, Action: a}
		mv.Probs, mv.Note = Probabilities(m.agent.Agent, is)
		seen(g, mv)
		if err := m.apply(a); err != nil {
			return err
		}
	}
	return nil
}

// Save writes the game's record to path as indented JSON, atomically: a
// crash leaves the previous record or the new one, never half of one.
func (m *Match) Save(path string) error {
	data, err := json.MarshalIndent(m.rec, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, data)
}
