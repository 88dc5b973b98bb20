package agent

import "github.com/gopoly/gopoly/monopoly"

// Answer is an action with the words that go with it: Speech is said at
// the table, for every player to hear; Thought is private, seen only by
// its author and by the research views. A proposal's Speech is its pitch.
type Answer struct {
	Action  monopoly.Action
	Speech  string
	Thought string
}

// Talker is an agent that explains itself: the personalities, rule-based
// and LLM-backed. Answer must give the action Decide would give; it is
// asked instead of Decide when someone is listening (the game records its
// events), so that bot-only simulation does not pay for words.
type Talker interface {
	Agent
	Answer(v monopoly.View, d monopoly.Decision) Answer
}
