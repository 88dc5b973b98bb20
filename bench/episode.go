package bench

import (
	"github.com/gopoly/gopoly/agent"
	"github.com/gopoly/gopoly/monopoly"
)

// A decision's episode is the play it opens that the seat goes on
// answering: an auction (the seat's later bids in it: its limit, not
// only its first raise) and a management or cash-raising phase (its
// later actions in the same phase: the houses it builds after the first,
// whether it ends the phase there). Scoring the first answer alone, the
// rest played by the baseline, credits a seat with the baseline's play:
// a random seat's first raise of $1 was worth the baseline's limit. The
// other decisions are one answer each.

// maxLine bounds the seat's answers in one episode, each of them a call
// for an LLM seat (the random bot manages a phase in at most eight); the
// baseline answers the rest of a longer one.
const maxLine = 24

// inEpisode reports whether g, after answers to d given at turn and
// phase, is still in d's episode: the same auction, or, in the seat's
// own phase, another of its decisions of d's kind or another player's
// answer to what it did (a proposal's response).
func inEpisode(g *monopoly.Game, d monopoly.Decision, turn int, phase monopoly.Phase) bool {
	n := g.Pending()
	if g.Over() || n.Kind == monopoly.DecisionNone {
		return false
	}
	switch d.Kind {
	case monopoly.DecisionBid:
		return n.Kind == monopoly.DecisionBid
	case monopoly.DecisionManage, monopoly.DecisionRaiseCash:
		return g.Turn() == turn && g.Phase() == phase && (n.Player != d.Player || n.Kind == d.Kind)
	}
	return false
}

// answerLine asks agent a, the seat at d, for its answers through d's
// episode, on a copy of g where the other players are baselines: the
// answers in order (the first is the answer to d). The play has no dice
// (the episode ends at the roll that ends a phase), so it is the play of
// every rollout; the rollouts play it from the line without asking the
// seat again.
func answerLine(a agent.Agent, g *monopoly.Game, d monopoly.Decision) []monopoly.Action {
	g = g.Clone()
	turn, phase := g.Turn(), g.Phase()
	others := baselines(0)
	var line []monopoly.Action
	for len(line) < maxLine {
		n := g.Pending()
		if n.Player != d.Player {
			if g.Apply(others[n.Player].Decide(g.View(n.Player), n)) != nil {
				return line
			}
		} else {
			ans := agent.Respond(a, g.View(n.Player), n, false).Action
			if g.Apply(ans) != nil {
				// A refused first answer is scored as such; a later one
				// ends the line, the baseline answering in its place.
				if len(line) == 0 {
					line = append(line, ans)
				}
				return line
			}
			line = append(line, ans)
		}
		if !inEpisode(g, d, turn, phase) {
			return line
		}
	}
	return line
}

// scripted plays a recorded line at the seat's decisions, then its
// fallback. The rollouts replay the recorded play exactly, so the line's
// answers meet the decisions they were given at; each is checked legal
// all the same, and a line that meets a refusal is dropped.
type scripted struct {
	line     []monopoly.Action
	fallback agent.Agent
}

// Decide implements agent.Agent.
func (s *scripted) Decide(v monopoly.View, d monopoly.Decision) monopoly.Action {
	if len(s.line) > 0 && v.Refusal(s.line[0]) == monopoly.RefusalNone {
		a := s.line[0]
		s.line = s.line[1:]
		return a
	}
	s.line = nil
	return s.fallback.Decide(v, d)
}
