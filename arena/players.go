package arena

// The players a run can seat register themselves when imported.
import (
	_ "github.com/gopoly/gopoly/agent/bots"
	_ "github.com/gopoly/gopoly/agent/personality"
	_ "github.com/gopoly/gopoly/agent/planning"
	_ "github.com/gopoly/gopoly/extbot" // programs: exec:, tcp:, monopyly:
)
