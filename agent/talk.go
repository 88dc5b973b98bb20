package agent

import (
	"encoding/json"

	"github.com/gopoly/gopoly/monopoly"
)

// Answer is an action with the words that go with it: Speech is said at
// the table, for every player to hear; Thought is private, seen only by
// its author and by the research views. A proposal's Speech is its pitch.
type Answer struct {
	Action  monopoly.Action
	Speech  string
	Thought string
	// Research is how the answer was made, for the research log, as JSON
	// (an LLM seat's prompts, raw responses, tokens and costs); nil for
	// most players. It is stored with the answer and handed back on
	// replay (Replayer), never shown at the table.
	Research json.RawMessage
}

// Talker is an agent that explains itself: the personalities, rule-based
// and LLM-backed. Answer must give the action Decide would give; it is
// asked instead of Decide when someone is listening (the game records its
// events), so that bot-only simulation does not pay for words.
type Talker interface {
	Agent
	Answer(v monopoly.View, d monopoly.Decision) Answer
}

// Replayer is a player whose answers cannot be asked for again, a
// language model: when a stored game is replayed it is told the answer
// it gave (with its research record) instead of being asked, so that it
// stands where it stood without calling anything.
type Replayer interface {
	Agent
	Replay(v monopoly.View, d monopoly.Decision, ans Answer)
}

// Seated is a player told who sits at its table before the game starts:
// the players' names and what plays each seat ("shark", "human"), by
// seat, so that it can name them as the table does.
type Seated interface {
	Agent
	Seat(names, players []string)
}
