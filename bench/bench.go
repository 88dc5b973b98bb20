// Package bench is the decision-quality benchmark: a fixed, versioned set
// of positions drawn from real games, each put to a seat (a bot, an LLM
// player, a program), whose answer is scored by its regret: the rollout
// value of the best answer there minus that of the answer given, both
// played out from the same position with the same random numbers
// (common random numbers), so that the difference is the answer's and not
// the dice's.
package bench

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

	"github.com/gopoly/gopoly/agent"
	_ "github.com/gopoly/gopoly/agent/bots" // the baseline of the games and rollouts
	"github.com/gopoly/gopoly/monopoly"
)

// Version is the version of the position set. The positions are stored
// as games, so a change of the bots does not move them; it changes when
// the set is drawn again or the engine's serialization changes.
const Version = 2

// Position is one stored position: the game at a decision of Kind,
// serialized by the engine (monopoly.Game.MarshalJSON) without its rules,
// which the set holds once under the name Rules.
type Position struct {
	Kind  string `json:"kind"`
	Rules string `json:"rules"`
	// Seed and Decision say where it was drawn: the Decision-th decision
	// of the game of Seed between four baselines. For the record only:
	// Game is the position.
	Seed     uint64          `json:"seed"`
	Decision int             `json:"decision"`
	Game     json.RawMessage `json:"game"`
	// Proposals are, at a trade_proposal, the offers the source game
	// made there: candidates besides not proposing.
	Proposals []monopoly.Action `json:"proposals,omitempty"`
}

// Set is the stored position set.
type Set struct {
	Version int `json:"version"`
	// Rules are the rules the positions are played under, by name, as
	// the engine writes them.
	Rules     map[string]json.RawMessage `json:"rules"`
	Positions []Position                 `json:"positions"`
}

//go:embed positions.json
var positionsJSON []byte

// Positions returns the stored position set.
func Positions() (Set, error) {
	var s Set
	if err := json.Unmarshal(positionsJSON, &s); err != nil {
		return Set{}, fmt.Errorf("bench: positions.json: %v", err)
	}
	if s.Version != Version {
		return Set{}, fmt.Errorf("bench: positions.json is version %d, this gopoly reads %d", s.Version, Version)
	}
	return s, nil
}

// Kinds are the decision kinds of the set, in the order reports list
// them: trade_proposal is a manage decision with proposals left, scored
// as proposing or not; sealed_limit is the answer to a proposal under
// sealed deals, the limit named with an acceptance.
var Kinds = []string{"buy", "bid", "build", "mortgage", "jail", "trade_proposal", "trade_response", "sealed_limit", "mortgaged_transfer"}

// kindOf names the kind of decision d in g for the set ("" for none of
// them), given the answer a the source game gave: a manage decision
// answered by a proposal is a trade_proposal, else a build when a build
// is legal.
func kindOf(g *monopoly.Game, d monopoly.Decision, a monopoly.Action) string {
	switch d.Kind {
	case monopoly.DecisionBuy:
		return "buy"
	case monopoly.DecisionBid:
		return "bid"
	case monopoly.DecisionRaiseCash:
		return "mortgage"
	case monopoly.DecisionJail:
		return "jail"
	case monopoly.DecisionTradeResponse:
		if g.Rules().DealProtocol == monopoly.DealsSealed {
			return "sealed_limit"
		}
		return "trade_response"
	case monopoly.DecisionMortgagedTransfer:
		return "mortgaged_transfer"
	case monopoly.DecisionManage:
		if a.Kind == monopoly.ActProposeTrade {
			return "trade_proposal"
		}
		for _, l := range g.LegalActions(nil) {
			if l.Kind == monopoly.ActBuild {
				return "build"
			}
		}
	}
	return ""
}

// Load reads position i of the set: the game and its decision. A
// position whose game does not read, or does not wait for a decision of
// its kind, is an error.
func (s Set) Load(i int) (*monopoly.Game, monopoly.Decision, error) {
	p := s.Positions[i]
	rules, ok := s.Rules[p.Rules]
	if !ok {
		return nil, monopoly.Decision{}, fmt.Errorf("bench: position %d: no rules %q in the set", i, p.Rules)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(p.Game, &fields); err != nil {
		return nil, monopoly.Decision{}, fmt.Errorf("bench: position %d: %v", i, err)
	}
	fields["rules"] = rules
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, monopoly.Decision{}, err
	}
	g, err := monopoly.UnmarshalGame(data)
	if err != nil {
		return nil, monopoly.Decision{}, fmt.Errorf("bench: position %d: %v", i, err)
	}
	d := g.Pending()
	var a monopoly.Action
	if len(p.Proposals) > 0 {
		a = p.Proposals[0]
	}
	if k := kindOf(g, d, a); k != p.Kind {
		return nil, monopoly.Decision{}, fmt.Errorf("bench: position %d is a %s position whose game waits for a %q decision", i, p.Kind, k)
	}
	return g, d, nil
}

// store writes g as a position of kind under the rules named rules,
// adding the rules to the set the first time.
func (s *Set) store(g *monopoly.Game, rules, kind string, seed uint64, decision int, proposals []monopoly.Action) error {
	data, err := g.MarshalJSON()
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	if s.Rules == nil {
		s.Rules = map[string]json.RawMessage{}
	}
	if _, ok := s.Rules[rules]; !ok {
		s.Rules[rules] = fields["rules"]
	}
	delete(fields, "rules")
	game, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	s.Positions = append(s.Positions, Position{Kind: kind, Rules: rules, Seed: seed, Decision: decision, Game: game, Proposals: proposals})
	return nil
}

// maxDecisions bounds the play of one game.
const maxDecisions = 20_000

// baselines are four baseline players for game seed.
func baselines(seed uint64) []agent.Agent {
	out := make([]agent.Agent, 4)
	for i := range out {
		a, err := agent.New("baseline", i, agent.SeatSeed(seed, i))
		if err != nil {
			panic(err) // baseline is always registered
		}
		out[i] = a
	}
	return out
}

// play plays g with agents until stop says so or the game ends; it
// reports whether stop did. stop sees each decision with the answer
// about to be given.
func play(g *monopoly.Game, agents []agent.Agent, stop func(*monopoly.Game, monopoly.Decision, monopoly.Action) bool) bool {
	for range maxDecisions {
		d := g.Pending()
		if g.Over() || d.Kind == monopoly.DecisionNone {
			return false
		}
		a := agents[d.Player].Decide(g.View(d.Player), d)
		if stop != nil && stop(g, d, a) {
			return true
		}
		if g.Apply(a) != nil {
			// A bot's illegal answer: the first legal one stands in.
			g.Apply(g.LegalActions(nil)[0])
		}
	}
	return false
}

// interval is a mean with its 95% half-width (normal approximation).
func interval(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
}
